package web

import (
	"slices"
	"time"
)

// A weekly series is computed in UTC (internal/recurrence), its
// recurrence_days UTC weekdays; the console's form ticks the days in the
// browser's zone. Near midnight the two differ: Monday 21:00 in New York is
// Tuesday 02:00 UTC, so "Mondays" must be stored as Tuesdays, and shown as
// Mondays again.

// utcDayShift is how many days the UTC date of at is ahead of its date in
// at's zone: -1, 0 or 1.
func utcDayShift(at time.Time) int {
	y, m, d := at.Date()
	uy, um, ud := at.UTC().Date()
	local := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return int(time.Date(uy, um, ud, 0, 0, 0, 0, time.UTC).Sub(local).Hours() / 24)
}

// shiftWeekdays moves each weekday (0 Sunday .. 6 Saturday) by days,
// round the week, in order; out-of-range days are dropped.
func shiftWeekdays(weekdays []int, days int) []int {
	var out []int
	for _, d := range weekdays {
		if d >= 0 && d < 7 {
			out = append(out, ((d+days)%7+7)%7)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// utcWeekdays are the UTC weekdays of a series starting at start (in the
// form's zone) that fall on the local weekdays ticked.
func utcWeekdays(local []int, start time.Time) []int {
	return shiftWeekdays(local, utcDayShift(start))
}

// localWeekdays are the weekdays in loc of a series stored with UTC
// weekdays utc and its time at (any occurrence).
func localWeekdays(utc []int, at time.Time, loc *time.Location) []int {
	return shiftWeekdays(utc, -utcDayShift(at.In(loc)))
}
