package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// cell returns the HTML of one day of the calendar page.
func cell(body, date string) string {
	i := strings.Index(body, `data-testid="day-`+date+`"`)
	if i < 0 {
		return ""
	}
	rest := body[i:]
	if j := strings.Index(rest, "</td>"); j >= 0 {
		return rest[:j]
	}
	return rest
}

func TestConsoleScheduleCalendar(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		_, ib := c.post(c.api("/inboxes"), map[string]any{"name": "API", "channel": map[string]any{"type": "api"}}, true)
		inbox := int(ib["id"].(float64))
		_, ct := c.post(c.api("/contacts"), map[string]any{"inbox_id": inbox, "name": "Ann"}, true)
		contact := int(ct["payload"].(map[string]any)["contact"].(map[string]any)["id"].(float64))

		now := time.Now().UTC()
		next := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
		oneOff := next.AddDate(0, 0, 14).Add(9 * time.Hour) // the 15th, 09:00
		monday := next
		for monday.Weekday() != time.Monday {
			monday = monday.AddDate(0, 0, 1)
		}
		monday = monday.Add(8*time.Hour + 30*time.Minute)
		schedule := func(body map[string]any) int {
			body["inbox_id"], body["contact_id"] = inbox, contact
			st, out := c.post(c.api("/scheduled_messages"), body, true)
			if st != http.StatusOK {
				t.Fatalf("scheduling: %d %v", st, out)
			}
			return int(out["id"].(float64))
		}
		single := schedule(map[string]any{"title": "Renewal reminder", "content": "Your plan renews soon", "scheduled_at": oneOff.Format(time.RFC3339)})
		series := schedule(map[string]any{"content": "Stand-up notes", "scheduled_at": monday.Format(time.RFC3339),
			"recurrence_type": "weekly", "recurrence_days": []int{1, 3}, "recurrence_end_type": "after_occurrences", "recurrence_max_occurrences": 3})

		st, body := c.page(c.app("/schedules?month="+next.Format("2006-01")), c.cookie)
		if st != http.StatusOK {
			t.Fatalf("the calendar: %d %s", st, body)
		}
		if got := cell(body, oneOff.Format(time.DateOnly)); !strings.Contains(got, fmt.Sprintf(`data-schedule="%d"`, single)) ||
			!strings.Contains(got, "09:00") || !strings.Contains(got, "Renewal reminder") {
			t.Errorf("the %s cell does not show the one-off at 09:00: %s", oneOff.Format(time.DateOnly), got)
		}
		for _, d := range []time.Time{monday, monday.AddDate(0, 0, 2), monday.AddDate(0, 0, 7)} {
			got := cell(body, d.Format(time.DateOnly))
			if !strings.Contains(got, fmt.Sprintf(`data-schedule="%d"`, series)) || !strings.Contains(got, "st-upcoming") {
				t.Errorf("the %s cell does not show the series' coming occurrence: %s", d.Format(time.DateOnly), got)
			}
		}
		if got := cell(body, monday.AddDate(0, 0, 9).Format(time.DateOnly)); strings.Contains(got, fmt.Sprintf(`data-schedule="%d"`, series)) {
			t.Errorf("a fourth occurrence of a series of 3 is shown: %s", got)
		}
		if strings.Count(body, fmt.Sprintf(`data-schedule="%d"`, series)) != 3 {
			t.Errorf("the series shows %d times, want 3", strings.Count(body, fmt.Sprintf(`data-schedule="%d"`, series)))
		}

		if st, _ := c.page(c.app("/schedules?month=soon"), c.cookie); st != http.StatusUnprocessableEntity {
			t.Errorf("a bad month answered %d, want 422", st)
		}
		if st, body := c.page(c.app("/schedules"), c.cookie); st != http.StatusOK || !strings.Contains(body, now.Format("January 2006")) {
			t.Errorf("the default month is not the current one: %d", st)
		}
	})
}
