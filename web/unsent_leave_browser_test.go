package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// askedConfirm stands in for the browser's confirm: it counts the
// questions in window.__asked and answers window.__answer (no, at first).
const askedConfirm = `window.__asked = 0; window.__answer = false;
	window.confirm = () => { window.__asked++; return window.__answer; }; true`

// TestDrawersAskBeforeDroppingUnsentChanges: a drawer (a card's on the
// board, a new schedule's on the calendar) holding something typed and not
// sent asks before it closes (its ✕, Escape, the back button) or another
// is drawn in its place. Kept, the drawer and the text stay; let go, it
// closes. With nothing typed it closes without asking.
func TestDrawersAskBeforeDroppingUnsentChanges(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		d := drawerDriver{b: b, tab: tab, t: t}
		acme, globex := p.cards["Acme renewal"], p.cards["Globex pilot"]
		escape := `document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true})); true`
		openAcme := fmt.Sprintf(`document.querySelector('[data-testid=drawer-card][data-card="%d"]') && !document.getElementById('drawer').hidden`, acme)
		asked := func(n int, what string) {
			t.Helper()
			if got := b.eval(tab, `window.__asked`); got != float64(n) {
				t.Errorf("%s: asked %v times, want %d", what, got, n)
			}
		}
		kept := func(what string) {
			t.Helper()
			d.wait(what+": the drawer kept, with the note typed", openAcme+` && document.querySelector('[data-testid=note-text]').value === 'Call back Monday'`)
		}

		b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/board", p.funnel)), "the board",
			`document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`)
		b.eval(tab, askedConfirm)
		d.clickJS(fmt.Sprintf(`document.querySelector('.kcard[data-card="%d"]')`, acme))
		d.wait("the card's drawer", openAcme)
		b.eval(tab, escape)
		d.wait("the untouched drawer closed by Escape", `document.getElementById('drawer').hidden`)
		asked(0, "closing an untouched drawer")

		d.clickJS(fmt.Sprintf(`document.querySelector('.kcard[data-card="%d"]')`, acme))
		d.wait("the card's drawer again", openAcme+fmt.Sprintf(` && location.search === '?card=%d'`, acme))
		d.fill("note-text", "Call back Monday")
		b.eval(tab, escape)
		kept("Escape")
		asked(1, "Escape")
		d.click("drawer-close")
		kept("the ✕")
		asked(2, "the ✕")
		d.clickJS(fmt.Sprintf(`document.querySelector('.kcard[data-card="%d"]')`, globex))
		kept("another card clicked")
		asked(3, "another card")
		b.eval(tab, `history.back(); true`)
		d.wait("the back button asked", `window.__asked === 4`)
		kept("the back button")
		if got := b.eval(tab, `location.search`); got != fmt.Sprintf("?card=%d", acme) {
			t.Errorf("kept by the back button, the address is %v, want the card's", got)
		}
		b.eval(tab, `window.__answer = true; true`)
		b.eval(tab, escape)
		d.wait("the drawer let go", `document.getElementById('drawer').hidden && window.__asked === 5`)

		b.goTo(tab, c.base+c.app("/schedules"), "the calendar", `document.querySelector('[data-new]')`)
		b.eval(tab, askedConfirm)
		d.clickJS(`document.querySelector('[data-new]')`)
		d.fill("f-content", "Your order has shipped")
		d.click("drawer-close")
		d.wait("the new schedule kept", `!document.getElementById('drawer').hidden && window.__asked === 1 &&
			document.querySelector('[data-testid=f-content]').value === 'Your order has shipped'`)
		d.clickJS(`document.querySelectorAll('[data-new]')[1]`)
		d.wait("another day's new schedule not drawn over it", `window.__asked === 2 &&
			document.querySelector('[data-testid=f-content]').value === 'Your order has shipped'`)
		b.eval(tab, `window.__answer = true; true`)
		b.eval(tab, escape)
		d.wait("the new schedule let go", `document.getElementById('drawer').hidden && window.__asked === 3`)
	})
}
