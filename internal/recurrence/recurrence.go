// Package recurrence computes the occurrences of a repeating schedule, in
// UTC and by calendar arithmetic: the k-th occurrence is computed from the
// start, never by adding fixed seconds to the previous one, so a monthly
// schedule on the 31st lands on the last day of shorter months and returns
// to the 31st after them.
package recurrence

import (
	"sort"
	"time"
)

// Type is the kind of repetition.
type Type string

const (
	None    Type = "none"
	Daily   Type = "daily"
	Weekly  Type = "weekly"
	Monthly Type = "monthly"
	Yearly  Type = "yearly"
)

// EndType says when a series stops.
type EndType string

const (
	Never            EndType = "never"
	OnDate           EndType = "on_date"
	AfterOccurrences EndType = "after_occurrences"
)

// The bounds of a rule: every thousand periods at most, ten thousand
// occurrences at most, and none past the year 9999, which both engines
// store. Unbounded, an interval of 2^63-1 overflowed into past occurrences
// the runner fired as missed without end.
const (
	MaxInterval    = 1000
	MaxOccurrences = 10000
	lastYear       = 9999
)

// Rule is a schedule's recurrence.
type Rule struct {
	Type     Type
	Interval int   // every Interval periods (≥ 1)
	Days     []int // weekly only: weekdays 0 (Sunday) … 6 (Saturday)
	EndType  EndType
	EndDate  time.Time // OnDate: no occurrence after it
	Max      int       // AfterOccurrences: this many occurrences
}

// Occurrence returns the k-th occurrence (k = 0 is the first) of a series
// starting at start, and false when the series has ended before it.
func (r Rule) Occurrence(start time.Time, k int) (time.Time, bool) {
	start = start.UTC()
	if k < 0 || r.Type == None && k > 0 {
		return time.Time{}, false
	}
	if r.EndType == AfterOccurrences && k >= r.Max {
		return time.Time{}, false
	}
	t := r.nth(start, k)
	if r.EndType == OnDate && t.After(r.EndDate) || t.Year() > lastYear {
		return time.Time{}, false
	}
	// A rule stored before the bounds may overflow: a series never goes
	// back in time, it ends.
	if k > 0 && !t.After(r.nth(start, k-1)) {
		return time.Time{}, false
	}
	return t, true
}

func (r Rule) nth(start time.Time, k int) time.Time {
	n := max(r.Interval, 1)
	switch r.Type {
	case Daily:
		return start.AddDate(0, 0, k*n)
	case Weekly:
		return r.nthWeekly(start, k, n)
	case Monthly:
		return addMonthsClamped(start, k*n)
	case Yearly:
		return addMonthsClamped(start, 12*k*n)
	}
	return start
}

// addMonthsClamped moves t by months, keeping its day of month where the
// target month has it and taking the month's last day where it does not.
func addMonthsClamped(t time.Time, months int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(months), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1)
}

// nthWeekly: occurrences fall on the rule's weekdays (the start's own
// weekday when none are given), at the start's time of day, in every n-th
// week counted from the start's week (weeks begin on Sunday). Days of the
// start's week before the start are skipped.
func (r Rule) nthWeekly(start time.Time, k, n int) time.Time {
	days := weekdays(r.Days, start)
	startDay := int(start.Weekday())
	skip := sort.SearchInts(days, startDay) // days of the first week before the start
	idx := k + skip
	week, pos := idx/len(days), idx%len(days)
	sunday := start.AddDate(0, 0, -startDay)
	return sunday.AddDate(0, 0, week*n*7+days[pos])
}

func weekdays(days []int, start time.Time) []int {
	if len(days) == 0 {
		return []int{int(start.Weekday())}
	}
	out := append([]int(nil), days...)
	sort.Ints(out)
	uniq := out[:0]
	for i, d := range out {
		if i == 0 || d != out[i-1] {
			uniq = append(uniq, d)
		}
	}
	return uniq
}
