package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestRefusedPagesAnswerHTML: a console page the browser opens that cannot
// be shown answers an HTML page with the status and the reason (in the
// console's frame when signed in), not the API's JSON; the console's scripts
// still get JSON, which they read.
func TestRefusedPagesAnswerHTML(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		c := newConsole(t, e)
		cookie := c.signIn("admin@acme.test", "long-enough-pass")
		page := map[string]string{"Cookie": cookie}
		script := map[string]string{"Cookie": cookie, "X-Requested-With": "fetch"}
		for _, tc := range []struct {
			name, path string
			header     map[string]string
			status     int
			html       bool
			says       string
			framed     bool // the console's top bar is shown
		}{
			{"an address no page answers", c.app("/no-such-page"), page, http.StatusNotFound, true, "Page could not be found", true},
			{"a contact that does not exist", c.app("/contacts/999999"), page, http.StatusNotFound, true, "Contact could not be found", true},
			{"a conversation that does not exist", c.app("/conversations/999999"), page, http.StatusNotFound, true, "Conversation could not be found", true},
			{"an account id that is not a number", "/app/accounts/acme/contacts", page, http.StatusNotFound, true, "Account could not be found", false},
			{"outside the accounts", "/app/no-such-page", nil, http.StatusNotFound, true, "Page could not be found", false},
			{"a script asking for a missing contact", c.app("/contacts/999999"), script, http.StatusNotFound, false, `{"error":"Contact could not be found"}`, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.send("GET", tc.path, nil, tc.header)
				if r.status != tc.status {
					t.Fatalf("answered %d %s, want %d", r.status, r.body, tc.status)
				}
				if isHTML := strings.HasPrefix(r.header.Get("Content-Type"), "text/html"); isHTML != tc.html {
					t.Fatalf("Content-Type %q (HTML wanted: %v): %s", r.header.Get("Content-Type"), tc.html, r.body)
				}
				if !strings.Contains(r.body, tc.says) {
					t.Fatalf("the answer does not say %q: %s", tc.says, r.body)
				}
				if framed := strings.Contains(r.body, `data-testid="topbar"`); framed != tc.framed {
					t.Errorf("top bar shown: %v, want %v", framed, tc.framed)
				}
				if tc.html && !strings.Contains(r.body, `href="/app"`) {
					t.Errorf("no way back to the console: %s", r.body)
				}
			})
		}
	})
}

// TestRefusedPageInBrowser: the 404 page of a contact that does not exist,
// at both widths, and its way back to the console.
func TestRefusedPageInBrowser(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, _, b, tab := pipelineInBrowser(t, e)
		b.goTo(tab, c.base+c.app("/contacts/999999"), "the error page", `document.querySelector('[data-testid=error-page]')`)
		if got := b.eval(tab, `document.querySelector('[data-testid=error-page] h1').textContent + ': ' + document.querySelector('[data-testid=error-message]').textContent`); got != "Not Found: Contact could not be found" {
			t.Errorf("the page says %q", got)
		}
		if got := b.eval(tab, `document.title`); got != "Not Found · Switchboard" {
			t.Errorf("title %q", got)
		}
		b.shootWidths(t, tab, "error-page")
		b.eval(tab, `window.leaving = true; document.querySelector('[data-testid=error-home]').click(); true`)
		b.waitTrue(tab, "the console again", `!window.leaving && document.readyState === 'complete' && document.querySelector('[data-testid=topbar]') && !document.querySelector('[data-testid=error-page]')`)
	})
}
