package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleBoardFiltersAndBulk: the board's filter lives in the URL and
// its columns count and total only the matching cards; cards ticked (or
// shift-clicked) are moved, given a priority, assigned and deleted in one
// action each, and a second viewer follows.
func TestConsoleBoardFiltersAndBulk(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		grace := idOf(c.mustPost(c.api("/agents"), map[string]any{"name": "Grace Hopper", "email": "grace@acme.test", "role": "agent"}), "id")
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.setWidth(tab, 1400)
		boardURL := c.base + c.app(fmt.Sprintf("/funnels/%d/board", p.funnel))
		live := `document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`
		d := drawerDriver{b: b, tab: tab, t: t}

		// Filtering through the form puts the filter in the URL.
		b.goTo(tab, boardURL, "the board", live)
		d.fill("filter-agent", "unassigned")
		d.click("filter-apply")
		d.wait("the unassigned cards", `location.search === '?agent=unassigned&priority=&status=&value_min=&value_max=&q=' && document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`)
		for _, ck := range []struct{ what, js, want string }{
			{"Lead without Acme", `document.querySelector('[data-testid=stage-lead] [data-testid=column-count]').textContent`, "2"},
			{"Lead's total without Acme", `document.querySelector('[data-testid=stage-lead] [data-testid=column-total]').textContent.trim()`, "€\u00a012,500.50 · $\u00a01,800"},
			{"Acme hidden", fmt.Sprintf(`String(document.querySelector('[data-testid="card-%d"]'))`, p.cards["Acme renewal"]), "null"},
		} {
			if got := b.eval(tab, ck.js); got != ck.want {
				t.Errorf("%s: got %q, want %q", ck.what, got, ck.want)
			}
		}
		b.shootWidths(t, tab, "board-filtered")
		for _, ck := range []struct {
			query string
			want  []string
		}{
			{fmt.Sprintf("agent=%d", c.user), []string{"Acme renewal"}},
			{"priority=urgent&q=stark", []string{"Stark expansion"}},
			{"status=won", []string{"Wayne deal"}},
			{"q=alice", []string{"Acme renewal"}},
			{"value_min=10000&value_max=50000", []string{"Globex pilot", "Umbrella audit"}},
			{"value_min=98000", []string{"Stark expansion", "Wayne deal"}},
			{"value_max=1800", []string{"Initech seats", "Hooli upgrade"}},
		} {
			b.goTo(tab, boardURL+"?"+ck.query, "the filtered board "+ck.query, live)
			got := b.eval(tab, `[...document.querySelectorAll('[data-testid=card-title]')].map(e => e.textContent).join(',')`)
			if got != strings.Join(ck.want, ",") {
				t.Errorf("?%s shows %v, want %v", ck.query, got, ck.want)
			}
		}

		// The value range through the form, typed as people type amounts;
		// the columns count and total what it lets through.
		b.goTo(tab, boardURL, "the whole board", live)
		d.fill("filter-value-min", "3200")
		d.fill("filter-value-max", "12500,50")
		d.click("filter-apply")
		d.wait("the cards worth 3,200 to 12,500.50", `location.search.includes('value_min=3200&value_max=12500%2C50') && document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`)
		for what, ck := range map[string][2]string{
			"the titles":      {`[...document.querySelectorAll('[data-testid=card-title]')].map(e => e.textContent).join(',')`, "Acme renewal,Globex pilot,Tyrell trial"},
			"Lead's count":    {`document.querySelector('[data-testid=stage-lead] [data-testid=column-count]').textContent`, "2"},
			"Lead's total":    {`document.querySelector('[data-testid=stage-lead] [data-testid=column-total]').textContent.trim()`, "€\u00a019,895.50"},
			"the kept inputs": {`document.querySelector('[data-testid=filter-value-min]').value + '/' + document.querySelector('[data-testid=filter-value-max]').value`, "3200/12500,50"},
		} {
			if got := b.eval(tab, ck[0]); got != ck[1] {
				t.Errorf("value range: %s: got %q, want %q", what, got, ck[1])
			}
		}
		b.shootWidths(t, tab, "board-value-range")
		if st, body := c.page(c.app(fmt.Sprintf("/funnels/%d/board?value_min=lots", p.funnel)), c.cookie); st != http.StatusUnprocessableEntity || !strings.Contains(body, "value_min must be a number") {
			t.Errorf("a value range that is no number answered %d %s", st, body)
		}
		if st, body := c.page(c.app(fmt.Sprintf("/funnels/%d/board?value_min=10&value_max=5", p.funnel)), c.cookie); st != http.StatusUnprocessableEntity || !strings.Contains(body, "value_min must not exceed value_max") {
			t.Errorf("an upside-down value range answered %d %s", st, body)
		}

		// Bulk: three Lead cards, one of them shift-clicked.
		b.goTo(tab, boardURL, "the whole board", live)
		other := b.open(boardURL)
		b.waitTrue(other, "the second viewer", live)
		lead := []int{p.cards["Acme renewal"], p.cards["Globex pilot"], p.cards["Initech seats"]}
		d.clickJS(fmt.Sprintf(`document.querySelector('[data-testid="card-%d"] [data-testid=card-pick]')`, lead[0]))
		d.clickJS(fmt.Sprintf(`document.querySelector('[data-testid="card-%d"] [data-testid=card-pick]')`, lead[1]))
		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid="card-%d"] [data-testid=card-title]').dispatchEvent(new MouseEvent('click', {bubbles: true, shiftKey: true})); true`, lead[2]))
		d.wait("three cards selected", `!document.getElementById('bulk').hidden && document.querySelector('[data-testid=bulk-count]').textContent === '3 cards selected'`)
		if got := b.eval(tab, `document.getElementById('drawer').hidden`); got != true {
			t.Errorf("a shift-click opened the drawer")
		}
		b.shootWidths(t, tab, "board-bulk")
		d.fill("bulk-stage", "proposal")
		d.click("bulk-move")
		for _, viewer := range []string{tab, other} {
			b.waitTrue(viewer, "the three cards in Proposal", cardIn(lead[0], "proposal")+" && "+cardIn(lead[1], "proposal")+" && "+cardIn(lead[2], "proposal"))
		}
		d.wait("the selection cleared", `document.getElementById('bulk').hidden`)

		for _, id := range lead[:2] {
			d.clickJS(fmt.Sprintf(`document.querySelector('[data-testid="card-%d"] [data-testid=card-pick]')`, id))
		}
		d.fill("bulk-priority", "urgent")
		d.click("bulk-set-priority")
		b.waitTrue(other, "both urgent", card(lead[0], "card-priority")+` === 'Urgent' && `+card(lead[1], "card-priority")+` === 'Urgent'`)
		for _, id := range lead[:2] {
			d.clickJS(fmt.Sprintf(`document.querySelector('[data-testid="card-%d"] [data-testid=card-pick]')`, id))
		}
		d.fill("bulk-agent", fmt.Sprint(grace))
		d.click("bulk-assign")
		b.waitTrue(other, "Grace on both", fmt.Sprintf(`[%d, %d].every(id => [...document.querySelectorAll('[data-testid="card-' + id + '"] [data-testid=card-assignee]')].some(a => a.title === 'Grace Hopper'))`, lead[0], lead[1]))
		for _, id := range lead[1:] {
			d.clickJS(fmt.Sprintf(`document.querySelector('[data-testid="card-%d"] [data-testid=card-pick]')`, id))
		}
		b.eval(tab, `window.confirm = () => true; true`)
		d.click("bulk-delete")
		for _, viewer := range []string{tab, other} {
			b.waitTrue(viewer, "the two deleted cards gone", fmt.Sprintf(`!document.querySelector('[data-testid="card-%d"]') && !document.querySelector('[data-testid="card-%d"]') && %s`,
				lead[1], lead[2], cardIn(lead[0], "proposal")))
		}
	})
}

