package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestTouchDragReachesStagesOffScreenInChromium: on a 390 px phone, whose
// columns snap one by one, a card dragged by its grip to the window's right
// edge scrolls the columns across to the last stage and is dropped there:
// the snapping is off while the card is carried, and back after.
func TestTouchDragReachesStagesOffScreenInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		b.setWidth(tab, 390)
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/board", p.funnel)), "the board",
			`document.getElementById('board').dataset.live === 'open'`)
		b.call(tab, "Page.bringToFront", map[string]any{}, nil) // animation frames run in the tab in front
		acme := p.cards["Acme renewal"]
		// Pointer events step by step, a frame apart, as a finger sends
		// them: the snapping acts between them.
		reached := b.eval(tab, fmt.Sprintf(`(async () => {
			const strip = document.querySelector('#board .columns');
			const grip = document.querySelector('[data-testid="card-%d"] [data-grip]');
			const from = grip.getBoundingClientRect();
			const at = (x, y) => ({bubbles: true, cancelable: true, pointerId: 9, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y});
			const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
			grip.dispatchEvent(new PointerEvent('pointerdown', at(from.x + 2, from.y + 2)));
			const edge = window.innerWidth - 10, y = from.y + 40;
			for (let i = 0; i < 200 && strip.scrollLeft + strip.clientWidth < strip.scrollWidth - 1; i++) {
				window.dispatchEvent(new PointerEvent('pointermove', at(edge, y)));
				await frame();
			}
			const end = strip.scrollLeft + strip.clientWidth >= strip.scrollWidth - 1;
			const head = document.querySelector('[data-testid=stage-closed] .column-head').getBoundingClientRect();
			window.dispatchEvent(new PointerEvent('pointermove', at(head.x + 20, head.y + 10)));
			window.dispatchEvent(new PointerEvent('pointerup', at(head.x + 20, head.y + 10)));
			return end;
		})()`, acme))
		if reached != true {
			t.Fatal("the columns did not scroll to the last stage while the card was dragged")
		}
		b.waitTrue(tab, "Acme in Closed", cardIn(acme, "closed"))
		b.waitTrue(tab, "the columns snapping again after the drop",
			`getComputedStyle(document.querySelector('#board .columns')).scrollSnapType === 'x mandatory'`)
	})
}
