package web

import (
	"fmt"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
)

// recurrenceWords says a schedule's recurrence as people say it: "once",
// "every 2 weeks on Mon and Thu until 31 Dec 2026", "every day, 3 times".
func recurrenceWords(sm *ent.ScheduledMessage, loc *time.Location) string {
	if sm.ParentID != nil {
		return fmt.Sprintf("one occurrence of series #%d", *sm.ParentID)
	}
	unit := map[string]string{"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"}[string(sm.RecurrenceType)]
	if unit == "" {
		return "once"
	}
	s := "every " + unit
	if n := sm.RecurrenceInterval; n > 1 {
		s = fmt.Sprintf("every %d %ss", n, unit)
	}
	if sm.RecurrenceType == "weekly" && len(sm.RecurrenceDays) > 0 {
		s += " on " + dayList(localWeekdays(sm.RecurrenceDays, sm.ScheduledAt, loc))
	}
	switch {
	case sm.RecurrenceEndType == "on_date" && sm.RecurrenceEndDate != nil:
		s += " until " + sm.RecurrenceEndDate.In(loc).Format("2 Jan 2006")
	case sm.RecurrenceEndType == "after_occurrences" && sm.RecurrenceMaxOccurrences != nil:
		s += ", " + times(*sm.RecurrenceMaxOccurrences)
	}
	return s
}

// dayList is "Mon", "Mon and Thu", "Mon, Wed and Fri".
func dayList(days []int) string {
	names := [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	var out []string
	for _, d := range days {
		if d >= 0 && d < 7 {
			out = append(out, names[d])
		}
	}
	if len(out) < 2 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}
