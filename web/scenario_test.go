package web_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/events"
)

// consoleCase is one console write and what it must answer and tell, as the
// REST and GraphQL scenarios state theirs (internal/apitest).
type consoleCase struct {
	name string
	path string
	// form is sent form-encoded; jsonBody (when form is nil) as JSON, as the
	// board's drag and drop sends a move.
	form     url.Values
	jsonBody any
	// origin is the request's Origin ("": the console's own).
	origin string
	// cookie is the session sent ("": the administrator's).
	cookie string
	status int
	// body holds JSON paths and their expected values (apitest.Expect), for
	// answers in JSON: refusals ({"error": ...}) and the board's moves.
	body map[string]any
	// html are parts the answered HTML must contain (the drawer after a
	// write).
	html []string
	// location is where a redirecting answer (303) must send the browser
	// ("": not checked).
	location string
	// events are exactly the kinds of change the write tells the account's
	// listeners, in order ([]events.Kind{} for a refusal: none); nil leaves
	// them unchecked.
	events []events.Kind
}

// run sends each case in turn with the session, checking status, body and
// events.
func (c *console) run(t *testing.T, cases []consoleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var heard *apitest.EventLog
			if tc.events != nil {
				heard = apitest.Listen(t, c.srv.Events, c.account)
			}
			st, raw, where := c.sendCase(t, tc)
			if st != tc.status {
				t.Fatalf("answered %d %s, want %d", st, raw, tc.status)
			}
			if tc.location != "" && where != tc.location {
				t.Errorf("sent the browser to %q, want %q", where, tc.location)
			}
			if tc.body != nil {
				var got any
				if err := json.Unmarshal([]byte(raw), &got); err != nil {
					t.Fatalf("answer is no JSON: %s", raw)
				}
				apitest.Expect(t, tc.name, got, tc.body)
			}
			for _, part := range tc.html {
				if !strings.Contains(raw, part) {
					t.Errorf("the answer lacks %q", part)
				}
			}
			if heard != nil {
				heard.Expect(t, tc.events)
			}
		})
	}
}

// sendCase posts one case's request with the session cookie and an Origin.
func (c *console) sendCase(t *testing.T, tc consoleCase) (status int, answer, location string) {
	t.Helper()
	var body io.Reader
	contentType := "application/x-www-form-urlencoded"
	if tc.form != nil {
		body = strings.NewReader(tc.form.Encode())
	} else {
		raw, _ := json.Marshal(tc.jsonBody)
		body, contentType = strings.NewReader(string(raw)), "application/json"
	}
	req, _ := http.NewRequest("POST", c.base+tc.path, body)
	req.Header.Set("Content-Type", contentType)
	cookie := tc.cookie
	if cookie == "" {
		cookie = c.cookie
	}
	req.Header.Set("Cookie", cookie)
	origin := tc.origin
	if origin == "" {
		origin = c.base
	}
	req.Header.Set("Origin", origin)
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(raw), res.Header.Get("Location")
}

// errorAbout matches a JSON error whose message contains part.
func errorAbout(part string) map[string]any {
	return map[string]any{"error": apitest.Matcher(func(got any, present bool) string {
		if s, ok := got.(string); !ok || !strings.Contains(s, part) {
			return "want an error about " + part
		}
		return ""
	})}
}
