package web_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleAccountSwitcher: a user of one account sees no switcher; a user
// of two picks the other from the top bar and lands on the same screen there.
func TestConsoleAccountSwitcher(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.setWidth(tab, 1400)
		b.goTo(tab, c.base+c.app("/reports"), "the reports", `document.querySelector('[data-testid=who]')`)
		if got := b.eval(tab, `document.querySelector('[data-testid=account-switcher]') === null && document.querySelector('[data-testid=who]').textContent`); got != "Ada · Acme" {
			t.Errorf("a user of one account sees %v", got)
		}

		// Ada becomes administrator of a second account too.
		globex, err := c.srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
			AccountName: "Globex", Email: "admin@acme.test", Name: "Ada",
		})
		if err != nil {
			t.Fatal(err)
		}
		b.goTo(tab, c.base+c.app("/reports"), "the reports with a switcher", `document.querySelector('[data-testid=account-switcher]')`)
		d := drawerDriver{b: b, tab: tab, t: t}
		d.click("who")
		d.wait("the accounts listed", `[...document.querySelectorAll('[data-testid=account-link]')].map(a => a.textContent + (a.getAttribute('aria-current') ? '*' : '')).join(',') === 'Acme*,Globex'`)
		b.shootWidths(t, tab, "account-switcher")
		b.eval(tab, `window.leaving = true; true`)
		d.clickJS(`[...document.querySelectorAll('[data-testid=account-link]')].find(a => a.textContent === 'Globex')`)
		b.waitTrue(tab, "the reports of Globex", fmt.Sprintf(`!window.leaving && location.pathname === '/app/accounts/%d/reports' && document.querySelector('[data-testid=who]') && document.querySelector('[data-testid=who]').textContent.includes('Ada · Globex')`, globex.AccountID))

		// A board's page switches to the other account's boards, not to a
		// board of the first account's it does not hold.
		funnel := idOf(c.mustPost(c.api("/funnels"), map[string]any{"name": "Sales", "stages": pipelineStages}), "id")
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/funnels/%d/stages", funnel)), "a page below a section", `document.querySelector('[data-testid=account-switcher]')`)
		if got := b.eval(tab, `[...document.querySelectorAll('[data-testid=account-link]')].find(a => a.textContent === 'Globex').getAttribute('href')`); got != fmt.Sprintf("/app/accounts/%d/funnels", globex.AccountID) {
			t.Errorf("from a board's page the switcher goes to %v", got)
		}
	})
}
