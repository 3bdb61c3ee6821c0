package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleConversationWrites: the conversation page's writes, each
// answered with the part it changed and told to the listeners; every
// refusal changes nothing and tells nothing.
func TestConsoleConversationWrites(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		inbox := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "API", "channel": map[string]any{"type": "api"}}), "id")
		ct := c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": inbox, "name": "Ann"})
		contact := idOf(ct["payload"].(map[string]any)["contact"].(map[string]any), "id")
		conv := idOf(c.mustPost(c.api("/conversations"), map[string]any{"inbox_id": inbox, "contact_id": contact}), "id")
		c.mustPost(c.api("/labels"), map[string]any{"title": "vip", "color": "#d73a49"})
		path := func(rest string) string { return c.app(fmt.Sprintf("/conversations/%d%s", conv, rest)) }
		none := []events.Kind{}
		c.run(t, []consoleCase{
			{name: "a reply", path: path("/messages"), form: url.Values{"content": {"Hello Ann"}}, status: http.StatusOK,
				html: []string{"Hello Ann"}, events: []events.Kind{events.MessageCreated}},
			{name: "a private note", path: path("/messages"), form: url.Values{"content": {"Call her back"}, "private": {"true"}}, status: http.StatusOK,
				html: []string{"Call her back", "Private note"}, events: []events.Kind{events.MessageCreated}},
			{name: "an empty reply", path: path("/messages"), form: url.Values{"content": {" "}}, status: http.StatusUnprocessableEntity,
				body: errorAbout("Content can't be blank"), events: none},
			{name: "snoozed until a time", path: path("/status"), form: url.Values{"status": {"snoozed"}, "snoozed_until": {"2031-01-02T09:30"}, "tz": {"Europe/Paris"}},
				status: http.StatusOK, html: []string{"snoozed", "2 Jan 2031, 08:30 UTC"}, events: []events.Kind{events.ConversationStatusChanged}},
			{name: "an unknown status", path: path("/status"), form: url.Values{"status": {"asleep"}}, status: http.StatusUnprocessableEntity,
				body: errorAbout("Status must be"), events: none},
			{name: "a snooze time that is no time", path: path("/status"), form: url.Values{"status": {"snoozed"}, "snoozed_until": {"soon"}},
				status: http.StatusUnprocessableEntity, body: errorAbout("Snoozed until"), events: none},
			{name: "assigned to an agent", path: path("/assignment"), form: url.Values{"assignee_id": {fmt.Sprint(c.user)}}, status: http.StatusOK,
				html: []string{fmt.Sprintf(`<option value="%d" selected>`, c.user)}, events: []events.Kind{events.ConversationUpdated}},
			{name: "assigned to a stranger", path: path("/assignment"), form: url.Values{"assignee_id": {"99999"}}, status: http.StatusUnprocessableEntity,
				body: errorAbout("Assignee is not an agent"), events: none},
			{name: "a team that does not exist", path: path("/assignment"), form: url.Values{"team_id": {"99999"}}, status: http.StatusUnprocessableEntity,
				body: errorAbout("Team does not exist"), events: none},
			{name: "an assignee that is no id", path: path("/assignment"), form: url.Values{"assignee_id": {"ada"}}, status: http.StatusUnprocessableEntity,
				body: errorAbout("assignee_id must be an id"), events: none},
			{name: "labels", path: path("/labels"), form: url.Values{"labels": {"", "vip"}}, status: http.StatusOK,
				html: []string{`value="vip" checked`}},
			{name: "another account's conversation number", path: c.app("/conversations/999/messages"), form: url.Values{"content": {"Hi"}},
				status: http.StatusNotFound, events: none},
			{name: "a page on another site", path: path("/messages"), form: url.Values{"content": {"Hi"}}, origin: "https://evil.test",
				status: http.StatusForbidden, events: none},
		})
		got := c.mustGet(c.api(fmt.Sprintf("/conversations/%d", conv)))
		if got["status"] != "snoozed" || idOf(got, "assignee_id") != c.user || fmt.Sprint(got["labels"]) != "[vip]" {
			t.Errorf("the API sees %v, assignee %v, labels %v", got["status"], got["assignee_id"], got["labels"])
		}
		if st, body := c.page(c.app("/conversations?inbox_id=first"), c.cookie); st != http.StatusUnprocessableEntity {
			t.Errorf("a list filter by a non-id inbox answered %d %s", st, body)
		}
	})
}

// TestConsoleScheduleWrites: the calendar drawer's writes through the
// schedules operations; a refusal answers the form again (422) with the
// sentence at its field, and changes nothing.
func TestConsoleScheduleWrites(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		inbox := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "API", "channel": map[string]any{"type": "api"}}), "id")
		ct := c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": inbox, "name": "Ann"})
		contact := fmt.Sprint(idOf(ct["payload"].(map[string]any)["contact"].(map[string]any), "id"))
		at := time.Now().UTC().AddDate(0, 0, 3).Format("2006-01-02T15:04")
		base := func(kv ...string) url.Values {
			v := url.Values{"inbox_id": {fmt.Sprint(inbox)}, "contact_id": {contact}, "content": {"Hi"}, "scheduled_at": {at}, "tz": {"UTC"},
				"recurrence_type": {"none"}, "recurrence_end_type": {"never"}, "recurrence_interval": {"1"}}
			for i := 0; i+1 < len(kv); i += 2 {
				v.Set(kv[i], kv[i+1])
			}
			return v
		}
		none := []events.Kind{}
		c.run(t, []consoleCase{
			{name: "a one-off", path: c.app("/schedules"), form: base("title", "Renewal"), status: http.StatusOK,
				html: []string{"Renewal", `data-testid="schedule-recurrence">once`}, events: []events.Kind{events.ScheduledMessageCreated}},
			{name: "in the past", path: c.app("/schedules"), form: base("scheduled_at", "2001-01-01T09:00"), status: http.StatusUnprocessableEntity,
				html: []string{`data-testid="error-scheduled_at"`, "Scheduled at must be in the future"}, events: none},
			{name: "weekly without an end count", path: c.app("/schedules"), form: base("recurrence_type", "weekly", "recurrence_end_type", "after_occurrences"),
				status: http.StatusUnprocessableEntity, html: []string{`data-testid="error-recurrence_max_occurrences"`}, events: none},
			{name: "a zone that is none", path: c.app("/schedules"), form: base("tz", "Mars/Olympus"), status: http.StatusUnprocessableEntity,
				html: []string{`data-testid="form-error">tz must be an IANA time zone`}, events: none},
			{name: "an interval that is no number", path: c.app("/schedules"), form: base("recurrence_type", "daily", "recurrence_interval", "often"),
				status: http.StatusUnprocessableEntity, html: []string{`data-testid="error-recurrence_interval"`, "Every must be a whole number"}, events: none},
		})
		list := c.mustGet(c.api("/scheduled_messages?status=all"))
		if n := len(list["payload"].([]any)); n != 1 {
			t.Errorf("%d schedules exist after one accepted create, want 1", n)
		}
		for _, q := range []string{"view=year", "date=tomorrow", "tz=Nowhere"} {
			if st, _ := c.page(c.app("/schedules?"+q), c.cookie); st != http.StatusUnprocessableEntity {
				t.Errorf("the calendar with %s answered %d, want 422", q, st)
			}
		}
	})
}
