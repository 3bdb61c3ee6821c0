package recurrence

import (
	"testing"
	"time"
)

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02T15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

func series(r Rule, start time.Time, upTo int) []string {
	var out []string
	for k := 0; k < upTo; k++ {
		t, ok := r.Occurrence(start, k)
		if !ok {
			break
		}
		out = append(out, t.Format("2006-01-02T15:04 Mon"))
	}
	return out
}

func TestOccurrences(t *testing.T) {
	cases := []struct {
		name  string
		rule  Rule
		start string
		upTo  int
		want  []string
	}{
		{"one-off has one occurrence", Rule{Type: None}, "2026-03-10T09:00", 5,
			[]string{"2026-03-10T09:00 Tue"}},
		{"daily every 2 days, 3 times", Rule{Type: Daily, Interval: 2, EndType: AfterOccurrences, Max: 3}, "2026-03-10T09:00", 10,
			[]string{"2026-03-10T09:00 Tue", "2026-03-12T09:00 Thu", "2026-03-14T09:00 Sat"}},
		{"weekly Mon/Wed/Fri after 3, starting on a Sunday", Rule{Type: Weekly, Interval: 1, Days: []int{1, 3, 5}, EndType: AfterOccurrences, Max: 3}, "2026-11-22T10:00", 10,
			[]string{"2026-11-23T10:00 Mon", "2026-11-25T10:00 Wed", "2026-11-27T10:00 Fri"}},
		{"weekly Mon/Wed/Fri starting on a Wednesday skips that week's Monday", Rule{Type: Weekly, Interval: 1, Days: []int{5, 1, 3}, EndType: AfterOccurrences, Max: 4}, "2026-11-25T10:00", 10,
			[]string{"2026-11-25T10:00 Wed", "2026-11-27T10:00 Fri", "2026-11-30T10:00 Mon", "2026-12-02T10:00 Wed"}},
		{"every 2 weeks on Tuesday", Rule{Type: Weekly, Interval: 2, Days: []int{2}}, "2026-01-06T08:30", 3,
			[]string{"2026-01-06T08:30 Tue", "2026-01-20T08:30 Tue", "2026-02-03T08:30 Tue"}},
		{"monthly on the 31st clamps to the month's last day and comes back", Rule{Type: Monthly, Interval: 1}, "2026-01-31T12:00", 5,
			[]string{"2026-01-31T12:00 Sat", "2026-02-28T12:00 Sat", "2026-03-31T12:00 Tue", "2026-04-30T12:00 Thu", "2026-05-31T12:00 Sun"}},
		{"yearly on 29 February", Rule{Type: Yearly, Interval: 1}, "2028-02-29T07:00", 5,
			[]string{"2028-02-29T07:00 Tue", "2029-02-28T07:00 Wed", "2030-02-28T07:00 Thu", "2031-02-28T07:00 Fri", "2032-02-29T07:00 Sun"}},
		{"a series ends before the year 10000", Rule{Type: Yearly, Interval: 1000}, "2026-03-10T09:00", 10,
			[]string{"2026-03-10T09:00 Tue", "3026-03-10T09:00 Fri", "4026-03-10T09:00 Tue", "5026-03-10T09:00 Fri",
				"6026-03-10T09:00 Tue", "7026-03-10T09:00 Fri", "8026-03-10T09:00 Tue", "9026-03-10T09:00 Fri"}},
		// A rule stored before the bounds: k*interval overflowed into past
		// occurrences that the runner fired as missed without end.
		{"an overflowing interval ends the series", Rule{Type: Daily, Interval: 1<<63 - 1}, "2026-03-10T09:00", 5,
			[]string{"2026-03-10T09:00 Tue"}},
		{"an interval whose double wraps to the start ends it", Rule{Type: Yearly, Interval: 1 << 62}, "2026-03-10T09:00", 5,
			[]string{"2026-03-10T09:00 Tue"}},
		{"on_date stops after the end date", Rule{Type: Daily, Interval: 1, EndType: OnDate, EndDate: day("2026-03-12T09:00")}, "2026-03-10T09:00", 10,
			[]string{"2026-03-10T09:00 Tue", "2026-03-11T09:00 Wed", "2026-03-12T09:00 Thu"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := series(c.rule, day(c.start), c.upTo)
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
}
