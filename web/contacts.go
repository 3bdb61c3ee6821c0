package web

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/views"
)

// contacts is the contacts screen: the account's contacts, or those matching
// q, sorted by a column (?sort=name, -name, email, ...).
func (c *Console) contacts(ctx *fiber.Ctx) error {
	return c.renderContacts(ctx, fiber.StatusOK, views.NewContactForm{})
}

// renderContacts shows the list with the new-contact form in its state.
func (c *Console) renderContacts(ctx *fiber.Ctx, status int, form views.NewContactForm) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	page, _ := strconv.Atoi(ctx.Query("page"))
	q, sort := ctx.Query("q"), ctx.Query("sort")
	var p *core.Page[*ent.Contact]
	if q != "" {
		p, err = c.svc.SearchContacts(ctx.UserContext(), q, sort, page)
	} else {
		p, err = c.svc.ListContacts(ctx.UserContext(), contacts.ContactListParams{Page: page, Sort: sort})
	}
	if err != nil {
		return err
	}
	colours, err := c.labelColours(ctx.UserContext())
	if err != nil {
		return err
	}
	if form.Inboxes, err = c.inboxChoices(ctx.UserContext()); err != nil {
		return err
	}
	list := views.ContactList{Nav: nav, Query: q, Sort: sort, Total: p.Total, AtLeast: p.AtLeast, Page: p.Page, HasMore: p.HasMore,
		New: form}
	for _, ct := range p.Items {
		row := views.ContactRow{ID: ct.ID, Name: ct.Name, Email: deref(ct.Email), PhoneNumber: deref(ct.PhoneNumber),
			Labels: chips(ct.Labels, colours)}
		if ct.LastActivityAt != nil {
			row.LastActive = ct.LastActivityAt.UTC().Format("2 Jan 2006")
		}
		list.Rows = append(list.Rows, row)
	}
	return render(ctx, status, views.Contacts(list))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
