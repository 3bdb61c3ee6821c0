package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleContactWrites: creating a contact from the list and merging
// two from a contact's page, through the operations the API calls; each
// refusal answers the page again (422) with the sentence at its field, and
// changes nothing.
func TestConsoleContactWrites(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		inbox := fmt.Sprint(idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "API", "channel": map[string]any{"type": "api"}}), "id"))
		contactOf := func(body map[string]any) int {
			return idOf(c.mustPost(c.api("/contacts"), body)["payload"].(map[string]any)["contact"].(map[string]any), "id")
		}
		ann := contactOf(map[string]any{"inbox_id": inbox, "name": "Ann", "email": "ann@example.test"})
		bob := contactOf(map[string]any{"inbox_id": inbox, "name": "Bob", "phone_number": "+15550001111"})
		page := func(id int, rest string) string { return c.app(fmt.Sprintf("/contacts/%d%s", id, rest)) }
		none := []events.Kind{}
		c.run(t, []consoleCase{
			{name: "a contact without an inbox", path: c.app("/contacts"), form: url.Values{"name": {"Cy"}}, status: http.StatusUnprocessableEntity,
				html: []string{`data-testid="error-inbox_id"`, "Inbox can&#39;t be blank", `value="Cy"`}, events: none},
			{name: "an inbox that is no id", path: c.app("/contacts"), form: url.Values{"name": {"Cy"}, "inbox_id": {"first"}},
				status: http.StatusUnprocessableEntity, html: []string{`data-testid="error-inbox_id"`}, events: none},
			{name: "an e-mail taken by another contact", path: c.app("/contacts"), form: url.Values{"name": {"Cy"}, "inbox_id": {inbox}, "email": {"ann@example.test"}},
				status: http.StatusUnprocessableEntity, html: []string{`data-testid="error-email"`}, events: none},
			{name: "an e-mail that is no address", path: c.app("/contacts"), form: url.Values{"name": {"Cy"}, "inbox_id": {inbox}, "email": {"cy at home"}},
				status: http.StatusUnprocessableEntity, html: []string{`data-testid="error-email"`}, events: none},
			{name: "a new contact", path: c.app("/contacts"), form: url.Values{"name": {"Cy Cole"}, "inbox_id": {inbox}, "email": {"cy@example.test"}},
				status: http.StatusSeeOther, events: []events.Kind{events.ContactCreated}},
			{name: "a merge with no other contact", path: page(ann, "/merge"), form: url.Values{"other_id": {""}}, status: http.StatusUnprocessableEntity,
				html: []string{`data-testid="error-merge"`, "Choose the contact to merge", `aria-describedby="merge-err-merge"`, `id="merge-err-merge"`}, events: none},
			{name: "a merge with itself", path: page(ann, "/merge"), form: url.Values{"other_id": {fmt.Sprint(ann)}}, status: http.StatusUnprocessableEntity,
				html: []string{`data-testid="error-merge"`, "cannot be merged into itself", `aria-invalid="true"`, `aria-describedby="merge-err-merge"`}, events: none},
			{name: "a merge keeping neither", path: page(ann, "/merge"), form: url.Values{"other_id": {fmt.Sprint(bob)}, "base": {"both"}},
				status: http.StatusUnprocessableEntity, html: []string{`data-testid="error-merge"`, "Keep must be"}, events: none},
			{name: "a merge with a contact that does not exist", path: page(ann, "/merge"), form: url.Values{"other_id": {"999999"}},
				status: http.StatusNotFound, events: none},
			{name: "a merge from another site", path: page(ann, "/merge"), form: url.Values{"other_id": {fmt.Sprint(bob)}}, origin: "https://evil.test",
				status: http.StatusForbidden, events: none},
			{name: "Bob merged into Ann, keeping Bob", path: page(ann, "/merge"), form: url.Values{"other_id": {fmt.Sprint(bob)}, "base": {"other"}},
				status: http.StatusSeeOther, location: page(bob, ""), events: none},
		})
		found := c.mustGet(c.api("/contacts/search?q=cy"))["payload"].([]any)
		if len(found) != 1 || found[0].(map[string]any)["email"] != "cy@example.test" {
			t.Errorf("the API finds %v for cy, want the one created contact", found)
		}
		if st, _ := c.get(c.api(fmt.Sprintf("/contacts/%d", ann))); st != http.StatusNotFound {
			t.Errorf("the merged-away contact answers %d, want 404", st)
		}
		kept := c.mustGet(c.api(fmt.Sprintf("/contacts/%d", bob)))["payload"].(map[string]any)
		if kept["email"] != "ann@example.test" || kept["phone_number"] != "+15550001111" {
			t.Errorf("the kept contact has %v and %v, want both contacts' details", kept["email"], kept["phone_number"])
		}
	})
}
