package schedules

import (
	"fmt"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/recurrence"
)

// scheduleChange holds a schedule's checked fields, ready to write.
type scheduleChange struct {
	title, content    *string
	scheduledAt       *time.Time
	private           *bool
	templateParams    map[string]any
	contentAttributes map[string]any
	rule              recurrence.Rule
	ruleChanged       bool
	next              time.Time
}

// scheduleFields checks the fields of a create (old nil) or of a PUT over
// old, and computes when the schedule first fires.
func scheduleFields(in ScheduleInput, old *ent.ScheduledMessage, now time.Time) (*scheduleChange, error) {
	var errs core.FieldErrors
	f := &scheduleChange{title: in.Title, content: in.Content, private: in.Private,
		templateParams: in.TemplateParams, contentAttributes: in.ContentAttributes}
	content := in.Content
	if content == nil && old != nil {
		content = &old.Content
	}
	if content == nil || strings.TrimSpace(*content) == "" {
		errs.Add("content", "Content can't be blank")
	}
	start := in.ScheduledAt
	switch {
	case start != nil && !start.After(now):
		errs.Add("scheduled_at", "Scheduled at must be in the future")
	case start == nil && old == nil:
		errs.Add("scheduled_at", "Scheduled at can't be blank (an ISO 8601 time in the future)")
	case start == nil:
		start = &old.ScheduledAt
	}
	if in.ScheduledAt != nil {
		utc := in.ScheduledAt.UTC()
		f.scheduledAt = &utc
	}
	rule, ruleErrs := recurrenceRule(in, old)
	errs.Merge(ruleErrs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	f.ruleChanged = old == nil || in.ScheduledAt != nil || in.RecurrenceType != nil || in.RecurrenceInterval != nil ||
		in.RecurrenceDays != nil || in.RecurrenceEndType != nil || in.RecurrenceEndDate != nil || in.RecurrenceMaxOccurrences != nil
	if f.ruleChanged && !start.After(now) {
		// The series restarts from scheduled_at, which must not lie behind us.
		return nil, apperr.Invalid("Changing the recurrence restarts the series: send a scheduled_at in the future", "scheduled_at")
	}
	if rule.EndType == recurrence.OnDate && !rule.EndDate.After(*start) {
		return nil, apperr.Invalid("Recurrence end date must be after scheduled_at", "recurrence_end_date")
	}
	f.rule = rule
	first, ok := rule.Occurrence(start.UTC(), 0)
	if !ok {
		return nil, apperr.Invalid("The recurrence ends before its first occurrence", "recurrence_end_date")
	}
	f.next = first
	return f, nil
}

// recurrenceRule reads the recurrence fields sent, over old's for a PUT.
func recurrenceRule(in ScheduleInput, old *ent.ScheduledMessage) (recurrence.Rule, core.FieldErrors) {
	var errs core.FieldErrors
	r := recurrence.Rule{Type: recurrence.None, Interval: 1, EndType: recurrence.Never}
	if old != nil {
		r = ruleOf(old)
	}
	if in.RecurrenceType != nil {
		r.Type = recurrence.Type(*in.RecurrenceType)
		if scheduledmessage.RecurrenceTypeValidator(scheduledmessage.RecurrenceType(r.Type)) != nil {
			errs.Add("recurrence_type", "Recurrence type must be none, daily, weekly, monthly or yearly")
		}
	}
	if in.RecurrenceInterval != nil {
		r.Interval = *in.RecurrenceInterval
	}
	if r.Interval < 1 || r.Interval > recurrence.MaxInterval {
		errs.Add("recurrence_interval", fmt.Sprintf("Recurrence interval must be from 1 to %d", recurrence.MaxInterval))
	}
	if in.RecurrenceDays != nil {
		r.Days = *in.RecurrenceDays
	}
	if r.Type != recurrence.Weekly && len(r.Days) > 0 {
		if in.RecurrenceDays != nil {
			errs.Add("recurrence_days", "Recurrence days are allowed with a weekly recurrence only")
		} else {
			r.Days = nil // a PUT away from weekly drops the days
		}
	}
	for _, d := range r.Days {
		if d < 0 || d > 6 {
			errs.Add("recurrence_days", "Recurrence days must be integers from 0 (Sunday) to 6 (Saturday)")
			break
		}
	}
	if in.RecurrenceEndType != nil {
		r.EndType = recurrence.EndType(*in.RecurrenceEndType)
		if scheduledmessage.RecurrenceEndTypeValidator(scheduledmessage.RecurrenceEndType(r.EndType)) != nil {
			errs.Add("recurrence_end_type", "Recurrence end type must be never, on_date or after_occurrences")
		}
	}
	if in.RecurrenceEndDate != nil {
		r.EndDate = in.RecurrenceEndDate.UTC()
	}
	if in.RecurrenceMaxOccurrences != nil {
		r.Max = *in.RecurrenceMaxOccurrences
	}
	switch {
	case r.Type == recurrence.None:
		r.EndType, r.Days = recurrence.Never, nil
	case r.EndType == recurrence.OnDate && r.EndDate.IsZero():
		errs.Add("recurrence_end_date", "Recurrence end date is required when recurrence_end_type is on_date")
	case r.EndType == recurrence.AfterOccurrences && (r.Max < 1 || r.Max > recurrence.MaxOccurrences):
		errs.Add("recurrence_max_occurrences", fmt.Sprintf("Recurrence max occurrences must be from 1 to %d when recurrence_end_type is after_occurrences", recurrence.MaxOccurrences))
	}
	return r, errs
}

// ruleOf is a stored schedule's recurrence.
func ruleOf(sm *ent.ScheduledMessage) recurrence.Rule {
	r := recurrence.Rule{
		Type: recurrence.Type(sm.RecurrenceType), Interval: sm.RecurrenceInterval, Days: sm.RecurrenceDays,
		EndType: recurrence.EndType(sm.RecurrenceEndType),
	}
	if sm.RecurrenceEndDate != nil {
		r.EndDate = *sm.RecurrenceEndDate
	}
	if sm.RecurrenceMaxOccurrences != nil {
		r.Max = *sm.RecurrenceMaxOccurrences
	}
	return r
}

func (f *scheduleChange) applyCreate(c *ent.ScheduledMessageCreate) {
	c.SetContent(*f.content).SetNillableTitle(f.title).SetScheduledAt(*f.scheduledAt).
		SetNillablePrivate(f.private).SetNextOccurrenceAt(f.next)
	if f.templateParams != nil {
		c.SetTemplateParams(f.templateParams)
	}
	if f.contentAttributes != nil {
		c.SetContentAttributes(f.contentAttributes)
	}
	f.setRule(c.Mutation())
}

func (f *scheduleChange) applyUpdate(u *ent.ScheduledMessageUpdate) *ent.ScheduledMessageUpdate {
	u.SetNillableContent(f.content).SetNillableTitle(f.title).SetNillableScheduledAt(f.scheduledAt).
		SetNillablePrivate(f.private)
	if f.templateParams != nil {
		u.SetTemplateParams(f.templateParams)
	}
	if f.contentAttributes != nil {
		u.SetContentAttributes(f.contentAttributes)
	}
	if f.ruleChanged {
		f.setRule(u.Mutation())
		u.SetOccurrencesCount(0).SetNextOccurrenceAt(f.next)
	}
	return u
}

func (f *scheduleChange) setRule(m *ent.ScheduledMessageMutation) {
	r := f.rule
	m.SetRecurrenceType(scheduledmessage.RecurrenceType(r.Type))
	m.SetRecurrenceInterval(r.Interval)
	m.SetRecurrenceDays(orEmptyInts(r.Days))
	m.SetRecurrenceEndType(scheduledmessage.RecurrenceEndType(r.EndType))
	if r.EndType == recurrence.OnDate {
		m.SetRecurrenceEndDate(r.EndDate)
	} else {
		m.ClearRecurrenceEndDate()
	}
	if r.EndType == recurrence.AfterOccurrences {
		m.SetRecurrenceMaxOccurrences(r.Max)
	} else {
		m.ClearRecurrenceMaxOccurrences()
	}
}

func orEmptyInts(xs []int) []int {
	if xs == nil {
		return []int{}
	}
	return xs
}
