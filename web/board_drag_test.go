package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleBoardKeyboardAndTouchDrag: a card is picked up with Space,
// carried with the arrow keys and dropped, each step announced; Escape puts
// it back; a drop the server refuses is rolled back with a message; a touch
// drag by the card's grip moves it too. The second viewer follows.
func TestConsoleBoardKeyboardAndTouchDrag(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		boardURL := c.base + c.app(fmt.Sprintf("/funnels/%d/board", p.funnel))
		live := `document.getElementById('board') && document.getElementById('board').dataset.live === 'open'`
		b.goTo(tab, boardURL, "the board", live)
		other := b.open(boardURL)
		b.waitTrue(other, "the second viewer", live)
		d := drawerDriver{b: b, tab: tab, t: t}
		key := func(id int, k string) {
			t.Helper()
			b.eval(tab, fmt.Sprintf(`(() => { const card = document.querySelector('[data-testid="card-%d"]'); card.focus();
				card.dispatchEvent(new KeyboardEvent('keydown', {key: %q, bubbles: true, cancelable: true})); return true; })()`, id, k))
		}
		announced := func(want string) {
			t.Helper()
			d.wait("the announcement "+want, fmt.Sprintf(`document.querySelector('[data-testid=board-announce]').textContent.includes(%q)`, want))
		}
		firstIn := func(slug string) string {
			return fmt.Sprintf(`(document.querySelector('[data-testid=stage-%s] .kcard') || {dataset: {}}).dataset.card`, slug)
		}

		globex := p.cards["Globex pilot"]
		key(globex, " ")
		announced("Picked up Globex pilot: Lead, position 2 of 3")
		key(globex, "ArrowRight")
		key(globex, "ArrowRight")
		announced("Globex pilot: Proposal, position 2 of 2")
		key(globex, "ArrowUp")
		announced("Globex pilot: Proposal, position 1 of 2")
		b.shootWidths(t, tab, "board-carrying")
		key(globex, " ")
		announced("Dropped Globex pilot: Proposal, position 1 of 2.")
		for _, viewer := range []string{tab, other} {
			b.waitTrue(viewer, "Globex first in Proposal", firstIn("proposal")+fmt.Sprintf(` === '%d'`, globex))
		}
		if got := b.eval(tab, `document.activeElement.dataset.card`); got != fmt.Sprint(globex) {
			t.Errorf("after the drop the focus is on %v, not on the card", got)
		}
		_, frag := c.page(c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", p.funnel)), c.cookie)
		if prop := column(frag, "proposal"); strings.Index(prop, fmt.Sprintf(`data-card="%d"`, globex)) > strings.Index(prop, fmt.Sprintf(`data-card="%d"`, p.cards["Hooli upgrade"])) {
			t.Errorf("the server does not hold Globex before Hooli in Proposal")
		}

		initech := p.cards["Initech seats"]
		key(initech, " ")
		key(initech, "ArrowRight")
		key(initech, "Escape")
		announced("Move cancelled: Initech seats is back at Lead")
		d.wait("Initech back in Lead", cardIn(initech, "lead"))

		// Refused: the card is deleted (through the API) while carried.
		umbrella := p.cards["Umbrella audit"]
		key(umbrella, " ")
		key(umbrella, "ArrowRight")
		c.deleteAPI(c.api(fmt.Sprintf("/kanban_items/%d", umbrella)))
		key(umbrella, " ")
		d.wait("the refusal shown", `(() => { const m = document.querySelector('[data-testid=board-message]'); return !m.hidden && m.textContent.startsWith('The card was put back'); })()`)
		announced("The move of Umbrella audit was refused")
		d.wait("the deleted card gone", fmt.Sprintf(`document.querySelector('[data-testid="card-%d"]') === null`, umbrella))
		b.shoot(t, tab, "board-refused-1400")

		// Touch: Stark dragged by its grip onto Closed.
		stark := p.cards["Stark expansion"]
		b.eval(tab, fmt.Sprintf(`(() => {
			const grip = document.querySelector('[data-testid="card-%d"] [data-grip]');
			const from = grip.getBoundingClientRect();
			const to = document.querySelector('[data-testid=stage-closed] .column-head').getBoundingClientRect();
			const at = (x, y) => ({bubbles: true, cancelable: true, pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y});
			grip.dispatchEvent(new PointerEvent('pointerdown', at(from.x + 2, from.y + 2)));
			window.dispatchEvent(new PointerEvent('pointermove', at(to.x + 20, to.y + 10)));
			window.dispatchEvent(new PointerEvent('pointerup', at(to.x + 20, to.y + 10)));
			return true; })()`, stark))
		for _, viewer := range []string{tab, other} {
			b.waitTrue(viewer, "Stark first in Closed", firstIn("closed")+fmt.Sprintf(` === '%d'`, stark))
		}
	})
}

// deleteAPI sends a DELETE with the API token.
func (c *console) deleteAPI(path string) {
	c.t.Helper()
	req, _ := http.NewRequest("DELETE", c.base+path, nil)
	req.Header.Set("api_access_token", c.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusNoContent {
		c.t.Fatalf("DELETE %s: %d", path, res.StatusCode)
	}
}
