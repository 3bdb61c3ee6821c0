package rest

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/coerce"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/wire"
)

type messageRequest struct {
	Content           *string     `json:"content"`
	MessageType       string      `json:"message_type"`
	ContentType       string      `json:"content_type"`
	Private           flexBool    `json:"private"`
	ContentAttributes *flexObject `json:"content_attributes"`
	TemplateParams    *flexObject `json:"template_params"`
}

func (r *messageRequest) input() *conversations.MessageInput {
	if r == nil {
		return nil
	}
	return &conversations.MessageInput{
		Content: r.Content, MessageType: r.MessageType, ContentType: r.ContentType, Private: bool(r.Private),
		ContentAttributes: objectOrNil(r.ContentAttributes), TemplateParams: objectOrNil(r.TemplateParams),
	}
}

type conversationRequest struct {
	SourceID             *string         `json:"source_id"`
	InboxID              *flexInt        `json:"inbox_id"`
	ContactID            *flexInt        `json:"contact_id"`
	Status               *string         `json:"status"`
	AssigneeID           *flexInt        `json:"assignee_id"`
	TeamID               *flexInt        `json:"team_id"`
	SnoozedUntil         *string         `json:"snoozed_until"`
	AdditionalAttributes *flexObject     `json:"additional_attributes"`
	CustomAttributes     *flexObject     `json:"custom_attributes"`
	Message              *messageRequest `json:"message"`
}

// parseTime reads an optional ISO 8601 time field.
func parseTime(field string, s *string) (*time.Time, error) {
	if s == nil || *s == "" {
		return nil, nil
	}
	t, err := coerce.Time(*s)
	if err != nil {
		return nil, apperr.Invalidf(field, "%s must be an ISO 8601 time such as 2026-01-31T09:00:00Z", apperr.Humanize(field))
	}
	return &t, nil
}

func (a *API) listConversations(c *fiber.Ctx) error {
	page, err := queryInt(c, "page", 1)
	if err != nil {
		return err
	}
	inboxID, err := queryInt(c, "inbox_id", 0)
	if err != nil {
		return err
	}
	teamID, err := queryInt(c, "team_id", 0)
	if err != nil {
		return err
	}
	l, err := a.svc.Conversations(c.UserContext(), conversations.ConversationListParams{
		Status: c.Query("status"), AssigneeType: c.Query("assignee_type"),
		InboxID: inboxID, TeamID: teamID, Labels: queryList(c, "labels"), Page: page,
	})
	if err != nil {
		return err
	}
	payload := make([]wire.ConversationJSON, 0, len(l.Items))
	for _, cv := range l.Items {
		payload = append(payload, wire.Conversation(cv))
	}
	return c.JSON(H{"data": H{
		"meta": H{
			"mine_count": l.Counts.Mine, "assigned_count": l.Counts.Assigned,
			"unassigned_count": l.Counts.Unassigned, "all_count": l.Counts.All,
		},
		"payload": payload,
	}})
}

func (a *API) createConversation(c *fiber.Ctx) error {
	var req conversationRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	snoozed, err := parseTime("snoozed_until", req.SnoozedUntil)
	if err != nil {
		return err
	}
	cv, err := a.svc.CreateConversation(c.UserContext(), conversations.ConversationInput{
		SourceID: req.SourceID, InboxID: req.InboxID.ptr(), ContactID: req.ContactID.ptr(),
		Status: req.Status, AssigneeID: req.AssigneeID.ptr(), TeamID: req.TeamID.ptr(), SnoozedUntil: snoozed,
		AdditionalAttributes: objectOrNil(req.AdditionalAttributes), CustomAttributes: objectOrNil(req.CustomAttributes),
		Message: req.Message.input(),
	})
	if err != nil {
		return err
	}
	return c.JSON(wire.Conversation(cv))
}

func (a *API) showConversation(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	cv, err := a.svc.Conversation(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(wire.Conversation(cv))
}

func (a *API) toggleConversationStatus(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	var req toggleStatusRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	snoozed, err := parseTime("snoozed_until", req.SnoozedUntil)
	if err != nil {
		return err
	}
	cv, err := a.svc.ToggleStatus(c.UserContext(), id, req.Status, snoozed)
	if err != nil {
		return err
	}
	return c.JSON(H{"meta": H{}, "payload": H{
		"success": true, "conversation_id": cv.DisplayID,
		"current_status": string(cv.Status), "snoozed_until": wire.TimePtr(cv.SnoozedUntil),
	}})
}

func (a *API) conversationLabels(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	labels, err := a.svc.ConversationLabels(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": wire.OrEmpty(labels)})
}

func (a *API) setConversationLabels(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	titles, err := decodeLabels(c)
	if err != nil {
		return err
	}
	labels, err := a.svc.SetConversationLabels(c.UserContext(), id, titles)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": wire.OrEmpty(labels)})
}
