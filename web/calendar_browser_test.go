package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// fill sets form fields of the drawer by data-testid and tells the page
// (input and change events), as typing and choosing would.
func (b *browser) fill(tab string, fields map[string]string) {
	b.t.Helper()
	for id, v := range fields {
		b.eval(tab, fmt.Sprintf(`(() => { const n = document.querySelector('#drawer [data-testid=%q]');
			if (n.type === 'checkbox') n.checked = %q === 'on'; else n.value = %q;
			n.dispatchEvent(new Event('input', {bubbles: true})); n.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, id, v, v))
	}
}

func (b *browser) click(tab, selector string) {
	b.t.Helper()
	b.eval(tab, fmt.Sprintf(`(() => { document.querySelector(%q).click(); return true; })()`, selector))
}

func (b *browser) text(tab, selector string) string {
	b.t.Helper()
	s, _ := b.eval(tab, fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ''`, selector)).(string)
	return strings.TrimSpace(s)
}

// TestCalendarInChromium: an agent in Paris creates a recurring schedule
// from a day of the month, sees a refusal next to its field first, then the
// occurrences at Paris times, edits and cancels it, and a second viewer's
// calendar follows a schedule made through the API.
func TestCalendarInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		inbox := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "Support", "channel": map[string]any{"type": "api"}}), "id")
		for _, name := range []string{"Ann Archer", "Bob Baker"} {
			c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": inbox, "name": name})
		}
		paris, err := time.LoadLocation("Europe/Paris")
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now().In(paris)
		monday := time.Date(now.Year(), now.Month()+1, 1, 9, 0, 0, 0, paris)
		for monday.Weekday() != time.Monday {
			monday = monday.AddDate(0, 0, 1)
		}
		day := monday.Format(time.DateOnly)

		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.call(tab, "Emulation.setTimezoneOverride", map[string]any{"timezoneId": "Europe/Paris"}, nil)
		b.goTo(tab, c.base+c.app("/schedules?view=month&date="+day), "the calendar in Paris time",
			`document.getElementById('calendar') && document.getElementById('calendar').dataset.tz === 'Europe/Paris'`)
		b.waitTrue(tab, "the live calendar", `document.getElementById('calendar-grid').dataset.live === 'open'`)

		// A day's + opens the form at 09:00 that day; saving it empty is
		// refused, each refusal next to its field.
		b.click(tab, `[data-testid="new-`+day+`"]`)
		b.waitTrue(tab, "the new-schedule form", `document.querySelector('#drawer [data-testid=schedule-form]')`)
		if got := b.eval(tab, `document.querySelector('#drawer [data-testid=f-at]').value`); got != day+"T09:00" {
			t.Errorf("the form starts at %v, want %sT09:00", got, day)
		}
		b.click(tab, `#drawer [data-testid=schedule-save]`)
		b.waitTrue(tab, "the refusal at the inbox field", `document.querySelector('#drawer [data-testid=error-inbox_id]')`)
		for _, field := range []string{"inbox_id", "contact_id"} {
			if got := b.text(tab, `#drawer [data-testid=error-`+field+`]`); !strings.Contains(got, "can't be blank") {
				t.Errorf("the %s field says %q", field, got)
			}
		}

		// The contact picker searches; with the target chosen and no
		// content, the refusal moves to the content field.
		b.fill(tab, map[string]string{"f-contact-search": "Ann"})
		b.waitTrue(tab, "the contact search", `[...document.querySelectorAll('#drawer [data-testid=f-contact] option')].length === 2`)
		if got := b.eval(tab, `document.querySelector('#drawer [data-testid=f-contact]').selectedOptions[0].textContent`); got != "Ann Archer" {
			t.Fatalf("the picker chose %v", got)
		}
		b.fill(tab, map[string]string{"f-inbox": fmt.Sprint(inbox)})
		b.eval(tab, `window.leavingForm = document.querySelector('#drawer form'); true`)
		b.click(tab, `#drawer [data-testid=schedule-save]`)
		b.waitTrue(tab, "the refusal at the content field", `document.querySelector('#drawer form') !== window.leavingForm && document.querySelector('#drawer [data-testid=error-content]')`)
		if got := b.text(tab, `#drawer [data-testid=error-content]`); got != "Content can't be blank" {
			t.Errorf("the content field says %q", got)
		}
		if n := b.eval(tab, `document.querySelectorAll('#drawer .field-error').length`); n != float64(1) {
			t.Errorf("%v fields show a refusal, want only the content", n)
		}

		// A weekly schedule on Mon and Thu, 4 times; the chosen contact stayed.
		b.fill(tab, map[string]string{"f-title": "Weekly check-in with the Archer account team",
			"f-content": "How is everything going?", "f-repeat": "weekly", "f-day-4": "on", "f-end": "after_occurrences", "f-max": "4"})
		b.click(tab, `#drawer [data-testid=schedule-save]`)
		b.waitTrue(tab, "the new schedule's drawer", `document.querySelector('#drawer [data-testid=schedule-recurrence]')`)
		if got := b.text(tab, `#drawer [data-testid=schedule-recurrence]`); got != "every week on Mon and Thu, 4 times" {
			t.Errorf("the recurrence reads %q", got)
		}
		id := int(b.eval(tab, `Number(document.querySelector('#drawer [data-schedule]').dataset.schedule)`).(float64))
		entries := fmt.Sprintf(`#calendar-grid [data-schedule="%d"]`, id)
		b.waitTrue(tab, "four occurrences on the grid", fmt.Sprintf(`document.querySelectorAll('%s').length === 4`, entries))
		if got := b.eval(tab, fmt.Sprintf(`[...document.querySelectorAll('%s time')].map(t => t.textContent).join(' ')`, entries)); got != "09:00 09:00 09:00 09:00" {
			t.Errorf("the occurrences show at %v, want 09:00 Paris time", got)
		}
		if got := b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid="day-%s"] [data-schedule="%d"]').title`, day, id)); !strings.Contains(got.(string), "Weekly check-in with the Archer account team") || !strings.Contains(got.(string), "recurring") {
			t.Errorf("the entry's hint is %v", got)
		}
		st, out := c.get(c.api(fmt.Sprintf("/scheduled_messages/%d", id)))
		if st != http.StatusOK || out["scheduled_at"] == nil {
			t.Fatalf("the schedule through the API: %d %v", st, out)
		}
		if at, _ := time.Parse(time.RFC3339, out["scheduled_at"].(string)); !at.Equal(monday) {
			t.Errorf("stored scheduled_at %v, want %v", out["scheduled_at"], monday.UTC())
		}
		b.shootWidths(t, tab, "calendar-month-drawer")

		// Edit the title; the grid follows.
		b.fill(tab, map[string]string{"f-title": "Archer check-in"})
		b.click(tab, `#drawer [data-testid=schedule-save]`)
		b.waitTrue(tab, "the edited title", `document.getElementById('drawer-title').textContent === 'Archer check-in'`)
		b.waitTrue(tab, "the grid's edited label", fmt.Sprintf(`document.querySelector('%s .entry-label').textContent === 'Archer check-in'`, entries))

		// A second viewer sees a schedule made through the API appear.
		other := b.open(c.base + c.app("/schedules?view=week&tz=UTC&date="+day))
		b.waitTrue(other, "the second viewer's live calendar", `document.getElementById('calendar-grid') && document.getElementById('calendar-grid').dataset.live === 'open'`)
		later := monday.Add(2 * time.Hour).UTC().Format(time.RFC3339)
		contacts := c.mustGet(c.api("/contacts"))["payload"].([]any)
		one := idOf(c.mustPost(c.api("/scheduled_messages"), map[string]any{"inbox_id": inbox, "contact_id": idOf(contacts[0].(map[string]any), "id"),
			"content": "Made elsewhere", "scheduled_at": later}), "id")
		b.waitTrue(other, "the API's schedule on the second calendar", fmt.Sprintf(`document.querySelector('[data-schedule="%d"]')`, one))
		b.shootWidths(t, other, "calendar-week")
		b.goTo(other, c.base+c.app("/schedules?view=day&tz=Europe/Paris&date="+day), "the day view", `document.querySelector('[data-testid="hour-11:00"] [data-schedule]')`)
		b.shootWidths(t, other, "calendar-day")
		b.goTo(other, c.base+c.app("/schedules?view=agenda&tz=Europe/Paris&date="+day), "the agenda", `document.querySelector('.agenda')`)
		if got := b.eval(other, fmt.Sprintf(`document.querySelectorAll('.agenda [data-schedule="%d"]').length`, id)); got != float64(4) {
			t.Errorf("the agenda lists the series %v times, want 4", got)
		}
		if got := b.eval(other, `[...document.querySelectorAll('.agenda > li')].map(li => li.dataset.testid).join(' ')`); !strings.HasPrefix(got.(string), "day-"+day) {
			t.Errorf("the agenda's days are %v, want them from %s", got, day)
		}
		b.shootWidths(t, other, "calendar-agenda")

		// Cancel: the series stops, its coming occurrences go.
		b.eval(tab, `window.confirm = () => true; true`)
		b.click(tab, `#drawer [data-testid=schedule-cancel]`)
		b.waitTrue(tab, "the cancelled status", `document.querySelector('#drawer [data-testid=schedule-status]').textContent === 'cancelled'`)
		b.waitTrue(tab, "the grid without coming occurrences", fmt.Sprintf(`document.querySelectorAll('%s').length === 1 && document.querySelector('%s').classList.contains('st-cancelled')`, entries, entries))
		if n := b.eval(tab, `document.querySelectorAll('#drawer [data-testid=schedule-form]').length`); n != float64(0) {
			t.Errorf("a cancelled schedule still has its edit form")
		}

		// Delete: the drawer closes and the entry goes.
		b.click(tab, `#drawer [data-testid=schedule-delete]`)
		b.waitTrue(tab, "the closed drawer", `document.getElementById('drawer').hidden`)
		b.waitTrue(tab, "the grid without the schedule", fmt.Sprintf(`document.querySelectorAll('%s').length === 0`, entries))
		if st, _ := c.get(c.api(fmt.Sprintf("/scheduled_messages/%d", id))); st != http.StatusNotFound {
			t.Errorf("the deleted schedule answers %d", st)
		}
	})
}
