package web

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/internal/wire"
	"github.com/switchboard/switchboard/views"
)

// The schedule drawer beside the calendar: open, create, edit, cancel and
// delete a scheduled message through the operations the APIs use. Each
// answer is the drawer's new content; a refused save answers 422 with the
// form and the refusals next to their fields.

// accountScope: the console's calendar reaches the account's schedules (not one
// conversation's).
var accountScope = schedules.ScheduleScope{}

func scheduleID(ctx *fiber.Ctx) (int, error) {
	id, err := strconv.Atoi(ctx.Params("id"))
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("Scheduled message")
	}
	return id, nil
}

// scheduleDrawer serves GET /schedules/:id/drawer?tz=Zone.
func (c *Console) scheduleDrawer(ctx *fiber.Ctx) error {
	id, err := scheduleID(ctx)
	if err != nil {
		return err
	}
	loc, err := zone(ctx.Query("tz"))
	if err != nil {
		return err
	}
	return c.renderSchedule(ctx, fiber.StatusOK, id, loc, nil)
}

// renderSchedule answers with schedule id's drawer; form, when set, is a
// refused edit to show instead of the stored values.
func (c *Console) renderSchedule(ctx *fiber.Ctx, status, id int, loc *time.Location, form *views.ScheduleForm) error {
	sm, err := c.svc.ScheduledMessage(ctx.UserContext(), accountScope, id)
	if err != nil {
		return err
	}
	d, err := c.scheduleView(ctx.UserContext(), sm, loc)
	if err != nil {
		return err
	}
	if form != nil && d.Form != nil {
		form.TemplateShown, form.Templates = d.Form.TemplateShown, d.Form.Templates
		d.Form = form
	}
	return render(ctx, status, views.ScheduleDrawerBody(d))
}

// scheduleView is what the drawer shows of a schedule.
func (c *Console) scheduleView(ctx context.Context, sm *ent.ScheduledMessage, loc *time.Location) (views.ScheduleDrawer, error) {
	d := views.ScheduleDrawer{
		AccountID: sm.AccountID, ID: sm.ID, TZ: loc.String(), Title: sm.Title, Content: sm.Content,
		Status: string(sm.Status), Failure: sm.FailureReason, Private: sm.Private,
		When: sm.ScheduledAt.In(loc).Format("Mon 2 Jan 2006, 15:04") + " (" + loc.String() + ")", Recurrence: recurrenceWords(sm, loc),
	}
	if sm.Status == "pending" && sm.NextOccurrenceAt != nil && sm.RecurrenceType != "none" {
		d.Next = sm.NextOccurrenceAt.In(loc).Format("Mon 2 Jan 2006, 15:04")
	}
	if cv := sm.Edges.Conversation; cv != nil {
		d.Conversation = cv.DisplayID
	}
	ib, err := c.svc.Inbox(ctx, sm.InboxID)
	if err != nil {
		return d, err
	}
	d.Inbox = ib.Name
	if ct, err := c.svc.Contact(ctx, sm.ContactID); err == nil {
		d.Contact, d.ContactURL = ct.Name, views.AccountURL(sm.AccountID, "contacts/"+strconv.Itoa(ct.ID))
	} else if apperr.From(err).Kind != apperr.KindNotFound {
		return d, err
	}
	d.Template = templateWords(sm.TemplateParams)
	for _, a := range sm.Edges.Attachments {
		exp, sig := c.svc.SignAttachment(a)
		d.Files = append(d.Files, views.FileLink{Name: a.FileName, URL: wire.AttachmentPath(a, exp, sig)})
	}
	if sm.Status == "pending" && sm.MessageID == nil {
		f := formOf(sm, sm.AccountID, loc)
		templateChoices(&f, ib)
		f.TemplateShown, f.WhatsAppInboxes = len(f.WhatsAppInboxes) > 0, nil
		d.Form = &f
	}
	return d, nil
}

// newSchedule serves GET /schedules/new?at=2026-11-23T09:00&tz=Zone: the
// empty form, starting at the chosen slot.
func (c *Console) newSchedule(ctx *fiber.Ctx) error {
	loc, err := zone(ctx.Query("tz"))
	if err != nil {
		return err
	}
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	f := newForm(nav.AccountID, loc.String())
	if at, err := time.ParseInLocation(localLayout, ctx.Query("at"), loc); err == nil {
		f.At = at.Format(localLayout)
		f.Days[at.Weekday()] = true
	}
	if err := c.pickers(ctx.UserContext(), &f); err != nil {
		return err
	}
	return render(ctx, fiber.StatusOK, views.ScheduleNewBody(f))
}

// newForm is an empty schedule form: sent once.
func newForm(accountID int, tz string) views.ScheduleForm {
	return views.ScheduleForm{AccountID: accountID, TZ: tz, Repeat: "none", Interval: "1", EndType: "never"}
}

// pickers fills the form's inbox and contact choices (the contacts a
// search would find first; the page's script searches for others).
func (c *Console) pickers(ctx context.Context, f *views.ScheduleForm) error {
	ibs, err := c.svc.Inboxes(ctx)
	if err != nil {
		return err
	}
	f.Inboxes = inboxOptions(ibs)
	templateChoices(f, ibs...)
	f.TemplateShown = f.ID == 0 && slices.Contains(f.WhatsAppInboxes, f.InboxID)
	cts, err := c.contactChoices(ctx, "", f.ContactID)
	f.Contacts = cts
	return err
}

