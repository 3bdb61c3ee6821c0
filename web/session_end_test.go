package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// signOut ends the session of cookie as the Sign out button does.
func (c *console) signOut(cookie string) {
	c.t.Helper()
	if r := c.send("POST", "/app/logout", url.Values{}, map[string]string{"Cookie": cookie, "Origin": c.base}); r.status != http.StatusSeeOther {
		c.t.Fatalf("sign-out: %d %s", r.status, r.body)
	}
}

// TestEndedSessionRefusesScripts: with the session ended, a request of the
// console's scripts (X-Requested-With: fetch) is refused with 401 and the
// reason, which they show; a page the browser navigates to still goes to
// the sign-in page.
func TestEndedSessionRefusesScripts(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		c := newConsole(t, e)
		p := c.newPipeline()
		ended := c.signIn("admin@acme.test", "long-enough-pass")
		c.signOut(ended)
		move := c.app(fmt.Sprintf("/kanban_items/%d/move", p.cards["Acme renewal"]))
		script := map[string]string{"Cookie": ended, "Origin": c.base, "X-Requested-With": "fetch"}
		page := map[string]string{"Cookie": ended, "Origin": c.base}
		for _, tc := range []struct {
			name, method, path string
			form               url.Values
			header             map[string]string
			status             int
			location, error    string
		}{
			{"a script's write", "POST", move, url.Values{"funnel_stage": {"qualified"}}, script, http.StatusUnauthorized, "", "Your session has ended: sign in again"},
			{"a script's read", "GET", c.app(fmt.Sprintf("/conversations/%d/thread", p.conv)), nil, script, http.StatusUnauthorized, "", "Your session has ended: sign in again"},
			{"a script with no session", "GET", c.app("/contacts"), nil, map[string]string{"X-Requested-With": "fetch"}, http.StatusUnauthorized, "", "Sign in to continue"},
			{"a form posted by the browser", "POST", move, url.Values{"funnel_stage": {"qualified"}}, page, http.StatusSeeOther, "/app/login", ""},
			{"a page the browser opens", "GET", c.app("/contacts"), nil, page, http.StatusSeeOther, "/app/login", ""},
			{"another X-Requested-With", "GET", c.app("/contacts"), nil, map[string]string{"Cookie": ended, "X-Requested-With": "XMLHttpRequest"}, http.StatusSeeOther, "/app/login", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.send(tc.method, tc.path, tc.form, tc.header)
				if r.status != tc.status {
					t.Fatalf("answered %d %s, want %d", r.status, r.body, tc.status)
				}
				if got := r.header.Get("Location"); got != tc.location {
					t.Errorf("Location %q, want %q", got, tc.location)
				}
				if tc.error == "" {
					return
				}
				var body struct{ Error string }
				if err := json.Unmarshal([]byte(r.body), &body); err != nil || body.Error != tc.error {
					t.Errorf("body %s, want the error %q", r.body, tc.error)
				}
			})
		}
		if st, _ := c.page(c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", p.funnel)), c.cookie); st != http.StatusOK {
			t.Errorf("another session's board answered %d", st)
		}
		_, frag := c.page(c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", p.funnel)), c.cookie)
		if !containsCard(column(frag, "lead"), p.cards["Acme renewal"]) {
			t.Error("the refused move moved the card")
		}
	})
}

func containsCard(columnHTML string, id int) bool {
	return strings.Contains(columnHTML, fmt.Sprintf(`data-card="%d"`, id))
}

