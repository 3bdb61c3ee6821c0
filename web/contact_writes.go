package web

import (
	"context"
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/views"
)

// Creating a contact (from the list) and merging two (from a contact's
// page), through the operations POST /contacts and POST
// /actions/contact_merge call. A refusal shows the form again (422) with
// each sentence at its field, and changes nothing.

// mergeChoices fills the merge picker's first choices (the picker searches
// for the others), keeping the one chosen on a refused try.
func (c *Console) mergeChoices(ctx context.Context, p *views.ContactPage, _ *ent.Contact) error {
	opts, err := c.contactChoices(ctx, "", p.Merge.Chosen)
	if err != nil {
		return err
	}
	for _, o := range opts {
		if o.Value != strconv.Itoa(p.ID) {
			p.Merge.Choices = append(p.Merge.Choices, o)
		}
	}
	return nil
}

// mergeContact serves POST /contacts/:id/merge: other_id is merged with
// this contact; base ("this" or "other") is the one that stays.
func (c *Console) mergeContact(ctx *fiber.Ctx) error {
	id, err := contactID(ctx)
	if err != nil {
		return err
	}
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	state := views.ContactMerge{Chosen: posted.get("other_id"), Base: posted.get("base")}
	other, err := strconv.Atoi(state.Chosen)
	if err != nil {
		state.Error = "Choose the contact to merge with this one"
		return c.renderContact(ctx, fiber.StatusUnprocessableEntity, id, "", state)
	}
	base, mergee := id, other
	switch state.Base {
	case "other":
		base, mergee = other, id
	case "this", "":
	default:
		state.Error = "Keep must be this contact or the other"
		return c.renderContact(ctx, fiber.StatusUnprocessableEntity, id, "", state)
	}
	kept, err := c.svc.MergeContacts(ctx.UserContext(), &base, &mergee)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.KindInvalid {
		state.Error = ae.Message
		return c.renderContact(ctx, fiber.StatusUnprocessableEntity, id, "", state)
	}
	if err != nil {
		return err
	}
	return c.backToContact(ctx, kept.ID)
}

// createContact serves POST /contacts: name, e-mail, phone and the inbox
// that reaches the contact (the operation requires one).
func (c *Console) createContact(ctx *fiber.Ctx) error {
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	f := views.NewContactForm{Open: true, Name: posted.get("name"), Email: posted.get("email"),
		Phone: posted.get("phone_number"), InboxID: posted.get("inbox_id")}
	var in contacts.ContactInput
	for _, kv := range []struct {
		value string
		dst   **string
	}{{f.Name, &in.Name}, {f.Email, &in.Email}, {f.Phone, &in.PhoneNumber}} {
		if kv.value != "" {
			v := kv.value
			*kv.dst = &v
		}
	}
	if f.InboxID != "" {
		inbox, err := strconv.Atoi(f.InboxID)
		if err != nil {
			f.Errors = map[string]string{"inbox_id": "Inbox must be one of the account's inboxes"}
			return c.renderContacts(ctx, fiber.StatusUnprocessableEntity, f)
		}
		in.InboxID = &inbox
	}
	made, err := c.svc.CreateContact(ctx.UserContext(), in)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.KindInvalid {
		f.Errors = fieldErrors(ae, newContactFields)
		return c.renderContacts(ctx, fiber.StatusUnprocessableEntity, f)
	}
	if err != nil {
		return err
	}
	return c.backToContact(ctx, made.Contact.ID)
}

// newContactFields are the fields the new-contact form shows a refusal at.
var newContactFields = []string{"name", "email", "phone_number", "inbox_id"}
