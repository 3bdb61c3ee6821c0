package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleBoardLayout: a five-stage board at 1400 px shows every column
// without scrolling, each header with its count and value total, and card
// faces with formatted values, distinct priority badges, status colours,
// assignee initials, checklist progress and the contact; at 390 px no page
// is wider than the window, and sign-out is readable at both.
func TestConsoleBoardLayout(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/board", p.funnel)), "the board", `document.querySelector('[data-testid=stage-closed]')`)

		if off := b.eval(tab, `(() => {
			const board = document.getElementById('board').getBoundingClientRect();
			return [...document.querySelectorAll('.column')].filter(c => c.getBoundingClientRect().right > board.right + 0.5).length;
		})()`); off != 0.0 {
			t.Errorf("at 1400 px %v columns are cut off", off)
		}
		text := func(js string) any { return b.eval(tab, js) }
		checks := []struct {
			what, js string
			want     any
		}{
			{"Lead's count", `document.querySelector('[data-testid=stage-lead] [data-testid=column-count]').textContent.trim()`, "3"},
			{"Lead's totals, per currency", `document.querySelector('[data-testid=stage-lead] [data-testid=column-total]').textContent.trim()`, "€\u00a019,895.50 · $\u00a01,800"},
			{"an empty-valued column's total", `document.querySelector('[data-testid=stage-proposal] [data-testid=column-total]').textContent.trim()`, "—"},
			{"a card's value", card(p.cards["Acme renewal"], "card-value"), "€ 7,395"},
			{"a card's priority", card(p.cards["Acme renewal"], "card-priority"), "Urgent"},
			{"no badge for no priority", `document.querySelector('[data-testid=card-` + fmt.Sprint(p.cards["Hooli upgrade"]) + `] [data-testid=card-priority]') === null`, true},
			{"the assignee's initials", card(p.cards["Acme renewal"], "card-assignee] [aria-hidden"), "A"},
			{"the assignee's name", fmt.Sprintf(`document.querySelector('[data-testid="card-%d"] [data-testid=card-assignee]').title`, p.cards["Acme renewal"]), "Ada"},
			{"the checklist progress", card(p.cards["Acme renewal"], "card-checklist"), "✓ 1/2"},
			{"the contact", card(p.cards["Acme renewal"], "card-contact"), "Contact: Alice Buyer"},
			{"the won status", card(p.cards["Wayne deal"], "card-status"), "Won"},
			{"the lost status", card(p.cards["Tyrell trial"], "card-status"), "Lost"},
			{"priority badges differ", fmt.Sprintf(`new Set(%s.map(id => getComputedStyle(document.querySelector('[data-testid=card-' + id + '] [data-testid=card-priority]')).backgroundColor)).size`,
				jsInts(p.cards["Initech seats"], p.cards["Umbrella audit"], p.cards["Globex pilot"], p.cards["Acme renewal"])), 4.0},
			{"won and lost cards differ from open ones", fmt.Sprintf(`new Set(%s.map(id => getComputedStyle(document.querySelector('[data-testid=card-' + id + ']')).backgroundColor)).size`,
				jsInts(p.cards["Wayne deal"], p.cards["Tyrell trial"], p.cards["Hooli upgrade"])), 3.0},
		}
		for _, ck := range checks {
			if got := text(ck.js); got != ck.want {
				t.Errorf("%s: got %q, want %q", ck.what, got, ck.want)
			}
		}
		b.shootWidths(t, tab, "board")
		b.setWidth(tab, 390)
		if got := b.eval(tab, `(() => { const s = getComputedStyle(document.querySelector('[data-testid=logout]'));
			return s.color !== s.backgroundColor && s.visibility === 'visible' && document.querySelector('[data-testid=logout]').getBoundingClientRect().right <= innerWidth; })()`); got != true {
			t.Errorf("at 390 px the sign-out button is not readable on screen")
		}
		b.setWidth(tab, 1400)
		b.goTo(tab, c.base+c.app("/funnels"), "the boards list", `document.querySelector('[data-testid=funnel-link]')`)
		b.shootWidths(t, tab, "boards")
		b.goTo(tab, c.base+c.app("/contacts"), "the contacts", `document.querySelector('[data-testid=contacts-table]')`)
		b.shootWidths(t, tab, "contacts")
		b.goTo(tab, c.base+c.app("/schedules"), "the calendar", `document.querySelector('[data-testid=calendar]')`)
		b.shootWidths(t, tab, "schedules")
	})
}

// card is a script reading the text of part of a card's face.
func card(id int, part string) string {
	return fmt.Sprintf(`(document.querySelector('[data-testid="card-%d"] [data-testid=%s]') || {textContent: 'missing'}).textContent.replace(/\s+/g, ' ').trim()`, id, part)
}

// jsInts is a JavaScript array of ids.
func jsInts(ids ...int) string {
	s := "["
	for i, id := range ids {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprint(id)
	}
	return s + "]"
}