// contactChoices is a page of contacts matching q (all when empty), with
// the chosen one first when it is not among them.
func (c *Console) contactChoices(ctx context.Context, q, chosen string) ([]views.Option, error) {
	var p *core.Page[*ent.Contact]
	var err error
	if q != "" {
		p, err = c.svc.SearchContacts(ctx, q, "", 1)
	} else {
		p, err = c.svc.ListContacts(ctx, contacts.ContactListParams{Page: 1})
	}
	if err != nil {
		return nil, err
	}
	var out []views.Option
	seen := false
	for _, ct := range p.Items {
		out = append(out, views.Option{Value: strconv.Itoa(ct.ID), Text: contactText(ct)})
		seen = seen || strconv.Itoa(ct.ID) == chosen
	}
	if id, err := strconv.Atoi(chosen); err == nil && !seen {
		if ct, err := c.svc.Contact(ctx, id); err == nil {
			out = append([]views.Option{{Value: chosen, Text: contactText(ct)}}, out...)
		}
	}
	return out, nil
}

func contactText(ct *ent.Contact) string {
	switch {
	case ct.Email != nil && *ct.Email != "":
		return ct.Name + " · " + *ct.Email
	case ct.PhoneNumber != nil && *ct.PhoneNumber != "":
		return ct.Name + " · " + *ct.PhoneNumber
	}
	return ct.Name
}

// contactOptions serves GET /contacts/options?q=: the contact picker's
// choices as <option> elements.
func (c *Console) contactOptions(ctx *fiber.Ctx) error {
	opts, err := c.contactChoices(ctx.UserContext(), ctx.Query("q"), ctx.Query("chosen"))
	if err != nil {
		return err
	}
	return render(ctx, fiber.StatusOK, views.ContactOptions(opts, ctx.Query("chosen")))
}

// createSchedule serves POST /schedules and answers with the new
// schedule's drawer (X-Schedule-Id names it).
func (c *Console) createSchedule(ctx *fiber.Ctx) error {
	posted, files, err := readPosted(ctx)
	if err != nil {
		return err
	}
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	f, err := scheduleForm(posted, newForm(nav.AccountID, "UTC"))
	var in schedules.ScheduleInput
	if err == nil {
		in, err = c.scheduleInput(f, nil)
	}
	var sm *ent.ScheduledMessage
	if err == nil {
		sm, err = c.svc.CreateScheduledMessage(ctx.UserContext(), accountScope, in, files)
	}
	if err != nil {
		if err := refusal(&f, err, scheduleFormFields...); err != nil {
			return err
		}
		if err := c.pickers(ctx.UserContext(), &f); err != nil {
			return err
		}
		return render(ctx, fiber.StatusUnprocessableEntity, views.ScheduleNewBody(f))
	}
	loc, _ := zone(f.TZ) // read by scheduleInput already
	ctx.Set("X-Schedule-Id", strconv.Itoa(sm.ID))
	return c.renderSchedule(ctx, fiber.StatusOK, sm.ID, loc, nil)
}

// editSchedule serves POST /schedules/:id/edit.
func (c *Console) editSchedule(ctx *fiber.Ctx) error {
	id, err := scheduleID(ctx)
	if err != nil {
		return err
	}
	posted, files, err := readPosted(ctx)
	if err != nil {
		return err
	}
	loc, err := zone(posted.get("tz"))
	if err != nil {
		return err
	}
	sm, err := c.svc.ScheduledMessage(ctx.UserContext(), accountScope, id)
	if err != nil {
		return err
	}
	old := formOf(sm, sm.AccountID, loc)
	f, err := scheduleForm(posted, old)
	var in schedules.ScheduleInput
	if err == nil {
		in, err = c.scheduleInput(f, &old)
	}
	if err == nil {
		_, err = c.svc.UpdateScheduledMessage(ctx.UserContext(), accountScope, id, in, files)
	}
	if err != nil {
		if err := refusal(&f, err, scheduleFormFields...); err != nil {
			return err
		}
		return c.renderSchedule(ctx, fiber.StatusUnprocessableEntity, id, loc, &f)
	}
	return c.renderSchedule(ctx, fiber.StatusOK, id, loc, nil)
}

// cancelSchedule serves POST /schedules/:id/cancel?tz=Zone.
func (c *Console) cancelSchedule(ctx *fiber.Ctx) error {
	id, err := scheduleID(ctx)
	if err != nil {
		return err
	}
	loc, err := zone(ctx.Query("tz"))
	if err != nil {
		return err
	}
	if _, err := c.svc.CancelScheduledMessage(ctx.UserContext(), accountScope, id); err != nil {
		return err
	}
	return c.renderSchedule(ctx, fiber.StatusOK, id, loc, nil)
}

// deleteSchedule serves POST /schedules/:id/delete.
func (c *Console) deleteSchedule(ctx *fiber.Ctx) error {
	id, err := scheduleID(ctx)
	if err != nil {
		return err
	}
	if err := c.svc.DeleteScheduledMessage(ctx.UserContext(), accountScope, id); err != nil {
		return err
	}
	return ctx.SendStatus(fiber.StatusNoContent)
}
