package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestWeeklyScheduleDaysFollowTheBrowsersZone: the days ticked in the
// schedule form are the browser's; the series is computed in UTC, so they
// are stored as the UTC weekdays of the same moments, shown back as ticked
// (in the drawer's form and its words), and an edit that keeps them keeps
// the stored days.
func TestWeeklyScheduleDaysFollowTheBrowsersZone(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		c := newConsole(t, e)
		p := c.newPipeline()
		now := time.Now().UTC()
		monday := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC) // a Monday next month
		for monday.Weekday() != time.Monday {
			monday = monday.AddDate(0, 0, 1)
		}
		for _, tc := range []struct {
			name, tz, at string // at: the local start, on the Monday (or days after it)
			local        []int  // ticked
			utc          []int  // stored
			utcStart     string // the stored start's UTC weekday and time
			words        string
		}{
			{"New York, Monday evening", "America/New_York", "+0 21:00", []int{1}, []int{2}, "Tue 02:00", "every week on Mon"},
			{"Tokyo, Monday morning", "Asia/Tokyo", "+0 08:00", []int{1}, []int{0}, "Sun 23:00", "every week on Mon"},
			{"Tokyo, Saturday morning, two days", "Asia/Tokyo", "+5 08:00", []int{1, 6}, []int{0, 5}, "Fri 23:00", "every week on Mon and Sat"},
			{"Paris, midday", "Europe/Paris", "+0 12:00", []int{1, 3}, []int{1, 3}, "Mon 11:00", "every week on Mon and Wed"},
			{"UTC, late evening", "UTC", "+0 23:30", []int{1}, []int{1}, "Mon 23:30", "every week on Mon"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var after int
				var clock string
				fmt.Sscanf(tc.at, "+%d %s", &after, &clock)
				at := monday.AddDate(0, 0, after).Format(time.DateOnly) + "T" + clock
				form := url.Values{"tz": {tc.tz}, "content": {"Weekly check-in"}, "scheduled_at": {at},
					"conversation_id": {strconv.Itoa(p.conv)}, "recurrence_type": {"weekly"}, "recurrence_interval": {"1"},
					"recurrence_days": {""}, "recurrence_end_type": {"never"}}
				for _, d := range tc.local {
					form.Add("recurrence_days", strconv.Itoa(d))
				}
				r := c.send("POST", c.app("/schedules"), form, map[string]string{"Cookie": c.cookie, "Origin": c.base})
				if r.status != http.StatusOK {
					t.Fatalf("creating: %d %s", r.status, r.body)
				}
				id, _ := strconv.Atoi(r.header.Get("X-Schedule-Id"))
				stored := func() ([]int, string) {
					t.Helper()
					sm := c.mustGet(c.api(fmt.Sprintf("/scheduled_messages/%d", id)))
					var days []int
					for _, d := range sm["recurrence_days"].([]any) {
						days = append(days, int(d.(float64)))
					}
					slices.Sort(days)
					start, err := time.Parse(time.RFC3339, sm["scheduled_at"].(string))
					if err != nil {
						t.Fatal(err)
					}
					return days, start.UTC().Format("Mon 15:04")
				}
				if days, start := stored(); !slices.Equal(days, tc.utc) || start != tc.utcStart {
					t.Errorf("stored days %v starting %s, want %v starting %s", days, start, tc.utc, tc.utcStart)
				}

				st, drawer := c.page(c.app(fmt.Sprintf("/schedules/%d/drawer?tz=%s", id, url.QueryEscape(tc.tz))), c.cookie)
				if st != http.StatusOK {
					t.Fatalf("the drawer: %d", st)
				}
				if got := tickedDays(drawer); !slices.Equal(got, tc.local) {
					t.Errorf("the drawer's form ticks %v, want %v", got, tc.local)
				}
				if !regexp.MustCompile(regexp.QuoteMeta(tc.words) + `\b`).MatchString(drawer) {
					t.Errorf("the drawer does not say %q", tc.words)
				}

				form.Set("title", "Renamed") // the rest as the form shows it
				r = c.send("POST", c.app(fmt.Sprintf("/schedules/%d/edit", id)), form, map[string]string{"Cookie": c.cookie, "Origin": c.base})
				if r.status != http.StatusOK {
					t.Fatalf("editing: %d %s", r.status, r.body)
				}
				if days, _ := stored(); !slices.Equal(days, tc.utc) {
					t.Errorf("after an edit that kept them the stored days are %v, want %v", days, tc.utc)
				}
			})
		}
	})
}

var tickedDay = regexp.MustCompile(`name="recurrence_days" value="(\d)" checked`)

// tickedDays are the weekdays a schedule form's day boxes tick.
func tickedDays(html string) []int {
	var out []int
	for _, m := range tickedDay.FindAllStringSubmatch(html, -1) {
		d, _ := strconv.Atoi(m[1])
		out = append(out, d)
	}
	return out
}

// TestScheduleFormRefusesDaysItHasNot: a day that is none of the form's
// boxes (0 to 6) is refused at the days (422, what was sent drawn back)
// rather than dropped, which saved a series on fewer days than were sent;
// on a create nothing is made, on an edit nothing changes.
func TestScheduleFormRefusesDaysItHasNot(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		c := newConsole(t, e)
		p := c.newPipeline()
		at := time.Now().UTC().AddDate(0, 1, 0).Format(time.DateOnly) + "T09:00"
		form := func(days ...string) url.Values {
			return url.Values{"tz": {"UTC"}, "content": {"Weekly check-in"}, "scheduled_at": {at},
				"conversation_id": {strconv.Itoa(p.conv)}, "recurrence_type": {"weekly"}, "recurrence_interval": {"1"},
				"recurrence_days": append([]string{""}, days...), "recurrence_end_type": {"never"}}
		}
		session := map[string]string{"Cookie": c.cookie, "Origin": c.base}
		made := c.send("POST", c.app("/schedules"), form("1", "3"), session)
		if made.status != http.StatusOK {
			t.Fatalf("creating: %d %s", made.status, made.body)
		}
		id := made.header.Get("X-Schedule-Id")
		listing := func() string { _, body := c.apiGet("/scheduled_messages"); return body }
		before := listing()
		for _, tc := range []struct{ name, path, day string }{
			{"a new schedule on day 9", "/schedules", "9"},
			{"a new schedule on a day named in words", "/schedules", "monday"},
			{"an edit on day -1", "/schedules/" + id + "/edit", "-1"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.send("POST", c.app(tc.path), form("1", tc.day), session)
				if r.status != http.StatusUnprocessableEntity {
					t.Fatalf("answered %d, want 422", r.status)
				}
				for _, want := range []string{"Repeat on must name days of the week", `aria-invalid="true"`} {
					if !strings.Contains(r.body, want) {
						t.Errorf("the answer lacks %s", want)
					}
				}
				if got := tickedDays(r.body); !slices.Equal(got, []int{1}) {
					t.Errorf("the form drawn back ticks %v, want the day sent that is one (1)", got)
				}
				if after := listing(); after != before {
					t.Errorf("the refusal changed the schedules:\n%s\nto\n%s", before, after)
				}
			})
		}
	})
}
