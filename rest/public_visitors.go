package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/visitors"
	"github.com/switchboard/switchboard/internal/wire"
)

// Chatwoot's public client API (/public/api/v1/inboxes/...): a visitor of an
// API or web widget inbox, named by the inbox's public identifier and their
// own contact identifier, without a user token. The operations are
// internal/visitors'; these handlers decode, call one, render Chatwoot's
// public views (wire.Public*).

// publicContactRequest is a visitor's create or identify.
type publicContactRequest struct {
	SourceID         *string        `json:"source_id"`
	Name             *string        `json:"name"`
	Email            *string        `json:"email"`
	PhoneNumber      *string        `json:"phone_number"`
	AvatarURL        *string        `json:"avatar_url"`
	Identifier       *string        `json:"identifier"`
	IdentifierHash   *string        `json:"identifier_hash"`
	CustomAttributes map[string]any `json:"custom_attributes"`
}

func (r publicContactRequest) input() visitors.ContactInput {
	return visitors.ContactInput{SourceID: r.SourceID, Name: r.Name, Email: r.Email, PhoneNumber: r.PhoneNumber,
		AvatarURL: r.AvatarURL, CustomAttributes: r.CustomAttributes,
		Identity: visitors.Identity{Identifier: r.Identifier, IdentifierHash: r.IdentifierHash}}
}

// visitorKey is the visitor the path names.
func visitorKey(c *fiber.Ctx) visitors.Key {
	return visitors.Key{Inbox: c.Params("inbox_identifier"), Contact: c.Params("contact_identifier")}
}

// throttleVisitors spends one request of the client's address.
func (a *API) throttleVisitors(c *fiber.Ctx) error {
	if err := a.svc.Visitors.AdmitAddress(c.IP()); err != nil {
		return err
	}
	return c.Next()
}

func (a *API) createVisitor(c *fiber.Ctx) error {
	var req publicContactRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	v, err := a.svc.Visitors.CreateVisitor(c.UserContext(), c.Params("inbox_identifier"), req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.PublicContactInbox(v.ContactInbox, v.PubsubToken))
}

func (a *API) showVisitor(c *fiber.Ctx) error {
	_, v, err := a.svc.Visitors.Find(c.UserContext(), visitorKey(c))
	if err != nil {
		return err
	}
	return c.JSON(wire.PublicContactInbox(v.ContactInbox, ""))
}

func (a *API) updateVisitor(c *fiber.Ctx) error {
	var req publicContactRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	v, err := a.svc.Visitors.UpdateVisitor(c.UserContext(), visitorKey(c), req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.PublicContactInbox(v.ContactInbox, ""))
}

// publicMessages renders a page of a visitor's messages, their attachments'
// links signed as the agents' API signs them.
func (a *API) publicMessages(base string, p *visitors.MessagePage, contact *ent.Contact) []H {
	out := make([]H, 0, len(p.Messages))
	for _, m := range p.Messages {
		var atts []H
		for _, at := range m.Edges.Attachments {
			atts = append(atts, a.attachmentAt(base, at))
		}
		out = append(out, wire.PublicMessage(m, p.Conversation.DisplayID, atts, wire.PublicSender(m, contact, p.Agents)))
	}
	return out
}

func (a *API) publicThread(base string, t *visitors.Thread, contact *ent.Contact) H {
	return wire.PublicConversation(t.Conversation, a.publicMessages(base, t.Page, contact))
}
