package web_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestContactCreateAndMergeInChromium: a contact is created from the list
// (a refusal shown at its field first); a contact's page shows its
// conversation's last message, its scheduled message and its card, each
// linking to where it is managed; another contact, found with the picker's
// search, is merged into it.
func TestContactCreateAndMergeInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline() // Alice Buyer, her conversation and the Acme renewal card on it
		alice := idOf(payload(c, "/contacts")[0], "id")
		inbox := idOf(payload(c, "/inboxes")[0], "id")
		c.mustPost(c.api(fmt.Sprintf("/conversations/%d/messages", p.conv)), map[string]any{"content": "The renewal quote is attached"})
		at := time.Now().UTC().Add(72 * time.Hour).Truncate(time.Minute)
		sched := idOf(c.mustPost(c.api("/scheduled_messages"), map[string]any{"inbox_id": inbox, "contact_id": alice,
			"title": "Renewal reminder", "content": "Any news?", "scheduled_at": at.Format(time.RFC3339)}), "id")

		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.goTo(tab, c.base+c.app("/contacts"), "the contacts", `document.querySelector('[data-testid=contact-new]')`)
		b.eval(tab, `document.querySelector('[data-testid=contact-new]').click();
			document.querySelector('[data-testid=new-name]').value = 'Bo Brook';
			document.querySelector('[data-testid=new-email]').value = 'bo@brook.test';
			window.leaving = true; document.querySelector('[data-testid=new-save]').click(); true`)
		b.waitTrue(tab, "the refusal at the inbox", `!window.leaving && document.querySelector('[data-testid=error-inbox_id]')`)
		if got := b.eval(tab, `document.querySelector('[data-testid=new-name]').value`); got != "Bo Brook" {
			t.Errorf("the refused form kept the name %v", got)
		}
		b.shootWidths(t, tab, "contact-new-refused")
		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid=new-inbox]').value = '%d';
			window.leaving = true; document.querySelector('[data-testid=new-save]').click(); true`, inbox))
		b.waitTrue(tab, "the new contact's page", `!window.leaving && document.querySelector('[data-testid=contact-name]')?.textContent === 'Bo Brook'`)
		bo := payload(c, "/contacts/search?q=brook")
		if len(bo) != 1 {
			t.Fatalf("the API finds %d contacts named Brook", len(bo))
		}

		b.goTo(tab, c.base+c.app(fmt.Sprintf("/contacts/%d", alice)), "Alice's page", `document.querySelector('[data-testid=contact-cards]')`)
		last := fmt.Sprintf(`[data-testid=contact-conversations] [data-testid="conv-%d"] [data-testid=conv-last]`, p.conv)
		b.waitTrue(tab, "the conversation's last message", fmt.Sprintf(`document.querySelector('%s')?.textContent.includes('The renewal quote is attached')`, last))
		b.waitTrue(tab, "the scheduled message", fmt.Sprintf(`document.querySelector('[data-testid="schedule-%d"]')?.textContent.includes('Renewal reminder')`, sched))
		acme := p.cards["Acme renewal"]
		b.waitTrue(tab, "the card", fmt.Sprintf(`document.querySelector('[data-testid=contact-cards] [data-testid="card-%d"]')?.textContent.includes('Acme renewal')`, acme))
		// At a phone's width every section of the top nav is in sight,
		// none reached by scrolling sideways.
		b.setWidth(tab, 390)
		if got := b.eval(tab, `(() => { const nav = document.querySelector('.topbar nav');
			const out = [...nav.querySelectorAll('a')].filter(a => { const r = a.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth; });
			return nav.scrollWidth <= nav.clientWidth && out.length === 0 && nav.querySelectorAll('a').length === 6; })()`); got != true {
			t.Error("at 390 px the top nav scrolls or hides a section")
		}
		b.shoot(t, tab, "topnav-390")
		b.setWidth(tab, 1400)
		b.eval(tab, `document.querySelector('[data-testid=contact-schedules]').scrollIntoView(); true`)
		b.shootWidths(t, tab, "contact-related")

		// Bo is found by the picker's search and merged into Alice.
		b.eval(tab, `const s = document.querySelector('[data-testid=merge-search]'); s.value = 'brook'; s.dispatchEvent(new Event('input', {bubbles: true})); true`)
		b.waitTrue(tab, "Bo chosen by the search", fmt.Sprintf(`document.querySelector('[data-testid=merge-other]').value === '%d'`, idOf(bo[0], "id")))
		b.eval(tab, `window.confirm = () => true; window.leaving = true; document.querySelector('[data-testid=merge-submit]').click(); true`)
		b.waitTrue(tab, "Alice's page after the merge", `!window.leaving && document.querySelector('[data-testid=contact-name]')?.textContent === 'Alice Buyer'`)
		if st, _ := c.get(c.api(fmt.Sprintf("/contacts/%d", idOf(bo[0], "id")))); st != http.StatusNotFound {
			t.Errorf("the merged-away contact answers %d", st)
		}

		// The links open the schedule's drawer and the card's.
		b.eval(tab, fmt.Sprintf(`window.leaving = true; document.querySelector('[data-testid="schedule-%d"] a').click(); true`, sched))
		b.waitTrue(tab, "the schedule's drawer in the calendar", `!window.leaving && document.getElementById('drawer-title')?.textContent === 'Renewal reminder'`)
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/contacts/%d", alice)), "Alice's page", `document.querySelector('[data-testid=contact-cards]')`)
		b.eval(tab, fmt.Sprintf(`window.leaving = true; document.querySelector('[data-testid="card-%d"] a').click(); true`, acme))
		b.waitTrue(tab, "the card's drawer on its board", fmt.Sprintf(`!window.leaving && document.querySelector('[data-testid=drawer-card][data-card="%d"]')`, acme))
	})
}

// payload is the records of an API list ({"payload": [...]}).
func payload(c *console, path string) []map[string]any {
	c.t.Helper()
	var out []map[string]any
	for _, r := range c.mustGet(c.api(path))["payload"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}
