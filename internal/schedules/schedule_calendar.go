package schedules

import (
	"context"
	"sort"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/recurrence"
)

// CalendarEntry is a schedule at one instant of a calendar: a one-off, a
// past occurrence of a series, or a future occurrence computed from its rule.
type CalendarEntry struct {
	At       time.Time
	Schedule *ent.ScheduledMessage
	// Upcoming marks an occurrence of a pending series not fired yet.
	Upcoming bool
}

// maxCalendarOccurrences bounds the occurrences one series shows in a range.
const maxCalendarOccurrences = 400

// ScheduleCalendar lists what is scheduled in [from, to), in time order:
// schedules and recorded occurrences there, and the coming occurrences of
// pending series. Agents see their inboxes' schedules only.
func (s *Service) ScheduleCalendar(ctx context.Context, from, to time.Time) ([]CalendarEntry, error) {
	q, err := s.scheduleQuery(ctx, ScheduleScope{})
	if err != nil {
		return nil, err
	}
	rows, err := q.Where(scheduledmessage.Or(
		scheduledmessage.And(scheduledmessage.ScheduledAtGTE(from), scheduledmessage.ScheduledAtLT(to)),
		scheduledmessage.And(scheduledmessage.StatusEQ(scheduledmessage.StatusPending),
			scheduledmessage.RecurrenceTypeNEQ(scheduledmessage.RecurrenceTypeNone), scheduledmessage.ScheduledAtLT(to)),
	)).WithConversation().All(ctx)
	if err != nil {
		return nil, err
	}
	var out []CalendarEntry
	for _, sm := range rows {
		out = append(out, calendarEntries(sm, from, to)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out, nil
}

// calendarEntries places one schedule in [from, to): a series by its coming
// occurrences (its past ones are rows of their own), anything else by its
// scheduled time.
func calendarEntries(sm *ent.ScheduledMessage, from, to time.Time) []CalendarEntry {
	rule := ruleOf(sm)
	if rule.Type == recurrence.None || sm.Status != scheduledmessage.StatusPending {
		if sm.ScheduledAt.Before(from) || !sm.ScheduledAt.Before(to) {
			return nil
		}
		return []CalendarEntry{{At: sm.ScheduledAt, Schedule: sm}}
	}
	var out []CalendarEntry
	// Both bounds keep a long-running series' walk to the range short.
	for k, walked := sm.OccurrencesCount, 0; len(out) < maxCalendarOccurrences && walked < 10*maxCalendarOccurrences; k, walked = k+1, walked+1 {
		at, ok := rule.Occurrence(sm.ScheduledAt, k)
		if !ok || !at.Before(to) {
			break
		}
		if !at.Before(from) {
			out = append(out, CalendarEntry{At: at, Schedule: sm, Upcoming: true})
		}
	}
	return out
}

// NextOccurrence is when a pending schedule fires next (nil when nothing is
// left to fire). While a runner holds the row its next_occurrence_at is the
// lease's end, so the time is computed from the rule instead.
func NextOccurrence(sm *ent.ScheduledMessage) *time.Time {
	if sm.Status != scheduledmessage.StatusPending || sm.NextOccurrenceAt == nil {
		return nil
	}
	t, ok := ruleOf(sm).Occurrence(sm.ScheduledAt, sm.OccurrencesCount)
	if !ok {
		return nil
	}
	return &t
}
