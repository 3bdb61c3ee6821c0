package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// watchDrawerRedraw, evaluated with a card id, notes what the open drawer
// does with a live change of that card: window.__seen once the change
// arrived, window.__started whether the drawer then began to refetch
// itself (drawer.js decides before its first wait, so before the later
// listener here runs), window.__swaps the redraws since.
const watchDrawerRedraw = `((card) => {
	const real = window.fetch;
	window.__gets = 0;
	window.fetch = (url, opts) => {
		if (String(url).endsWith('/drawer') && (!opts || !opts.method || opts.method === 'GET')) window.__gets++;
		return real(url, opts);
	};
	window.__seen = false;
	document.addEventListener('board:change', (e) => {
		if (String(e.detail.item_id) !== String(card)) return;
		window.__seen = true;
		window.__started = window.__gets > 0;
	});
	return ` + watchDrawerSwaps + `;
})`

// TestConsoleDrawerLiveChangeKeepsChoices: another viewer's change of the
// open card redraws its drawer only while the agent has nothing unsent
// there. A choice made in a select (the priority, the agent to assign)
// is as unsent as typed text and must not be wiped by the redraw; neither
// must a ticked box.
func TestConsoleDrawerLiveChangeKeepsChoices(t *testing.T) {
	cases := []struct {
		name, testid, value string
		stage               string // where the other viewer moves the card
	}{
		{"the priority chosen", "field-priority", "low", "qualified"},
		{"the agent chosen to assign", "assign-select", "", "proposal"}, // the second agent listed
		{"the private note ticked", "reply-private", "on", "negotiation"},
	}
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		for _, name := range []string{"Grace", "Linus"} {
			c.mustPost(c.api("/agents"), map[string]any{"name": name, "email": name + "@acme.test", "role": "agent"})
		}
		acme := p.cards["Acme renewal"]
		d := drawerDriver{b: b, tab: tab, t: t}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				d.t = t
				b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/board?card=%d", p.funnel, acme)), "the card's drawer",
					fmt.Sprintf(`document.querySelector('[data-testid=drawer-card][data-card="%d"]') && document.getElementById('board').dataset.live === 'open'`, acme))
				d.wait("the "+tc.testid+" control", fmt.Sprintf(`document.querySelector('[data-testid=%s]')`, tc.testid))
				b.eval(tab, fmt.Sprintf(`%s(%d)`, watchDrawerRedraw, acme))
				chose := b.eval(tab, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%s]');
					if (el.type === 'checkbox') el.checked = true;
					else el.value = %q || el.options[1].value;
					el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true}));
					return el.type === 'checkbox' ? 'on' : el.value; })()`, tc.testid, tc.value))
				c.mustPost(c.api(fmt.Sprintf("/kanban_items/%d/move_to_stage", acme)), map[string]any{"funnel_stage": tc.stage})
				d.wait("the live change handled", `window.__seen && (!window.__started || window.__swaps > 0)`)
				got := b.eval(tab, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%s]');
					return el.type === 'checkbox' ? (el.checked ? 'on' : 'off') : el.value; })()`, tc.testid))
				if got != chose {
					t.Errorf("after another viewer's change %s holds %v, want the choice %v (redrawn: %v)", tc.testid, got, chose, b.eval(tab, `window.__swaps`))
				}
			})
		}
	})
}
