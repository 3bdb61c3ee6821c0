package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/wire"
)

// contactRequest is the body of contact create and update.
type contactRequest struct {
	InboxID              *flexInt    `json:"inbox_id"`
	SourceID             *string     `json:"source_id"`
	Name                 *string     `json:"name"`
	Email                *string     `json:"email"`
	PhoneNumber          *string     `json:"phone_number"`
	Identifier           *string     `json:"identifier"`
	Blocked              *flexBool   `json:"blocked"`
	AvatarURL            *string     `json:"avatar_url"`
	AdditionalAttributes *flexObject `json:"additional_attributes"`
	CustomAttributes     *flexObject `json:"custom_attributes"`
}

func (r contactRequest) input() contacts.ContactInput {
	return contacts.ContactInput{
		InboxID: r.InboxID.ptr(), SourceID: r.SourceID,
		Name: r.Name, Email: r.Email, PhoneNumber: r.PhoneNumber, Identifier: r.Identifier,
		Blocked: r.Blocked.ptr(), AvatarURL: r.AvatarURL,
		AdditionalAttributes: objectOrNil(r.AdditionalAttributes),
		CustomAttributes:     objectOrNil(r.CustomAttributes),
	}
}

func objectOrNil(o *flexObject) map[string]any {
	if o == nil {
		return nil
	}
	if *o == nil {
		return map[string]any{}
	}
	return *o
}

func contactPageJSON(p *core.Page[*ent.Contact], withHasMore bool) H {
	payload := make([]wire.ContactJSON, 0, len(p.Items))
	for _, ct := range p.Items {
		payload = append(payload, wire.Contact(ct))
	}
	meta := H{"count": p.Total, "current_page": p.Page}
	if withHasMore {
		meta["has_more"] = p.HasMore
	}
	return H{"meta": meta, "payload": payload}
}

func (a *API) listContacts(c *fiber.Ctx) error {
	page, err := queryInt(c, "page", 1)
	if err != nil {
		return err
	}
	p, err := a.svc.ListContacts(c.UserContext(), contacts.ContactListParams{
		Sort: c.Query("sort"), Page: page, Labels: queryList(c, "labels"),
	})
	if err != nil {
		return err
	}
	return c.JSON(contactPageJSON(p, false))
}

func (a *API) searchContacts(c *fiber.Ctx) error {
	page, err := queryInt(c, "page", 1)
	if err != nil {
		return err
	}
	p, err := a.svc.SearchContacts(c.UserContext(), c.Query("q"), c.Query("sort"), page)
	if err != nil {
		return err
	}
	return c.JSON(contactPageJSON(p, true))
}

func (a *API) filterContacts(c *fiber.Ctx) error {
	page, err := queryInt(c, "page", 1)
	if err != nil {
		return err
	}
	var body contactFilterRequest
	if err := decode(c, "", &body); err != nil {
		return err
	}
	p, err := a.svc.FilterContacts(c.UserContext(), body.Payload, page)
	if err != nil {
		return err
	}
	return c.JSON(contactPageJSON(p, false))
}

func (a *API) createContact(c *fiber.Ctx) error {
	var req contactRequest
	if err := decode(c, "contact", &req); err != nil {
		return err
	}
	out, err := a.svc.CreateContact(c.UserContext(), req.input())
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": H{
		"contact": wire.Contact(out.Contact),
		"contact_inbox": H{
			"source_id": out.ContactInbox.SourceID,
			"inbox":     inboxJSON(out.ContactInbox.Edges.Inbox, noSecrets),
		},
	}})
}

func (a *API) showContact(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Contact")
	if err != nil {
		return err
	}
	ct, err := a.svc.Contact(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": wire.Contact(ct)})
}

func (a *API) updateContact(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Contact")
	if err != nil {
		return err
	}
	var req contactRequest
	if err := decode(c, "contact", &req); err != nil {
		return err
	}
	in := req.input()
	in.InboxID, in.SourceID = nil, nil
	ct, err := a.svc.UpdateContact(c.UserContext(), id, in)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": wire.Contact(ct)})
}

func (a *API) deleteContact(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Contact")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteContact(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}

func (a *API) contactConversations(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Contact")
	if err != nil {
		return err
	}
	convs, err := a.svc.ContactConversations(c.UserContext(), id)
	if err != nil {
		return err
	}
	payload := make([]wire.ConversationJSON, 0, len(convs))
	for _, cv := range convs {
		payload = append(payload, wire.Conversation(cv))
	}
	return c.JSON(H{"payload": payload})
}

func (a *API) createContactInbox(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Contact")
	if err != nil {
		return err
	}
	var req contactInboxRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	ci, err := a.svc.AddContactInbox(c.UserContext(), id, req.InboxID.ptr(), req.SourceID)
	if err != nil {
		return err
	}
	return c.JSON(wire.ContactInbox(ci))
}

func (a *API) contactableInboxes(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Contact")
	if err != nil {
		return err
	}
	rs, err := a.svc.ContactableInboxes(c.UserContext(), id)
	if err != nil {
		return err
	}
	payload := make([]H, 0, len(rs))
	for _, r := range rs {
		payload = append(payload, H{"source_id": r.SourceID, "inbox": wire.InboxSlim(r.Inbox)})
	}
	return c.JSON(H{"payload": payload})
}

func (a *API) contactLabels(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Contact")
	if err != nil {
		return err
	}
	labels, err := a.svc.ContactLabels(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": wire.OrEmpty(labels)})
}

func (a *API) setContactLabels(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Contact")
	if err != nil {
		return err
	}
	titles, err := decodeLabels(c)
	if err != nil {
		return err
	}
	labels, err := a.svc.SetContactLabels(c.UserContext(), id, titles)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": wire.OrEmpty(labels)})
}

func (a *API) mergeContacts(c *fiber.Ctx) error {
	var req contactMergeRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	ct, err := a.svc.MergeContacts(c.UserContext(), req.BaseContactID.ptr(), req.MergeeContactID.ptr())
	if err != nil {
		return err
	}
	return c.JSON(wire.ContactBase(ct))
}
