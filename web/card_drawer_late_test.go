package web_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleDrawerAnswerKeepsWhatWasTypedSince: the drawer the server
// answers a sent form with replaces the open one, and an answer can come
// after the agent went on typing in it. What they typed since, in another
// form or in the one they sent, stays in the new drawer; what was sent and
// not touched again is cleared as the answer has it.
func TestConsoleDrawerAnswerKeepsWhatWasTypedSince(t *testing.T) {
	cases := []struct {
		name string
		// typed is what the agent types while the answer is held, by
		// data-testid.
		typed map[string]string
		// want is what the fields hold once the answer is shown.
		want map[string]string
	}{
		{name: "nothing typed since: the sent note's field is cleared",
			typed: map[string]string{},
			want:  map[string]string{"note-text": "", "checklist-text": ""}},
		{name: "a checklist item typed since stays",
			typed: map[string]string{"checklist-text": "Call back"},
			want:  map[string]string{"note-text": "", "checklist-text": "Call back"}},
		{name: "the next note typed into the sent form stays",
			typed: map[string]string{"note-text": "Then a second note", "checklist-text": "Send the contract"},
			want:  map[string]string{"note-text": "Then a second note", "checklist-text": "Send the contract"}},
		{name: "a priority chosen since stays",
			typed: map[string]string{"field-priority": "low"},
			want:  map[string]string{"note-text": "", "field-priority": "low"}},
	}
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c, p, b, tab := pipelineInBrowser(t, e)
		acme := p.cards["Acme renewal"]
		d := drawerDriver{b: b, tab: tab, t: t}
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				d.t = t
				b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/board?card=%d", p.funnel, acme)), "the card's drawer",
					fmt.Sprintf(`document.querySelector('[data-testid=drawer-card][data-card="%d"]') && !document.getElementById('drawer').hidden`, acme))
				note := fmt.Sprintf("Note %d, sent", i+1)
				// Held, typed and sent in one step: a drawer (or a page)
				// replaced in between took the hold or the typed note with it
				// on a loaded CI machine.
				// The page's deferred scripts must have run: before drawer.js
				// binds the drawer's submit, a click posts the form natively,
				// and the page it loads drops the hold (seen in CI runs).
				d.wait("the note-add control", `document.readyState === 'complete' && document.querySelector('[data-testid=note-text]') && document.querySelector('[data-testid=note-add]')`)
				b.eval(tab, holdPostAnswers+fmt.Sprintf(`(() => { const el = document.querySelector('[data-testid=note-text]'); el.value = %q;
					el.dispatchEvent(new Event('input', {bubbles: true})); document.querySelector('[data-testid=note-add]').click(); return true; })()`, note))
				b.waitTrue(tab, "the note sent and its answer held", `window.__held && window.__held.length === 1`)
				for testid, v := range tc.typed {
					d.fill(testid, v)
				}
				b.eval(tab, `window.__release(); true`)
				d.wait("the sent note in the drawer the server answered", fmt.Sprintf(
					`[...document.querySelectorAll('[data-testid=note]')].some((n) => n.textContent.includes(%q))`, note))
				for testid, want := range tc.want {
					if got := b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid=%s]').value`, testid)); got != want {
						t.Errorf("%s holds %q, want %q", testid, got, want)
					}
				}
			})
		}
	})
}

// holdPostAnswers, evaluated in a tab, makes its POST answers wait until
// window.__release() (window.__held lists them), as a slow server would.
const holdPostAnswers = `(() => {
	const real = window.fetch;
	window.__held = [];
	window.fetch = (url, opts) => {
		const answer = real(url, opts);
		if (!opts || opts.method !== 'POST') return answer;
		return new Promise((resolve) => window.__held.push(() => resolve(answer)));
	};
	window.__release = () => { window.fetch = real; window.__held.splice(0).forEach((go) => go()); };
})();`
