package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleBoardsScreen: the boards list shows each board's open cards
// and their value; an administrator creates a board with its stages,
// renames one and deletes one; a refused change is shown and changes
// nothing.
func TestConsoleBoardsScreen(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		d := drawerDriver{b: b, tab: tab, t: t}
		list := c.base + c.app("/funnels")
		b.goTo(tab, list, "the boards", `document.querySelector('[data-testid=funnel-link]')`)
		row := fmt.Sprintf(`document.querySelector('[data-testid=funnel-%d] [data-testid=%%s]').textContent.replace(/\s+/g, ' ').trim()`, p.funnel)
		for part, want := range map[string]string{"funnel-open": "6 cards open", "funnel-value": "€ 314,895.50 · $ 1,800"} {
			if got := b.eval(tab, fmt.Sprintf(row, part)); got != want {
				t.Errorf("%s: got %q, want %q", part, got, want)
			}
		}
		b.shootWidths(t, tab, "boards-list")

		d.fill("new-board-name", "Partners")
		d.fill("new-board-stages", "Intro\n\n  Pilot \nSigned")
		d.click("new-board-create")
		d.wait("the new board", `document.getElementById('board') && [...document.querySelectorAll('.column h2')].map(h => h.textContent).join(',') === 'Intro,Pilot,Signed'`)

		b.goTo(tab, list, "the boards again", `document.querySelectorAll('[data-testid=funnel-link]').length === 2`)
		d.fill("new-board-name", "Partners")
		d.click("new-board-create")
		d.wait("the refused duplicate", `!document.querySelector('[data-testid=boards-error]').hidden`)
		if n := b.eval(tab, `document.querySelectorAll('[data-testid=funnel-link]').length`); n != 2.0 {
			t.Errorf("after a refused create the list has %v boards", n)
		}

		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid=funnel-%d] details').open = true; true`, p.funnel))
		d.clickJS(fmt.Sprintf(`document.querySelector('[data-testid=funnel-%d] [data-testid=funnel-name]')`, p.funnel))
		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid=funnel-%d] [data-testid=funnel-name]').value = 'Sales 2027'; true`, p.funnel))
		d.clickJS(fmt.Sprintf(`document.querySelector('[data-testid=funnel-%d] [data-testid=funnel-rename]')`, p.funnel))
		d.wait("the renamed board", `[...document.querySelectorAll('[data-testid=funnel-link]')].some(a => a.textContent === 'Sales 2027')`)

		b.eval(tab, `window.confirm = () => true; true`)
		d.clickJS(`[...document.querySelectorAll('[data-testid=funnel-link]')].find(a => a.textContent === 'Partners').closest('li').querySelector('[data-testid=funnel-delete]')`)
		d.wait("the deleted board gone", `[...document.querySelectorAll('[data-testid=funnel-link]')].map(a => a.textContent).join(',') === 'Sales 2027'`)
	})
}
