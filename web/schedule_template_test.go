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

// TestConsoleScheduleTemplates: the calendar form's WhatsApp template
// fields reach the schedules operation as template_params; a template the
// inbox does not have, or parameters that do not fit it, are refused at the
// field and change nothing.
func TestConsoleScheduleTemplates(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		wa := waInbox(c)
		ct := c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": wa, "name": "Ann", "phone_number": "+15550002222"})
		contact := fmt.Sprint(idOf(ct["payload"].(map[string]any)["contact"].(map[string]any), "id"))
		at := time.Now().UTC().AddDate(0, 0, 3).Format("2006-01-02T15:04")
		form := func(name, params string) url.Values {
			return url.Values{"inbox_id": {fmt.Sprint(wa)}, "contact_id": {contact}, "content": {"Renewal"}, "scheduled_at": {at}, "tz": {"UTC"},
				"recurrence_type": {"none"}, "recurrence_end_type": {"never"}, "recurrence_interval": {"1"},
				"template_name": {name}, "template_language": {"en_US"}, "template_params": {params}}
		}
		none := []events.Kind{}
		c.run(t, []consoleCase{
			{name: "a template the inbox does not have", path: c.app("/schedules"), form: form("welcome", "Ann"), status: http.StatusUnprocessableEntity,
				html: []string{`data-testid="error-template_params"`, "No approved template &#34;welcome&#34;"}, events: none},
			{name: "one parameter of two", path: c.app("/schedules"), form: form("renewal_due", "Ann\n"), status: http.StatusUnprocessableEntity,
				html: []string{`data-testid="error-template_params"`, "takes parameters [1 2], got [1]"}, events: none},
			{name: "both parameters, in order", path: c.app("/schedules"), form: form("renewal_due", "Ann\r\n1 December\r\n"), status: http.StatusOK,
				html: []string{`data-testid="schedule-template">renewal_due (en_US) with Ann, 1 December<`}, events: []events.Kind{events.ScheduledMessageCreated}},
		})
		list := c.mustGet(c.api("/scheduled_messages?status=all"))["payload"].([]any)
		if len(list) != 1 {
			t.Fatalf("%d schedules exist after one accepted create", len(list))
		}
		if got := fmt.Sprint(list[0].(map[string]any)["template_params"]); got != "map[language:en_US name:renewal_due processed_params:map[1:Ann 2:1 December]]" {
			t.Errorf("the API sees template_params %s", got)
		}
	})
}
