package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// holdFirstDrawerRead makes the page's first read of a drawer (a live
// change's) read at once but answer only when window.releaseRead() is
// called, counting the drawer reads answered in window.drawerReads.
const holdFirstDrawerRead = `(() => {
	const read = consoleSession.fetch;
	let held = false;
	window.drawerReads = 0;
	consoleSession.fetch = async (url, opts) => {
		const res = await read(url, opts);
		if (!String(url).endsWith('/drawer')) return res;
		if (!held) {
			held = true;
			const body = await res.text();
			await new Promise((r) => { window.releaseRead = r; });
			window.drawerReads++;
			return new Response(body, {status: res.status, headers: res.headers});
		}
		window.drawerReads++;
		return res;
	};
	return true;
})()`

// TestLiveReadDoesNotUndoAnAnswer: a live change's read of the drawer that
// answers after a form's answer was drawn (read before it) does not draw
// the older drawer over it: a checklist item just added stayed gone, since
// checklist changes announce no live change that would redraw it.
func TestLiveReadDoesNotUndoAnAnswer(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		acme := p.cards["Acme renewal"]
		d := drawerDriver{b: b, tab: tab, t: t}
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/board?card=%d", p.funnel, acme)), "the card's drawer",
			fmt.Sprintf(`document.querySelector('[data-testid=drawer-card][data-card="%d"]') && document.getElementById('board').dataset.live === 'open'`, acme))
		b.eval(tab, holdFirstDrawerRead)
		b.eval(tab, fmt.Sprintf(`document.dispatchEvent(new CustomEvent('board:change', {detail: {item_id: %d, kind: 'updated'}})); true`, acme))
		d.wait("the live read held", `typeof window.releaseRead === 'function'`)
		d.fill("checklist-text", "Call back")
		d.click("checklist-add")
		item := `document.querySelector('[data-testid=drawer-checklist] [aria-label="Call back"]')`
		d.wait("the new checklist item", item)
		b.eval(tab, `window.releaseRead(); true`)
		d.wait("the held read answered and drawn, or read again", `!`+item+` || window.drawerReads >= 2`)
		if b.eval(tab, `!!`+item) != true {
			t.Fatal("the live read drew the drawer from before the item over the answer")
		}
	})
}
