package web

import (
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
)

func TestRecurrenceWords(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	end := time.Date(2026, 12, 31, 22, 59, 0, 0, time.UTC) // 23:59 in Paris
	three, parent := 3, 7
	for _, tc := range []struct {
		name string
		sm   ent.ScheduledMessage
		want string
	}{
		{"one-off", ent.ScheduledMessage{RecurrenceType: scheduledmessage.RecurrenceTypeNone}, "once"},
		{"weekly with days and an end date", ent.ScheduledMessage{RecurrenceType: scheduledmessage.RecurrenceTypeWeekly, RecurrenceInterval: 2,
			RecurrenceDays: []int{1, 4}, RecurrenceEndType: "on_date", RecurrenceEndDate: &end}, "every 2 weeks on Mon and Thu until 31 Dec 2026"},
		{"daily, a number of times", ent.ScheduledMessage{RecurrenceType: scheduledmessage.RecurrenceTypeDaily, RecurrenceInterval: 1,
			RecurrenceEndType: "after_occurrences", RecurrenceMaxOccurrences: &three}, "every day, 3 times"},
		{"three week days", ent.ScheduledMessage{RecurrenceType: scheduledmessage.RecurrenceTypeWeekly, RecurrenceInterval: 1,
			RecurrenceDays: []int{1, 3, 5}, RecurrenceEndType: "never"}, "every week on Mon, Wed and Fri"},
		{"monthly forever", ent.ScheduledMessage{RecurrenceType: scheduledmessage.RecurrenceTypeMonthly, RecurrenceInterval: 3}, "every 3 months"},
		{"an occurrence", ent.ScheduledMessage{RecurrenceType: scheduledmessage.RecurrenceTypeNone, ParentID: &parent}, "one occurrence of series #7"},
	} {
		if got := recurrenceWords(&tc.sm, paris); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
