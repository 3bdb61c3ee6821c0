package web

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/views"
)

// One contact's page: details and custom attributes (named by their
// definitions), labels to tick, the inboxes that reach it and its
// conversations. Its forms post plainly; a refused change shows the page
// again with the operation's sentence (422).

func contactID(ctx *fiber.Ctx) (int, error) {
	id, err := strconv.Atoi(ctx.Params("id"))
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("Contact")
	}
	return id, nil
}

// contact serves GET /contacts/:id.
func (c *Console) contact(ctx *fiber.Ctx) error {
	id, err := contactID(ctx)
	if err != nil {
		return err
	}
	return c.renderContact(ctx, fiber.StatusOK, id, "", views.ContactMerge{})
}

// renderContact shows the page with a refused change's sentence (problem)
// or the merge form's state.
func (c *Console) renderContact(ctx *fiber.Ctx, status, id int, problem string, merge views.ContactMerge) error {
	return c.renderContactWith(ctx, status, id, problem, merge, nil)
}

// renderContactWith is renderContact that then lets the answer add what
// only it shows (a refused form as it was typed), as renderSettingsWith.
func (c *Console) renderContactWith(ctx *fiber.Ctx, status, id int, problem string, merge views.ContactMerge, then func(*views.ContactPage)) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	ct, err := c.svc.Contact(ctx.UserContext(), id)
	if err != nil {
		return err
	}
	p := views.ContactPage{Nav: nav, ID: ct.ID, Name: ct.Name, Email: deref(ct.Email), Phone: deref(ct.PhoneNumber),
		Identifier: deref(ct.Identifier), Created: when(ct.CreatedAt), Error: problem, Merge: merge}
	p.Edit = views.ContactEdit{Name: p.Name, Email: p.Email, Phone: p.Phone}
	if ct.LastActivityAt != nil {
		p.LastActive = when(*ct.LastActivityAt)
	}
	for _, ci := range ct.Edges.ContactInboxes {
		if ib := ci.Edges.Inbox; ib != nil {
			p.Inboxes = append(p.Inboxes, views.Fact{Name: ib.Name, Value: ci.SourceID})
		}
	}
	steps := []func(context.Context, *views.ContactPage, *ent.Contact) error{c.contactAttributes, c.contactLabels,
		c.contactConversations, c.contactSchedules, c.contactCards, c.mergeChoices}
	for _, step := range steps {
		if err := step(ctx.UserContext(), &p, ct); err != nil {
			return err
		}
	}
	if then != nil {
		then(&p)
	}
	return render(ctx, status, views.ContactView(p))
}

// contactAttributes lists the contact's custom attributes under their
// definitions' display names, in the definitions' order.
func (c *Console) contactAttributes(ctx context.Context, p *views.ContactPage, ct *ent.Contact) error {
	defs, err := c.svc.CustomAttributeDefinitions(ctx, "contact_attribute")
	if err != nil {
		return err
	}
	for _, d := range defs {
		if v, ok := ct.CustomAttributes[d.AttributeKey]; ok && v != nil {
			p.Attributes = append(p.Attributes, views.Fact{Name: d.AttributeDisplayName, Value: fmt.Sprint(v)})
		}
	}
	return nil
}

func (c *Console) contactLabels(ctx context.Context, p *views.ContactPage, ct *ent.Contact) error {
	labels, err := c.svc.Labels(ctx)
	if err != nil {
		return err
	}
	on := map[string]bool{}
	for _, l := range ct.Labels {
		on[l] = true
	}
	for _, l := range labels {
		p.Labels = append(p.Labels, views.LabelChoice{LabelChip: views.LabelChip{Title: l.Title, Color: l.Color}, On: on[l.Title]})
	}
	return nil
}

func (c *Console) contactConversations(ctx context.Context, p *views.ContactPage, ct *ent.Contact) error {
	convs, err := c.svc.ContactConversations(ctx, ct.ID)
	if err != nil {
		return err
	}
	people, err := c.people(ctx)
	if err != nil {
		return err
	}
	for _, cv := range convs {
		p.Conversations = append(p.Conversations, conversationRow(cv, people, nil))
	}
	return nil
}

// refusedOr shows a validation refusal on the contact's page, then (when
// not nil) putting back what the refused form held; any other error passes
// through.
func (c *Console) refusedOr(ctx *fiber.Ctx, id int, err error, then func(*views.ContactPage)) error {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Kind == apperr.KindInvalid {
		return c.renderContactWith(ctx, fiber.StatusUnprocessableEntity, id, ae.Message, views.ContactMerge{}, then)
	}
	return err
}

// editContact serves POST /contacts/:id/edit (name, email, phone_number).
func (c *Console) editContact(ctx *fiber.Ctx) error {
	id, err := contactID(ctx)
	if err != nil {
		return err
	}
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	var in contacts.ContactInput
	for key, dst := range map[string]**string{"name": &in.Name, "email": &in.Email, "phone_number": &in.PhoneNumber} {
		if _, ok := posted[key]; ok {
			v := posted.get(key)
			*dst = &v
		}
	}
	if _, err := c.svc.UpdateContact(ctx.UserContext(), id, in); err != nil {
		typed := views.ContactEdit{Open: true, Name: posted.get("name"), Email: posted.get("email"), Phone: posted.get("phone_number")}
		return c.refusedOr(ctx, id, err, func(p *views.ContactPage) { p.Edit = typed })
	}
	return c.backToContact(ctx, id)
}

// contactLabelsSave serves POST /contacts/:id/labels: the labels ticked.
func (c *Console) contactLabelsSave(ctx *fiber.Ctx) error {
	id, err := contactID(ctx)
	if err != nil {
		return err
	}
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	labels := []string{}
	for _, l := range posted["labels"] {
		if l != "" {
			labels = append(labels, l)
		}
	}
	if _, err := c.svc.SetContactLabels(ctx.UserContext(), id, labels); err != nil {
		return c.refusedOr(ctx, id, err, nil)
	}
	return c.backToContact(ctx, id)
}

// backToContact sends the browser to the contact's page after a change.
func (c *Console) backToContact(ctx *fiber.Ctx, id int) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	return ctx.Redirect(views.AccountURL(nav.AccountID, fmt.Sprintf("contacts/%d", id)), fiber.StatusSeeOther)
}

// deleteContact serves POST /contacts/:id/delete (administrators).
func (c *Console) deleteContact(ctx *fiber.Ctx) error {
	id, err := contactID(ctx)
	if err != nil {
		return err
	}
	if err := c.svc.DeleteContact(ctx.UserContext(), id); err != nil {
		return err
	}
	v, err := c.nav(ctx)
	if err != nil {
		return err
	}
	return ctx.Redirect(v.ContactsURL(), fiber.StatusSeeOther)
}
