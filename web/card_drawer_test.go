package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleCardDrawer works a card from its drawer in a browser, as an
// agent would: open it with Enter (the URL names it), edit its fields,
// assign and unassign agents, tick the checklist, write and delete a note,
// mark it won and reopen it, read its stage history, follow its link, add
// a card from a column and delete it. A second viewer of the board sees
// every change live.
func TestConsoleCardDrawer(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		grace := idOf(c.mustPost(c.api("/agents"), map[string]any{"name": "Grace Hopper", "email": "grace@acme.test", "role": "agent"}), "id")
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.setWidth(tab, 1400)
		boardURL := c.base + c.app(fmt.Sprintf("/funnels/%d/board", p.funnel))
		b.goTo(tab, boardURL, "the board", `document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`)
		other := b.open(boardURL)
		b.waitTrue(other, "the second viewer following the board", `document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`)
		acme := p.cards["Acme renewal"]
		d := drawerDriver{b: b, tab: tab, t: t}

		b.eval(tab, fmt.Sprintf(`(() => { const card = document.querySelector('[data-testid="card-%d"]'); card.focus();
			card.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true})); return true; })()`, acme))
		d.wait("the drawer of the card", fmt.Sprintf(`document.querySelector('[data-testid=drawer-card][data-card="%d"]') && location.search === '?card=%d'`, acme, acme))
		b.shootWidths(t, tab, "drawer")

		d.fill("field-title", "Acme renewal 2027")
		d.fill("field-value", "8100,50")
		d.fill("field-priority", "high")
		d.click("save-card")
		for _, viewer := range []string{tab, other} {
			b.waitTrue(viewer, "the edited card on the board", fmt.Sprintf(`%s === 'Acme renewal 2027' && %s === '€ 8,100.50' && %s === 'High'`,
				card(acme, "card-title"), card(acme, "card-value"), card(acme, "card-priority")))
		}

		d.fill("assign-select", fmt.Sprint(grace))
		d.click("assign")
		d.wait("Grace on the card", `document.querySelector('[data-testid=drawer-agents]').textContent.includes('Grace Hopper')`)
		b.waitTrue(other, "two assignees on the other board", fmt.Sprintf(`document.querySelectorAll('[data-testid="card-%d"] [data-testid=card-assignee]').length === 2`, acme))
		d.clickJS(`document.querySelector('[aria-label="Unassign Ada"]')`)
		d.wait("Ada off the card", `!document.querySelector('[data-testid=drawer-agents]').textContent.includes('Ada')`)

		d.fill("checklist-text", "Call back")
		d.click("checklist-add")
		d.wait("the new checklist item", `document.querySelector('[data-testid=drawer-checklist]').textContent.includes('Call back')`)
		d.clickJS(`document.querySelector('[data-testid=drawer-checklist] [aria-label="Call back"]')`)
		d.wait("the item ticked", `document.querySelector('[data-testid=drawer-checklist] [aria-label="Call back"]').getAttribute('aria-checked') === 'true'`)
		d.clickJS(`document.querySelector('[data-testid=drawer-checklist] [aria-label="Delete Book demo"]')`)
		// Checklist changes announce no board event (the operations emit
		// none), so only this viewer's board, refreshed after each drawer
		// change, shows the progress at once.
		b.waitTrue(tab, "the checklist progress on the board", card(acme, "card-checklist")+` === '✓ 2/2'`)

		d.send("note-text", "Asked for a 10% discount", "note-add")
		d.wait("the note with its author and time", `(() => { const n = document.querySelector('[data-testid=note]');
			return n && n.textContent.includes('Asked for a 10% discount') && n.querySelector('.note-meta strong').textContent === 'Ada' && n.querySelector('time').dateTime !== ''; })()`)
		b.eval(tab, `window.confirm = () => true; true`)
		d.click("note-delete")
		d.wait("the note gone", `document.querySelectorAll('[data-testid=note]').length === 0`)

		d.click("mark-won")
		d.wait("the card won", `document.querySelector('[data-testid=drawer-status]').textContent === 'Won'`)
		b.waitTrue(other, "the won card on the other board", card(acme, "card-status")+` === 'Won'`)
		d.click("reopen")
		d.wait("the card open again", `document.querySelector('[data-testid=drawer-status]').textContent === 'Open'`)
		d.wait("the stage history", `document.querySelector('[data-testid=drawer-history] tbody tr td').textContent === 'Lead'`)

		// The answer to the reopen and the live refresh it causes may each
		// replace the drawer after the test saw it open, taking a typed value
		// (or a shown refusal) with it: the value is typed and sent, in one
		// step, whenever the drawer does not hold it.
		d.wait("the refusal", `(() => {
			const p = document.querySelector('[data-testid=drawer-error]');
			if (p && !p.hidden && p.textContent.includes('Value must be a number')) return true;
			const f = document.querySelector('[data-testid=field-value]');
			if (f && f.value !== 'lots') {
				f.value = 'lots';
				f.dispatchEvent(new Event('input', {bubbles: true}));
				document.querySelector('[data-testid=save-card]').click();
			}
			return false; })()`)
		if got := b.eval(tab, card(acme, "card-value")); got != "€ 8,100.50" {
			t.Errorf("a refused edit changed the card's value to %v", got)
		}

		// The card's link opens the board with its drawer.
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/board?card=%d", p.funnel, acme)), "the linked card's drawer",
			fmt.Sprintf(`document.querySelector('[data-testid=drawer-card][data-card="%d"]') && !document.getElementById('drawer').hidden`, acme))
		b.waitTrue(tab, "the board following changes", `document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`)
		b.eval(tab, `document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true})); true`)
		d.wait("the drawer closed", `document.getElementById('drawer').hidden && location.search === ''`)

		// A card added from a column, then deleted.
		d.clickJS(`document.querySelector('[data-testid=stage-qualified] [data-testid=add-card]')`)
		d.wait("the new card form", `document.querySelector('[data-testid=new-card-form]')`)
		if got := b.eval(tab, `document.querySelector('[data-testid=new-stage]').value`); got != "qualified" {
			t.Errorf("the form from Qualified's + proposes stage %v", got)
		}
		b.shootWidths(t, tab, "new-card")
		d.fill("new-title", "Soylent trial")
		d.fill("new-value", "2500")
		d.fill("new-currency", "eur")
		d.click("new-create")
		d.wait("the new card's drawer", `document.querySelector('[data-testid=drawer-card]') && document.getElementById('drawer-title').textContent === 'Soylent trial' && location.search.startsWith('?card=')`)
		newID := int(b.eval(tab, `Number(document.querySelector('[data-testid=drawer-card]').dataset.card)`).(float64))
		for _, viewer := range []string{tab, other} {
			b.waitTrue(viewer, "the new card in Qualified", cardIn(newID, "qualified")+" && "+card(newID, "card-value")+` === '€ 2,500'`)
		}
		b.eval(tab, `window.confirm = () => true; true`)
		d.click("delete-card")
		d.wait("the drawer closed after the delete", `document.getElementById('drawer').hidden`)
		for _, viewer := range []string{tab, other} {
			b.waitTrue(viewer, "the deleted card gone", fmt.Sprintf(`document.querySelector('[data-testid="card-%d"]') === null`, newID))
		}
	})
}

