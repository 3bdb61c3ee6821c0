package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsolePagesStayOnTheOrigin: every console page loads only from the
// server's own origin (no CDN, no font or script host), so the console
// works offline and behind a strict firewall.
func TestConsolePagesStayOnTheOrigin(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		inbox := idOf(c.mustGet(c.api("/inboxes"))["payload"].([]any)[0].(map[string]any), "id")
		contact := idOf(c.mustGet(c.api("/contacts"))["payload"].([]any)[0].(map[string]any), "id")
		conv := idOf(c.mustPost(c.api("/conversations"), map[string]any{"inbox_id": inbox, "contact_id": contact}), "id")
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		for _, path := range []string{
			"/conversations", fmt.Sprintf("/conversations/%d", conv), "/contacts", fmt.Sprintf("/contacts/%d", contact),
			"/schedules?view=month", "/schedules?view=week", "/schedules?view=day",
			"/settings/labels", "/settings/agents", "/settings/teams", "/settings/inboxes", "/settings/webhooks", "/settings/automations",
			"/schedules?view=agenda",
			"/funnels", fmt.Sprintf("/funnels/%d/board", p.funnel), "/reports",
		} {
			b.goTo(tab, c.base+c.app(path), path, `document.readyState === 'complete' && document.querySelector('[data-testid=topbar]')`)
			off := b.eval(tab, `performance.getEntriesByType('resource').map(e => e.name).filter(u => !u.startsWith('ws') && new URL(u).origin !== location.origin)`)
			if list, ok := off.([]any); !ok || len(list) != 0 {
				t.Errorf("%s requested other hosts: %v", path, off)
			}
			if n := b.eval(tab, `performance.getEntriesByType('resource').length`); n == float64(0) {
				t.Errorf("%s loaded no resources at all: the check saw nothing", path)
			}
		}
	})
}
