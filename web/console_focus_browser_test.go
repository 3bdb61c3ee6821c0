package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Where the keyboard focus lands after the drawers' actions: never on
// <body>, which throws a keyboard or screen-reader user out of what they
// were doing.

// watchDrawerSwaps, evaluated in a tab, counts the times the drawer's
// content is replaced (window.__swaps): by the answer to a sent form, or by
// the live redraw another change of the card causes.
const watchDrawerSwaps = `(() => {
	window.__swaps = 0;
	new MutationObserver((records) => { window.__swaps += records.length; })
		.observe(document.getElementById('drawer'), {childList: true});
	return true;
})()`

// focusedTestid is a script naming the focused element: its data-testid,
// else its id, else its tag.
const focusedTestid = `(() => { const a = document.activeElement;
	return a ? (a.dataset.testid || a.id || a.tagName) : 'none'; })()`

// TestConsoleDrawerStatusActionsKeepFocus: Mark won, Mark lost and Reopen
// each replace the control pressed; the focus goes to the control that took
// its place, and stays there through the live redraw the change causes.
func TestConsoleDrawerStatusActionsKeepFocus(t *testing.T) {
	steps := []struct{ press, status, focus string }{
		{"mark-won", "Won", "reopen"},
		{"reopen", "Open", "mark-won"},
		{"mark-lost", "Lost", "reopen"},
	}
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		globex := p.cards["Globex pilot"]
		d := drawerDriver{b: b, tab: tab, t: t}
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/board?card=%d", p.funnel, globex)), "the card's drawer",
			fmt.Sprintf(`document.querySelector('[data-testid=drawer-card][data-card="%d"]') && document.getElementById('board').dataset.live === 'open'`, globex))
		for _, s := range steps {
			t.Run(s.press, func(t *testing.T) {
				d.t = t
				d.wait("the "+s.press+" button", fmt.Sprintf(`document.querySelector('[data-testid=%s]')`, s.press))
				b.eval(tab, watchDrawerSwaps)
				// Focused and pressed in one step, as Enter on it would.
				b.eval(tab, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%s]'); el.focus(); el.click(); return true; })()`, s.press))
				// Two swaps: the answer to the press and the live redraw.
				d.wait("the card "+s.status+", answered and redrawn live", fmt.Sprintf(
					`window.__swaps >= 2 && document.querySelector('[data-testid=drawer-status]').textContent === %q`, s.status))
				if got := b.eval(tab, focusedTestid); got != s.focus {
					t.Errorf("after %s the focus is on %v, want %s", s.press, got, s.focus)
				}
				if s.press == "mark-won" {
					b.shootWidths(t, tab, "drawer-focus-after-mark-won")
				}
			})
		}
	})
}

// TestCalendarDeleteKeepsFocus: deleting a schedule from its drawer closes
// the drawer; its entry is gone, so the focus goes to the + of the day the
// entry was in (on a phone, whose month hides the +, to the day's link),
// and stays there through the grid's refetches.
func TestCalendarDeleteKeepsFocus(t *testing.T) {
	cases := []struct {
		width int
		focus string // in the entry's day
	}{{1400, "[data-new]"}, {390, "a.day"}}
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		inbox := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "Support", "channel": map[string]any{"type": "api"}}), "id")
		ct := c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": inbox, "name": "Ann Archer"})
		contact := idOf(ct["payload"].(map[string]any)["contact"].(map[string]any), "id")
		at := time.Now().UTC().AddDate(0, 0, 3).Truncate(24 * time.Hour).Add(10 * time.Hour)
		day := at.Format(time.DateOnly)
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%d px", tc.width), func(t *testing.T) {
				id := idOf(c.mustPost(c.api("/scheduled_messages"), map[string]any{"inbox_id": inbox, "contact_id": contact,
					"content": "Any news?", "scheduled_at": at.Format(time.RFC3339)}), "id")
				b.setWidth(tab, tc.width)
				b.goTo(tab, c.base+c.app("/schedules?view=month&tz=UTC&date="+day), "the calendar",
					`document.getElementById('calendar-grid') && document.getElementById('calendar-grid').dataset.live === 'open'`)
				entry := fmt.Sprintf(`[data-testid="day-%s"] [data-schedule="%d"]`, day, id)
				b.waitTrue(tab, "the schedule's entry", fmt.Sprintf(`document.querySelector('%s')`, entry))
				b.eval(tab, fmt.Sprintf(`(() => { const el = document.querySelector('%s'); el.focus(); el.click(); return true; })()`, entry))
				b.waitTrue(tab, "the schedule's drawer", `document.querySelector('#drawer [data-testid=schedule-delete]')`)
				b.eval(tab, `window.confirm = () => true; (() => { const el = document.querySelector('#drawer [data-testid=schedule-delete]');
					el.focus(); el.click(); return true; })()`)
				b.waitTrue(tab, "the drawer closed and the entry gone from the grid", fmt.Sprintf(
					`document.getElementById('drawer').hidden && !document.querySelector('[data-schedule="%d"]')`, id))
				want := fmt.Sprintf(`document.activeElement === document.querySelector('[data-testid="day-%s"] %s')`, day, tc.focus)
				if b.eval(tab, want) != true {
					t.Errorf("after the delete the focus is on %v, want %s of %s", b.eval(tab, focusedTestid), tc.focus, day)
				}
				b.shoot(t, tab, fmt.Sprintf("calendar-focus-after-delete-%d", tc.width))
			})
		}
		b.setWidth(tab, screenWidths[0])
	})
}
