package web_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestContactsInChromium: the list sorts by a column and searches; a
// contact's name opens its page with its attributes, inboxes and
// conversations; its labels are edited there and show in their colours; a
// refused edit says why; an administrator deletes it.
func TestContactsInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		inbox := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "Support", "channel": map[string]any{"type": "api"}}), "id")
		c.mustPost(c.api("/labels"), map[string]any{"title": "vip", "color": "#d73a49"})
		c.mustPost(c.api("/labels"), map[string]any{"title": "churn-risk", "color": "#fbca04"})
		c.mustPost(c.api("/custom_attribute_definitions"), map[string]any{"attribute_display_name": "Plan", "attribute_key": "plan",
			"attribute_display_type": "text", "attribute_model": "contact_attribute"})
		ids := map[string]int{}
		for _, name := range []string{"Ann Archer", "Bob Baker", "Cy Cole"} {
			ct := c.mustPost(c.api("/contacts"), map[string]any{"inbox_id": inbox, "name": name, "custom_attributes": map[string]any{"plan": "Gold"}})
			ids[name] = idOf(ct["payload"].(map[string]any)["contact"].(map[string]any), "id")
		}
		conv := idOf(c.mustPost(c.api("/conversations"), map[string]any{"inbox_id": inbox, "contact_id": ids["Ann Archer"]}), "id")

		b := startBrowser(t)
		tab := b.signInTab(c.base)
		names := `[...document.querySelectorAll('[data-testid=contact-link]')].map(a => a.textContent).join(',')`
		b.goTo(tab, c.base+c.app("/contacts?sort=name"), "the contacts by name", `document.querySelector('[data-testid=contacts-table]')`)
		if got := b.eval(tab, names); got != "Ann Archer,Bob Baker,Cy Cole" {
			t.Errorf("by name: %v", got)
		}
		b.click(tab, "[data-testid=sort-name]")
		b.waitTrue(tab, "the reversed order", names+` === 'Cy Cole,Bob Baker,Ann Archer'`)
		b.eval(tab, `document.querySelector('[data-testid=contacts-search]').value = 'bob'; document.querySelector('form.search').submit(); window.leaving = true; true`)
		b.waitTrue(tab, "the search", "!window.leaving && "+names+` === 'Bob Baker'`)
		b.shootWidths(t, tab, "contacts-list")

		b.goTo(tab, c.base+c.app("/contacts"), "the list", `document.querySelector('[data-testid=contact-link]')`)
		b.eval(tab, fmt.Sprintf(`window.leaving = true; document.querySelector('[data-testid="contact-%d"] a').click(); true`, ids["Ann Archer"]))
		b.waitTrue(tab, "Ann's page", `!window.leaving && document.querySelector('[data-testid=contact-name]')`)
		if got := b.text(tab, "[data-testid=contact-name]"); got != "Ann Archer" {
			t.Errorf("the page is %q's", got)
		}
		if got := b.text(tab, "[data-testid=attr-Plan]"); got != "Gold" {
			t.Errorf("the Plan attribute reads %q", got)
		}
		b.waitTrue(tab, "her conversation", fmt.Sprintf(`document.querySelector('[data-testid=contact-conversations] [data-testid="conv-%d"]')`, conv))

		// Labels: tick two, save; untick one, save.
		b.eval(tab, `document.querySelector('[data-testid="label-vip"]').checked = true; document.querySelector('[data-testid="label-churn-risk"]').checked = true;
			window.leaving = true; document.querySelector('[data-testid=labels-save]').click(); true`)
		b.waitTrue(tab, "the saved labels", `!window.leaving && document.querySelector('[data-testid="label-vip"]')?.checked && document.querySelector('[data-testid="label-churn-risk"]')?.checked`)
		b.eval(tab, `document.querySelector('[data-testid="label-churn-risk"]').checked = false; window.leaving = true; document.querySelector('[data-testid=labels-save]').click(); true`)
		b.waitTrue(tab, "one label left", `!window.leaving && document.querySelector('[data-testid=labels-save]') && document.querySelector('[data-testid="label-churn-risk"]')?.checked === false`)
		if got := fmt.Sprint(c.mustGet(c.api(fmt.Sprintf("/contacts/%d/labels", ids["Ann Archer"])))["payload"]); got != "[vip]" {
			t.Errorf("the API sees labels %s", got)
		}

		// A refused edit says why and changes nothing; a good one is saved.
		b.eval(tab, `document.querySelector('[data-testid=contact-edit]').click(); document.querySelector('[data-testid=edit-email]').type = 'text';
			document.querySelector('[data-testid=edit-email]').value = 'not an address'; window.leaving = true; document.querySelector('[data-testid=edit-save]').click(); true`)
		b.waitTrue(tab, "the refusal", `!window.leaving && document.querySelector('[data-testid=contact-error]')`)
		b.shootWidths(t, tab, "contact-page")
		b.eval(tab, `document.querySelector('[data-testid=contact-edit]').click(); document.querySelector('[data-testid=edit-email]').value = 'ann@archer.test';
			window.leaving = true; document.querySelector('[data-testid=edit-save]').click(); true`)
		b.waitTrue(tab, "the saved e-mail", `!window.leaving && !document.querySelector('[data-testid=contact-error]') && document.body.textContent.includes('ann@archer.test')`)

		// The list shows the label in its colour.
		b.goTo(tab, c.base+c.app("/contacts"), "the list", `document.querySelector('[data-label=vip]')`)
		if bg := b.eval(tab, `getComputedStyle(document.querySelector('[data-label=vip]')).backgroundColor`); bg != "rgb(215, 58, 73)" {
			t.Errorf("the vip chip is %v", bg)
		}

		// An administrator deletes Cy.
		b.goTo(tab, c.base+c.app(fmt.Sprintf("/contacts/%d", ids["Cy Cole"])), "Cy's page", `document.querySelector('[data-testid=contact-delete]')`)
		b.eval(tab, `window.confirm = () => true; window.leaving = true; document.querySelector('[data-testid=contact-delete]').click(); true`)
		b.waitTrue(tab, "the list without Cy", `!window.leaving && document.querySelector('.pager') && !document.body.textContent.includes('Cy Cole')`)
		if st, _ := c.get(c.api(fmt.Sprintf("/contacts/%d", ids["Cy Cole"]))); st != http.StatusNotFound {
			t.Errorf("the deleted contact answers %d", st)
		}
	})
}