// TestEndedSessionInChromium: signed out in another tab, a reply sent from
// an open conversation keeps its text and says the session ended, with a
// link to sign in again (no sign-in form drawn in the thread), and a card
// dragged or carried by keyboard on an open board goes back to its column.
func TestEndedSessionInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/conversations/%d", p.conv)), "the conversation", `document.getElementById('thread').dataset.live === 'open'`)
		board := b.open(c.base + c.app(fmt.Sprintf("/funnels/%d/board", p.funnel)))
		b.waitTrue(board, "the board", `document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`)
		other := b.open(c.base + c.app("/contacts"))
		b.waitTrue(other, "the contacts page", `document.readyState === 'complete' && document.querySelector('[data-testid=logout]')`)
		b.eval(other, `window.leaving = true; document.querySelector('[data-testid=logout]').click(); true`)
		b.waitTrue(other, "the sign-in page", `!window.leaving && document.querySelector('input[name=password]')`)

		ended := `(() => { const n = document.querySelector('[data-testid=session-ended]');
			return !n.hidden && n.querySelector('a[href="/app/login"]') !== null; })()`
		b.eval(tab, `document.querySelector('[data-testid=reply-content]').value = 'Your refund is on its way';
			document.querySelector('[data-testid=reply-send]').click(); true`)
		b.waitTrue(tab, "the refusal under the reply", `(() => { const e = document.querySelector('[data-testid=reply-error]');
			return !e.hidden && e.textContent.includes('Your session has ended'); })()`)
		b.waitTrue(tab, "the session-ended notice", ended)
		if got := b.eval(tab, `document.querySelector('[data-testid=reply-content]').value`); got != "Your refund is on its way" {
			t.Errorf("the reply box holds %q after the refusal", got)
		}
		if b.eval(tab, `document.querySelector('main input[name=password]') !== null`) == true {
			t.Error("the sign-in form is drawn inside the page")
		}

		acme := p.cards["Acme renewal"]
		b.dragCard(board, acme, "proposal")
		b.waitTrue(board, "the refusal on the board", `(() => { const m = document.querySelector('[data-testid=board-message]');
			return !m.hidden && m.textContent.includes('Your session has ended'); })()`)
		b.waitTrue(board, "the session-ended notice on the board", ended)
		if b.eval(board, cardIn(acme, "lead")) != true {
			t.Error("the refused card is not back in Lead")
		}
		if b.eval(board, `document.querySelector('main input[name=password]') !== null`) == true {
			t.Error("the sign-in form is drawn inside the board")
		}

		// Carried by keyboard: the card is already in the next column when
		// dropped, and goes back to where it was picked up.
		globex := p.cards["Globex pilot"]
		for _, k := range []string{" ", "ArrowRight", " "} {
			b.eval(board, fmt.Sprintf(`(() => { const card = document.querySelector('[data-testid="card-%d"]'); card.focus();
				card.dispatchEvent(new KeyboardEvent('keydown', {key: %q, bubbles: true, cancelable: true})); return true; })()`, globex, k))
		}
		b.waitTrue(board, "the keyboard move refused", `document.querySelector('[data-testid=board-announce]').textContent.includes('The move of Globex pilot was refused')`)
		if b.eval(board, cardIn(globex, "lead")) != true {
			t.Error("the card carried by keyboard is not back in Lead")
		}
	})
}

// TestConsolePagesAreNotStored: the account's pages and fragments are
// sent with Cache-Control: no-store, so that Back after signing out shows
// no private page from the browser's cache.
func TestConsolePagesAreNotStored(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		c := newConsole(t, e)
		p := c.newPipeline()
		for _, tc := range []struct {
			name, path string
			status     int
		}{
			{"a page", c.app("/contacts"), http.StatusOK},
			{"a conversation", c.app(fmt.Sprintf("/conversations/%d", p.conv)), http.StatusOK},
			{"a board's fragment", c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", p.funnel)), http.StatusOK},
			{"a refusal", c.app("/funnels/999999/board"), http.StatusNotFound},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.send("GET", tc.path, nil, map[string]string{"Cookie": c.cookie})
				if r.status != tc.status {
					t.Fatalf("answered %d, want %d", r.status, tc.status)
				}
				if got := r.header.Get("Cache-Control"); got != "no-store" {
					t.Errorf("Cache-Control %q, want no-store", got)
				}
			})
		}
	})
}

// TestBackAfterSignOutInChromium: Back after signing out shows the sign-in
// page, not the contacts page the tab showed before.
func TestBackAfterSignOutInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, _, b, tab := pipelineInBrowser(t, e)
		b.goTo(tab, c.base+c.app("/contacts"), "the contacts", `document.body.textContent.includes('Alice Buyer')`)
		b.eval(tab, `window.leaving = true; document.querySelector('[data-testid=logout]').click(); true`)
		b.waitTrue(tab, "the sign-in page", `!window.leaving && document.querySelector('input[name=password]')`)
		b.eval(tab, `window.leaving = true; history.back(); true`)
		b.waitTrue(tab, "the page Back shows", `!window.leaving && document.readyState === 'complete' &&
			(document.querySelector('input[name=password]') || document.body.textContent.includes('Alice Buyer'))`)
		if b.eval(tab, `document.body.textContent.includes('Alice Buyer')`) == true {
			t.Error("Back after signing out shows the contacts page")
		}
	})
}
