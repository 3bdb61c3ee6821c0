package recurrence

import (
	"testing"
	"time"
)

// FuzzOccurrence computes occurrences of any rule: never a panic, and for a
// rule the operations accept (a known type, weekdays 0–6, interval ≥ 1)
// the series moves strictly forward and never starts before its start.
// CI: go test -run '^$' -fuzz FuzzOccurrence -fuzztime 10s ./internal/recurrence
func FuzzOccurrence(f *testing.F) {
	f.Add("weekly", 2, []byte{1, 3, 5}, "after_occurrences", 10, int64(1767225600), 0, 7)
	f.Add("monthly", 1, []byte{}, "never", 0, int64(1769817600), 0, 30) // the 31st
	f.Add("yearly", 1, []byte{}, "on_date", 0, int64(1709164800), 4, 4) // 29 February
	f.Add("daily", 0, []byte{}, "never", 0, int64(-62135596800), 1, 3)
	f.Add("weekly", 1, []byte{6, 6, 0, 200}, "never", 0, int64(1767225600), 1000000, 3)
	f.Add("none", 1, []byte{}, "never", 0, int64(253402300799), 0, 2)
	f.Add("hourly", -5, []byte{255}, "bogus", -1, int64(0), -1, 2)
	f.Fuzz(func(t *testing.T, typ string, interval int, days []byte, endType string, maxOcc int, startUnix int64, k, count int) {
		r := Rule{Type: Type(typ), Interval: interval, EndType: EndType(endType), Max: maxOcc,
			EndDate: time.Unix(startUnix, 0).AddDate(1, 0, 0)}
		for _, d := range days {
			r.Days = append(r.Days, int(d))
		}
		start := time.Unix(startUnix, 0).UTC()
		valid := r.valid() && start.Year() > 1 && start.Year() < 9000 && k >= 0 && k < 100_000
		if !valid {
			_, _ = r.Occurrence(start, k)
			return
		}
		prev := time.Time{}
		for i := k; i < k+min(max(count, 1), 20); i++ {
			at, ok := r.Occurrence(start, i)
			if !ok {
				break
			}
			if at.Before(start) || (!prev.IsZero() && !at.After(prev)) {
				t.Fatalf("%+v from %s: occurrence %d is %s (previous %s)", r, start, i, at, prev)
			}
			prev = at
		}
	})
}

// valid is what the operations accept before computing a series.
func (r Rule) valid() bool {
	switch r.Type {
	case None, Daily, Weekly, Monthly, Yearly:
	default:
		return false
	}
	if r.Interval < 1 || r.Interval > MaxInterval || len(r.Days) > 7 {
		return false
	}
	for _, d := range r.Days {
		if d < 0 || d > 6 {
			return false
		}
	}
	return r.Type == Weekly || len(r.Days) == 0
}
