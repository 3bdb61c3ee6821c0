package schedules

import (
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
)

func day(d int) time.Time { return time.Date(2030, 1, d, 9, 0, 0, 0, time.UTC) }

func series(status scheduledmessage.Status, fired int, end scheduledmessage.RecurrenceEndType, max *int) *ent.ScheduledMessage {
	return &ent.ScheduledMessage{ID: 1, Status: status, ScheduledAt: day(1), NextOccurrenceAt: ptr(day(1 + fired)),
		RecurrenceType: scheduledmessage.RecurrenceTypeDaily, RecurrenceInterval: 1,
		RecurrenceEndType: end, RecurrenceMaxOccurrences: max, OccurrencesCount: fired}
}

func oneOff(status scheduledmessage.Status, at time.Time) *ent.ScheduledMessage {
	return &ent.ScheduledMessage{ID: 2, Status: status, ScheduledAt: at,
		RecurrenceType: scheduledmessage.RecurrenceTypeNone, RecurrenceInterval: 1, RecurrenceEndType: scheduledmessage.RecurrenceEndTypeNever}
}

// A calendar range is [from, to): a one-off (or a series no longer
// pending) shows at its scheduled time; a pending series shows its coming
// occurrences, from the one after those already fired.
func TestCalendarEntries(t *testing.T) {
	type entry struct {
		at       time.Time
		upcoming bool
	}
	for _, tc := range []struct {
		name     string
		sm       *ent.ScheduledMessage
		from, to time.Time
		want     []entry
	}{
		{"one-off at from", oneOff(scheduledmessage.StatusPending, day(3)), day(3), day(4), []entry{{day(3), false}}},
		{"one-off at to", oneOff(scheduledmessage.StatusPending, day(4)), day(3), day(4), nil},
		{"one-off before from", oneOff(scheduledmessage.StatusSent, day(2)), day(3), day(4), nil},
		{"series not pending shows once", series(scheduledmessage.StatusCancelled, 2, scheduledmessage.RecurrenceEndTypeNever, nil),
			day(1), day(10), []entry{{day(1), false}}},
		{"pending series from its next occurrence", series(scheduledmessage.StatusPending, 2, scheduledmessage.RecurrenceEndTypeNever, nil),
			day(1), day(6), []entry{{day(3), true}, {day(4), true}, {day(5), true}}},
		{"pending series within the range", series(scheduledmessage.StatusPending, 0, scheduledmessage.RecurrenceEndTypeNever, nil),
			day(4), day(6), []entry{{day(4), true}, {day(5), true}}},
		{"pending series ending after 4", series(scheduledmessage.StatusPending, 2, scheduledmessage.RecurrenceEndTypeAfterOccurrences, ptr(4)),
			day(1), day(20), []entry{{day(3), true}, {day(4), true}}},
		{"pending series all fired", series(scheduledmessage.StatusPending, 4, scheduledmessage.RecurrenceEndTypeAfterOccurrences, ptr(4)),
			day(1), day(20), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := calendarEntries(tc.sm, tc.from, tc.to)
			if len(got) != len(tc.want) {
				t.Fatalf("%d entries %v, want %v", len(got), got, tc.want)
			}
			for i, e := range got {
				if !e.At.Equal(tc.want[i].at) || e.Upcoming != tc.want[i].upcoming || e.Schedule != tc.sm {
					t.Errorf("entry %d: at %v upcoming %v, want at %v upcoming %v", i, e.At, e.Upcoming, tc.want[i].at, tc.want[i].upcoming)
				}
			}
		})
	}
}

// One series shows at most maxCalendarOccurrences entries in a range, and
// its walk to the range stops after 10×maxCalendarOccurrences occurrences,
// so no range or series can make one request compute without end.
func TestCalendarEntriesBounds(t *testing.T) {
	daily := series(scheduledmessage.StatusPending, 0, scheduledmessage.RecurrenceEndTypeNever, nil)
	if got := calendarEntries(daily, day(1), day(1).AddDate(10, 0, 0)); len(got) != maxCalendarOccurrences ||
		!got[len(got)-1].At.Equal(day(1).AddDate(0, 0, maxCalendarOccurrences-1)) {
		t.Errorf("ten years of a daily series gave %d entries, want the first %d", len(got), maxCalendarOccurrences)
	}
	walk := 10 * maxCalendarOccurrences
	last := day(1).AddDate(0, 0, walk-1) // the last occurrence the walk reaches
	if got := calendarEntries(daily, last, last.AddDate(0, 0, 10)); len(got) != 1 || !got[0].At.Equal(last) {
		t.Errorf("the range starting at occurrence %d gave %v, want that one occurrence", walk-1, got)
	}
	if got := calendarEntries(daily, last.AddDate(0, 0, 1), last.AddDate(0, 0, 10)); len(got) != 0 {
		t.Errorf("a range past the walk's bound gave %d entries, want none", len(got))
	}
}

// The next occurrence is computed from the rule, not read from
// next_occurrence_at (a runner's lease moves that column ahead).
func TestNextOccurrence(t *testing.T) {
	leased := series(scheduledmessage.StatusPending, 2, scheduledmessage.RecurrenceEndTypeNever, nil)
	leased.NextOccurrenceAt = ptr(day(3).Add(5 * time.Minute)) // the lease's end
	for _, tc := range []struct {
		name string
		sm   *ent.ScheduledMessage
		want *time.Time
	}{
		{"pending one-off", func() *ent.ScheduledMessage {
			sm := oneOff(scheduledmessage.StatusPending, day(5))
			sm.NextOccurrenceAt = ptr(day(5))
			return sm
		}(), ptr(day(5))},
		{"leased series", leased, ptr(day(3))},
		{"sent", oneOff(scheduledmessage.StatusSent, day(5)), nil},
		{"cancelled series", series(scheduledmessage.StatusCancelled, 2, scheduledmessage.RecurrenceEndTypeNever, nil), nil},
		{"pending without a clock", oneOff(scheduledmessage.StatusPending, day(5)), nil},
		{"series with every occurrence fired", series(scheduledmessage.StatusPending, 3, scheduledmessage.RecurrenceEndTypeAfterOccurrences, ptr(3)), nil},
	} {
		got := NextOccurrence(tc.sm)
		switch {
		case tc.want == nil && got != nil:
			t.Errorf("%s: next %v, want none", tc.name, *got)
		case tc.want != nil && (got == nil || !got.Equal(*tc.want)):
			t.Errorf("%s: next %v, want %v", tc.name, got, *tc.want)
		}
	}
}