// TestConsoleBulkIsAllOrNothing: a bulk action naming one unknown card, an
// unknown stage or action changes none of the cards.
func TestConsoleBulkIsAllOrNothing(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		a, g := fmt.Sprint(p.cards["Acme renewal"]), fmt.Sprint(p.cards["Globex pilot"])
		bulk, none := c.app("/kanban_items/bulk"), []events.Kind{}
		c.run(t, []consoleCase{
			{name: "one unknown card", path: bulk, form: url.Values{"ids": {a, g, "999999"}, "action": {"move"}, "stage": {"closed"}}, status: http.StatusUnprocessableEntity, body: errorAbout("[999999] do not exist"), events: none},
			{name: "an unknown stage", path: bulk, form: url.Values{"ids": {a, g}, "action": {"move"}, "stage": {"nowhere"}}, status: http.StatusUnprocessableEntity, body: errorAbout("nowhere"), events: none},
			{name: "an unknown action", path: bulk, form: url.Values{"ids": {a, g}, "action": {"archive"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Action must be"), events: none},
			{name: "no cards", path: bulk, form: url.Values{"action": {"move"}, "stage": {"closed"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Item ids can't be blank"), events: none},
			{name: "an id that is no number", path: bulk, form: url.Values{"ids": {a, "x"}, "action": {"delete"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Item ids must be"), events: none},
			{name: "an unknown priority", path: bulk, form: url.Values{"ids": {a, g}, "action": {"priority"}, "priority": {"asap"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Priority must be"), events: none},
			{name: "an unknown agent", path: bulk, form: url.Values{"ids": {a, g}, "action": {"assign"}, "agent_id": {"999999"}}, status: http.StatusUnprocessableEntity, body: errorAbout(""), events: none},
			{name: "deleting with an unknown card", path: bulk, form: url.Values{"ids": {a, "999999"}, "action": {"delete"}}, status: http.StatusUnprocessableEntity, body: errorAbout("[999999] do not exist"), events: none},
			{name: "another origin", path: bulk, form: url.Values{"ids": {a}, "action": {"delete"}}, origin: "http://evil.example", status: http.StatusForbidden, body: errorAbout("Cross-origin"), events: none},
		})
		_, page := c.page(c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", p.funnel)), c.cookie)
		if strings.Count(page, `data-card="`) != len(p.cards) || !strings.Contains(column(page, "lead"), `data-card="`+a+`"`) ||
			!strings.Contains(column(page, "lead"), `data-card="`+g+`"`) {
			t.Errorf("a refused bulk action changed the board")
		}
	})
}
