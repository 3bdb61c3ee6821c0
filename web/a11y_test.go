package web_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// The accessibility check: testdata/a11y_audit.js (our own checks of
// landmarks, headings, names, references, keyboard reach and contrast) on
// every kanban screen at both widths, then the board and its drawer worked
// with real key presses: the focus walks the page in document order, always
// visible, and the drawer opens with Enter and closes with Escape, the focus
// going in and coming back.

// audit runs the audit script in the tab and returns its findings.
func (b *browser) audit(tab string) []string {
	b.t.Helper()
	script, err := os.ReadFile("testdata/a11y_audit.js")
	if err != nil {
		b.t.Fatal(err)
	}
	var out []string
	for _, p := range b.eval(tab, string(script)).([]any) {
		out = append(out, p.(string))
	}
	return out
}

// press sends a real key press (DevTools input, not a synthetic event), so
// the browser moves the focus as it would for a person.
func (b *browser) press(tab, key string, shift bool) {
	b.t.Helper()
	codes := map[string]int{"Tab": 9, "Enter": 13, "Escape": 27, " ": 32}
	ev := map[string]any{"key": key, "code": key, "windowsVirtualKeyCode": codes[key], "nativeVirtualKeyCode": codes[key]}
	if key == " " {
		ev["code"], ev["text"] = "Space", " "
	}
	if key == "Enter" {
		ev["text"] = "\r"
	}
	if shift {
		ev["modifiers"] = 8
	}
	down := map[string]any{"type": "keyDown"}
	up := map[string]any{"type": "keyUp"}
	for k, v := range ev {
		down[k], up[k] = v, v
	}
	b.call(tab, "Input.dispatchKeyEvent", down, nil)
	b.call(tab, "Input.dispatchKeyEvent", up, nil)
}

// focusStep is what the focus landed on after a Tab.
const focusStep = `(() => {
	const el = document.activeElement;
	if (!el || el === document.body) return {at: -1};
	const all = [...document.querySelectorAll('*')];
	const cs = getComputedStyle(el);
	const r = el.getBoundingClientRect();
	const ring = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== 'none';
	return {at: all.indexOf(el), what: el.tagName.toLowerCase() + (el.dataset.testid ? '[' + el.dataset.testid + ']' : '') + ' ' + (el.getAttribute('aria-label') || el.textContent.trim().slice(0, 25)),
		seen: r.width > 0 && r.height > 0, ring: ring};
})()`

// tabWalk presses Tab through the page (at most limit times, until the
// focus leaves it) and checks that each stop comes later in the document,
// is on screen size and shows a focus ring. It returns the stops.
func (b *browser) tabWalk(t *testing.T, tab, page string, limit int) []string {
	t.Helper()
	b.eval(tab, `document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); true`)
	var stops []string
	last := -1
	for i := 0; i < limit; i++ {
		b.press(tab, "Tab", false)
		step := b.eval(tab, focusStep).(map[string]any)
		at := int(step["at"].(float64))
		if at < 0 || (at <= last && len(stops) > 0) {
			break // out of the page, or round to its start again
		}
		what := step["what"].(string)
		if !step["seen"].(bool) {
			t.Errorf("%s: the focus is on %s, which is not shown", page, what)
		}
		if !step["ring"].(bool) {
			t.Errorf("%s: the focus on %s shows no focus ring", page, what)
		}
		last = at
		stops = append(stops, what)
	}
	return stops
}

func TestConsoleAccessibility(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		acme := p.cards["Acme renewal"]
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		board := c.base + c.app(fmt.Sprintf("/funnels/%d/board", p.funnel))
		live := `document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`
		pages := []struct{ name, url, ready string }{
			{"board", board, live},
			{"board with a card's drawer", board + fmt.Sprintf("?card=%d", acme), live + ` && !document.getElementById('drawer').hidden`},
			{"boards", c.base + c.app("/funnels"), `document.querySelector('[data-testid=funnel-link]')`},
			{"stages", c.base + c.app(fmt.Sprintf("/funnels/%d/stages", p.funnel)), `document.querySelector('[data-testid=stage-list]')`},
			{"reports", c.base + c.app("/reports"), `document.querySelector('[data-testid=chart-timeline]')`},
		}
		for _, w := range screenWidths {
			b.setWidth(tab, w)
			for _, pg := range pages {
				b.goTo(tab, pg.url, pg.name, pg.ready)
				if found := b.audit(tab); len(found) > 0 {
					t.Errorf("%s at %d px:\n\t%s", pg.name, w, strings.Join(found, "\n\t"))
				}
			}
		}

		// The board by keyboard: the focus walks it in document order and
		// reaches the cards; Enter on a card opens its drawer with the
		// focus in it, Escape closes it and gives the focus back.
		b.setWidth(tab, 1400)
		b.goTo(tab, board, "the board", live)
		stops := b.tabWalk(t, tab, "board", 150)
		reached := false
		for _, s := range stops {
			reached = reached || strings.HasPrefix(s, fmt.Sprintf("li[card-%d]", acme))
		}
		if !reached {
			t.Errorf("tabbing through the board never reaches the first card; stops: %v", stops)
		}
		t.Logf("the board's tab order: %d stops, all visible with a focus ring, in document order", len(stops))
		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid="card-%d"]').focus(); true`, acme))
		b.press(tab, "Enter", false)
		b.waitTrue(tab, "the drawer opened by Enter with the focus in it", fmt.Sprintf(`!document.getElementById('drawer').hidden && document.querySelector('[data-testid=drawer-card][data-card="%d"]') && document.getElementById('drawer').contains(document.activeElement)`, acme))
		b.shootWidths(t, tab, "a11y-drawer-by-keyboard")
		b.eval(tab, `document.querySelector('#drawer-title').focus(); true`)
		if found := b.audit(tab); len(found) > 0 {
			t.Errorf("the board with the drawer opened by keyboard:\n\t%s", strings.Join(found, "\n\t"))
		}
		b.press(tab, "Tab", false)
		if got := b.eval(tab, `document.activeElement.dataset.testid`); got != "drawer-close" {
			t.Errorf("Tab from the drawer's title goes to %v, not to its close button", got)
		}
		b.press(tab, "Escape", false)
		b.waitTrue(tab, "the drawer closed by Escape, the focus back on the card", fmt.Sprintf(`document.getElementById('drawer').hidden && document.activeElement.dataset.card === '%d'`, acme))
	})
}
