package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/contacts"
)

// The small request bodies, named so that the route table can point the
// OpenAPI document at the struct each handler decodes.

// contactFilterRequest is the body of POST /contacts/filter.
type contactFilterRequest struct {
	Payload []contacts.FilterCondition `json:"payload"`
}

// contactInboxRequest links a contact to another inbox.
type contactInboxRequest struct {
	InboxID  *flexInt `json:"inbox_id"`
	SourceID *string  `json:"source_id"`
}

// labelsRequest replaces a contact's or a conversation's labels.
type labelsRequest struct {
	Labels *flexStrings `json:"labels"`
}

// decodeLabels reads a labels request's titles. The list is required, so
// that a body without it never clears the labels by mistake; an empty list
// does.
func decodeLabels(c *fiber.Ctx) ([]string, error) {
	var req labelsRequest
	if err := decode(c, "", &req); err != nil {
		return nil, err
	}
	if req.Labels == nil {
		return nil, invalidField("labels", "Labels can't be blank: send a list of label titles (an empty list clears them)")
	}
	return *req.Labels, nil
}

// contactMergeRequest merges the mergee into the base contact.
type contactMergeRequest struct {
	BaseContactID   *flexInt `json:"base_contact_id"`
	MergeeContactID *flexInt `json:"mergee_contact_id"`
}

// inboxAgentBotRequest sets (or, with null, removes) an inbox's agent bot.
type inboxAgentBotRequest struct {
	AgentBot *flexInt `json:"agent_bot"`
}

// inboxMembersRequest changes an inbox's agents; the inbox may come from
// the path instead.
type inboxMembersRequest struct {
	InboxID *flexInt  `json:"inbox_id"`
	UserIDs *flexInts `json:"user_ids"`
}

// userIDsRequest changes a team's agents.
type userIDsRequest struct {
	UserIDs *flexInts `json:"user_ids"`
}

// toggleStatusRequest sets a conversation's status (or toggles it).
type toggleStatusRequest struct {
	Status       *string `json:"status"`
	SnoozedUntil *string `json:"snoozed_until"`
}

// accountCreateRequest is the platform API's account create.
type accountCreateRequest struct {
	Name string `json:"name"`
}

// accountUpdateRequest is the platform API's account update.
type accountUpdateRequest struct {
	Name   *string `json:"name"`
	Locale *string `json:"locale"`
	Status *string `json:"status"`
}

// userCreateRequest is the platform API's user create.
type userCreateRequest struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	Password string `json:"password"`
}
