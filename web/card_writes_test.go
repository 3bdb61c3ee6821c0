package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// postForm posts a form to a console path with the session and an Origin.
func (c *console) postForm(path string, form url.Values, origin string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", c.cookie)
	req.Header.Set("Origin", origin)
	res, err := noRedirects.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// TestConsoleCardWritesRefuseBadInput: every drawer action refuses bad
// input and other origins with a clear JSON error, and changes nothing.
func TestConsoleCardWritesRefuseBadInput(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		acme := p.cards["Acme renewal"]
		card := func(rest string) string { return c.app(fmt.Sprintf("/kanban_items/%d%s", acme, rest)) }
		for _, tc := range []struct {
			name, path string
			form       url.Values
			origin     string
			status     int
			errPart    string
		}{
			{"another origin", card("/edit"), url.Values{"title": {"Hijacked"}}, "http://evil.example", http.StatusForbidden, "Cross-origin"},
			{"a value that is no number", card("/edit"), url.Values{"title": {"Renamed"}, "value": {"lots"}}, "", http.StatusUnprocessableEntity, "Value must be a number"},
			{"a negative value", card("/edit"), url.Values{"value": {"-5"}}, "", http.StatusUnprocessableEntity, "Value must be a number from 0"},
			{"a blank title", card("/edit"), url.Values{"title": {"  "}}, "", http.StatusUnprocessableEntity, "Title can't be blank"},
			{"an unknown priority", card("/edit"), url.Values{"priority": {"asap"}}, "", http.StatusUnprocessableEntity, "Priority must be one of"},
			{"an unknown status", card("/status"), url.Values{"status": {"paused"}}, "", http.StatusUnprocessableEntity, "Status must be one of"},
			{"an unknown agent action", card("/agents"), url.Values{"agent_id": {fmt.Sprint(c.user)}, "action": {"swap"}}, "", http.StatusUnprocessableEntity, "Action must be"},
			{"assigning an agent twice", card("/agents"), url.Values{"agent_id": {fmt.Sprint(c.user)}, "action": {"assign"}}, "", http.StatusUnprocessableEntity, "already assigned"},
			{"a blank checklist item", card("/checklist"), url.Values{"text": {""}}, "", http.StatusUnprocessableEntity, "Text can't be blank"},
			{"another card's checklist item", card("/checklist/999999/toggle"), nil, "", http.StatusNotFound, "Checklist item"},
			{"a blank note", card("/notes"), url.Values{"content": {" "}}, "", http.StatusUnprocessableEntity, "Content can't be blank"},
			{"an unknown card", c.app("/kanban_items/999999/edit"), url.Values{"title": {"x"}}, "", http.StatusNotFound, "Kanban item"},
			{"a card id that is no number", c.app("/kanban_items/abc/status"), url.Values{"status": {"won"}}, "", http.StatusNotFound, "Kanban item"},
			{"a new card without a title", c.app(fmt.Sprintf("/funnels/%d/cards", p.funnel)), url.Values{"stage": {"lead"}}, "", http.StatusUnprocessableEntity, "Title can't be blank"},
			{"a new card in an unknown stage", c.app(fmt.Sprintf("/funnels/%d/cards", p.funnel)), url.Values{"title": {"x"}, "stage": {"nowhere"}}, "", http.StatusUnprocessableEntity, "is not a stage"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				origin := tc.origin
				if origin == "" {
					origin = c.base
				}
				st, body := c.postForm(tc.path, tc.form, origin)
				var out struct {
					Error string `json:"error"`
				}
				_ = json.Unmarshal([]byte(body), &out)
				if st != tc.status || !strings.Contains(out.Error, tc.errPart) {
					t.Errorf("answered %d %s, want %d with an error about %q", st, body, tc.status, tc.errPart)
				}
			})
		}
		_, page := c.page(c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", p.funnel)), c.cookie)
		if !strings.Contains(page, "Acme renewal<") || strings.Count(page, "data-card=\"") != len(p.cards) ||
			!strings.Contains(page, "✓ 1/2") {
			t.Errorf("a refused write changed the board (%d cards)", strings.Count(page, "data-card=\""))
		}
	})
}