// drawerDriver fills and clicks the drawer's controls in one tab.
type drawerDriver struct {
	b   *browser
	tab string
	t   *testing.T
}

// wait waits for js, reporting what the drawer says if it never holds.
func (d drawerDriver) wait(what, js string) {
	d.t.Helper()
	failed := d.t.Failed()
	defer func() {
		if !failed && d.t.Failed() {
			d.t.Logf("the drawer said: %v", d.b.eval(d.tab, `(document.querySelector('[data-testid=drawer-error]') || {}).textContent || ''`))
		}
	}()
	d.b.waitTrue(d.tab, what, js)
}

// fill sets a control (by data-testid) as typing or choosing would.
func (d drawerDriver) fill(testid, value string) {
	d.t.Helper()
	d.wait("the "+testid+" control", fmt.Sprintf(`document.querySelector('[data-testid=%s]')`, testid))
	d.b.eval(d.tab, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%s]'); el.value = %q;
		el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, testid, value))
}

// send fills the control testid with value and clicks button in one step:
// a drawer replaced between the two (a late answer, a live refresh, both
// more likely on a loaded CI machine) took the typed value, or the button
// clicked, with it, and nothing was sent.
func (d drawerDriver) send(testid, value, button string) {
	d.t.Helper()
	d.wait("the "+testid+" control", fmt.Sprintf(`document.querySelector('[data-testid=%s]') && document.querySelector('[data-testid=%s]')`, testid, button))
	d.b.eval(d.tab, fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=%s]'); el.value = %q;
		el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true}));
		document.querySelector('[data-testid=%s]').click(); return true; })()`, testid, value, button))
}

func (d drawerDriver) click(testid string) {
	d.t.Helper()
	d.clickJS(fmt.Sprintf(`document.querySelector('[data-testid=%s]')`, testid))
}

// clickJS clicks the element the script finds, once it is there.
func (d drawerDriver) clickJS(find string) {
	d.t.Helper()
	d.wait("something to click: "+strings.TrimSpace(find), find)
	d.b.eval(d.tab, "("+find+").click(); true")
}
