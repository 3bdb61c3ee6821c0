package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/internal/wire"
)

// Scheduled messages, in both scopes: the account (/scheduled_messages) and
// one conversation (/conversations/:id/scheduled_messages). The handlers
// serve both; the scope comes from the path.

type scheduleRequest struct {
	InboxID                  *flexInt    `json:"inbox_id"`
	ContactID                *flexInt    `json:"contact_id"`
	ConversationID           *flexInt    `json:"conversation_id"`
	Title                    *string     `json:"title"`
	Content                  *string     `json:"content"`
	ScheduledAt              *string     `json:"scheduled_at"`
	Private                  *flexBool   `json:"private"`
	TemplateParams           *flexObject `json:"template_params"`
	ContentAttributes        *flexObject `json:"content_attributes"`
	RecurrenceType           *string     `json:"recurrence_type"`
	RecurrenceInterval       *flexInt    `json:"recurrence_interval"`
	RecurrenceDays           *flexInts   `json:"recurrence_days"`
	RecurrenceEndType        *string     `json:"recurrence_end_type"`
	RecurrenceEndDate        *string     `json:"recurrence_end_date"`
	RecurrenceMaxOccurrences *flexInt    `json:"recurrence_max_occurrences"`
	// status is read-only: a sent value is never applied (spec §3 rule 1).
}

func (r *scheduleRequest) input() (schedules.ScheduleInput, error) {
	at, err := parseTime("scheduled_at", r.ScheduledAt)
	if err != nil {
		return schedules.ScheduleInput{}, err
	}
	end, err := parseTime("recurrence_end_date", r.RecurrenceEndDate)
	if err != nil {
		return schedules.ScheduleInput{}, err
	}
	in := schedules.ScheduleInput{
		InboxID: r.InboxID.ptr(), ContactID: r.ContactID.ptr(), ConversationID: r.ConversationID.ptr(),
		Title: r.Title, Content: r.Content, ScheduledAt: at, Private: r.Private.ptr(),
		TemplateParams: objectOrNil(r.TemplateParams), ContentAttributes: objectOrNil(r.ContentAttributes),
		RecurrenceType: r.RecurrenceType, RecurrenceInterval: r.RecurrenceInterval.ptr(),
		RecurrenceEndType: r.RecurrenceEndType, RecurrenceEndDate: end,
		RecurrenceMaxOccurrences: r.RecurrenceMaxOccurrences.ptr(),
	}
	if r.RecurrenceDays != nil {
		days := []int(*r.RecurrenceDays)
		in.RecurrenceDays = &days
	}
	return in, nil
}

// scheduleScope reads the conversation of a conversation-scope path.
func scheduleScope(c *fiber.Ctx) (schedules.ScheduleScope, error) {
	if c.Params("conversation_id") == "" {
		return schedules.ScheduleScope{}, nil
	}
	id, err := pathID(c, "conversation_id", "Conversation")
	return schedules.ScheduleScope{ConversationID: id}, err
}

// scheduleTarget reads the scope and the schedule id of a path.
func scheduleTarget(c *fiber.Ctx) (schedules.ScheduleScope, int, error) {
	scope, err := scheduleScope(c)
	if err != nil {
		return scope, 0, err
	}
	id, err := pathID(c, "id", "Scheduled message")
	return scope, id, err
}

func (a *API) listSchedules(c *fiber.Ctx) error {
	scope, err := scheduleScope(c)
	if err != nil {
		return err
	}
	page, err := queryInt(c, "page", 1)
	if err != nil {
		return err
	}
	p, err := a.svc.ScheduledMessages(c.UserContext(), schedules.ScheduleListParams{Scope: scope, Status: c.Query("status"), Page: page})
	if err != nil {
		return err
	}
	payload := make([]H, 0, len(p.Items))
	for _, sm := range p.Items {
		payload = append(payload, a.scheduleJSON(c, sm))
	}
	return c.JSON(H{"meta": H{"count": p.Total, "current_page": p.Page, "per_page": schedules.SchedulePageSize}, "payload": payload})
}

func (a *API) countSchedules(c *fiber.Ctx) error {
	scope, err := scheduleScope(c)
	if err != nil {
		return err
	}
	n, err := a.svc.CountScheduledMessages(c.UserContext(), scope, c.Query("status"))
	if err != nil {
		return err
	}
	return c.JSON(H{"count": n})
}

func (a *API) showSchedule(c *fiber.Ctx) error {
	scope, id, err := scheduleTarget(c)
	if err != nil {
		return err
	}
	sm, err := a.svc.ScheduledMessage(c.UserContext(), scope, id)
	if err != nil {
		return err
	}
	return c.JSON(a.scheduleJSON(c, sm))
}

func (a *API) createSchedule(c *fiber.Ctx) error {
	scope, err := scheduleScope(c)
	if err != nil {
		return err
	}
	in, files, err := scheduleBody(c)
	if err != nil {
		return err
	}
	sm, err := a.svc.CreateScheduledMessage(c.UserContext(), scope, in, files)
	if err != nil {
		return err
	}
	return c.JSON(a.scheduleJSON(c, sm))
}

func (a *API) updateSchedule(c *fiber.Ctx) error {
	scope, id, err := scheduleTarget(c)
	if err != nil {
		return err
	}
	in, files, err := scheduleBody(c)
	if err != nil {
		return err
	}
	sm, err := a.svc.UpdateScheduledMessage(c.UserContext(), scope, id, in, files)
	if err != nil {
		return err
	}
	return c.JSON(a.scheduleJSON(c, sm))
}

// scheduleBody reads a create or update body (JSON, form or multipart,
// optionally wrapped in scheduled_message) and its attachments[].
func scheduleBody(c *fiber.Ctx) (schedules.ScheduleInput, []core.Upload, error) {
	var req scheduleRequest
	if err := decode(c, "scheduled_message", &req); err != nil {
		return schedules.ScheduleInput{}, nil, err
	}
	in, err := req.input()
	if err != nil {
		return in, nil, err
	}
	files, err := uploads(c)
	return in, files, err
}

func (a *API) cancelSchedule(c *fiber.Ctx) error {
	scope, id, err := scheduleTarget(c)
	if err != nil {
		return err
	}
	sm, err := a.svc.CancelScheduledMessage(c.UserContext(), scope, id)
	if err != nil {
		return err
	}
	return c.JSON(a.scheduleJSON(c, sm))
}

func (a *API) deleteSchedule(c *fiber.Ctx) error {
	scope, id, err := scheduleTarget(c)
	if err != nil {
		return err
	}
	if err := a.svc.DeleteScheduledMessage(c.UserContext(), scope, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// scheduleJSON is a schedule with its files (their data_url signed for
// browsers).
func (a *API) scheduleJSON(c *fiber.Ctx, sm *ent.ScheduledMessage) H {
	h := wire.Schedule(sm, schedules.NextOccurrence(sm))
	atts := make([]H, 0, len(sm.Edges.Attachments))
	for _, at := range sm.Edges.Attachments {
		atts = append(atts, a.attachmentJSON(c, at))
	}
	h["attachments"] = atts
	return h
}
