package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// submitIn fills fields (selector → value) and clicks a button, waiting for
// the page the server answers with.
func (b *browser) submitIn(tab string, fields map[string]string, button string) {
	b.t.Helper()
	for sel, v := range fields {
		b.eval(tab, fmt.Sprintf(`document.querySelector(%q).value = %q; true`, sel, v))
	}
	b.eval(tab, fmt.Sprintf(`window.confirm = () => true; window.leaving = true; document.querySelector(%q).click(); true`, button))
	b.waitTrue(tab, "the answered page", `!window.leaving && document.readyState !== 'loading' && document.querySelector('.settings')`)
}

// TestSettingsInChromium: an administrator creates, recolours and deletes
// a label (a duplicate refused with the operation's sentence), adds an
// agent, makes them an administrator and removes them, and creates a team
// with a member.
func TestSettingsInChromium(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.goTo(tab, c.base+c.app("/settings"), "the labels settings", `document.querySelector('[data-testid=label-rows]')`)

		b.submitIn(tab, map[string]string{"[data-testid=new-label-title]": "urgent", "[data-testid=new-label-color]": "#ff8800"}, "[data-testid=new-label-save]")
		if bg := b.eval(tab, `getComputedStyle(document.querySelector('[data-testid=label-row-urgent] [data-label]')).backgroundColor`); bg != "rgb(255, 136, 0)" {
			t.Errorf("the new label's chip is %v", bg)
		}
		b.submitIn(tab, map[string]string{"[data-testid=label-color-urgent]": "#0e8a16"}, "[data-testid=label-save-urgent]")
		labels := c.mustGet(c.api("/labels"))["payload"].([]any)
		if len(labels) != 1 || labels[0].(map[string]any)["color"] != "#0e8a16" {
			t.Errorf("the API sees labels %v", labels)
		}
		b.submitIn(tab, map[string]string{"[data-testid=new-label-title]": "urgent"}, "[data-testid=new-label-save]")
		if got := b.text(tab, "[data-testid=error-title]"); !strings.Contains(strings.ToLower(got), "taken") && !strings.Contains(strings.ToLower(got), "exist") {
			t.Errorf("a duplicate label says %q", got)
		}
		b.shootWidths(t, tab, "settings-labels")
		b.submitIn(tab, nil, "[data-testid=label-delete-urgent]")
		if n := len(c.mustGet(c.api("/labels"))["payload"].([]any)); n != 0 {
			t.Errorf("%d labels left after the delete", n)
		}

		b.goTo(tab, c.base+c.app("/settings/agents"), "the agents settings", `document.querySelector('[data-testid=agent-rows]')`)
		b.submitIn(tab, map[string]string{"[data-testid=new-agent-name]": "Bea Brown", "[data-testid=new-agent-email]": "bea@acme.test"}, "[data-testid=new-agent-save]")
		var bea int
		for _, a := range c.mustGetList(c.api("/agents")) {
			if a["email"] == "bea@acme.test" {
				bea = idOf(a, "id")
			}
		}
		if bea == 0 {
			t.Fatal("the added agent is not among the API's agents")
		}
		b.submitIn(tab, map[string]string{fmt.Sprintf(`[data-testid="agent-row-%d"] select[name=role]`, bea): "administrator"}, fmt.Sprintf(`[data-testid="agent-save-%d"]`, bea))
		for _, a := range c.mustGetList(c.api("/agents")) {
			if idOf(a, "id") == bea && a["role"] != "administrator" {
				t.Errorf("Bea's role is %v", a["role"])
			}
		}
		b.shootWidths(t, tab, "settings-agents")

		b.goTo(tab, c.base+c.app("/settings/teams"), "the teams settings", `document.querySelector('[data-testid=team-rows]')`)
		b.submitIn(tab, map[string]string{"[data-testid=new-team-name]": "escalations"}, "[data-testid=new-team-save]")
		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid="team-escalations-member-%d"]').checked = true; true`, bea))
		b.submitIn(tab, nil, "[data-testid=team-save-escalations]")
		if b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid="team-escalations-member-%d"]').checked`, bea)) != true {
			t.Errorf("Bea is not ticked in the team after saving")
		}
		b.shootWidths(t, tab, "settings-teams")

		b.goTo(tab, c.base+c.app("/settings/agents"), "the agents settings", `document.querySelector('[data-testid=agent-rows]')`)
		b.submitIn(tab, nil, fmt.Sprintf(`[data-testid="agent-remove-%d"]`, bea))
		if b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid="agent-row-%d"]') === null`, bea)) != true {
			t.Errorf("the removed agent is still listed")
		}
		// An inbox's behaviour; its channel's secrets are not on the page.
		ib := c.mustPost(c.api("/inboxes"), map[string]any{"name": "Site", "channel": map[string]any{"type": "api", "hmac_mandatory": true}})
		inbox := idOf(ib, "id")
		b.goTo(tab, c.base+c.app("/settings/inboxes"), "the inboxes settings", `document.querySelector('[data-testid=inbox-rows]')`)
		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid="inbox-greeting-on-%d"]').checked = true; true`, inbox))
		b.submitIn(tab, map[string]string{fmt.Sprintf(`[data-testid="inbox-greeting-%d"]`, inbox): "Hi! We answer within the hour."}, fmt.Sprintf(`[data-testid="inbox-save-%d"]`, inbox))
		got := c.mustGet(c.api(fmt.Sprintf("/inboxes/%d", inbox)))
		if got["greeting_enabled"] != true || got["greeting_message"] != "Hi! We answer within the hour." {
			t.Errorf("the API sees greeting %v %q", got["greeting_enabled"], got["greeting_message"])
		}
		if token, _ := ib["hmac_token"].(string); token == "" || strings.Contains(b.eval(tab, `document.documentElement.outerHTML`).(string), token) {
			t.Errorf("the inbox's HMAC token is on the settings page (or the test has none to look for)")
		}
		b.shootWidths(t, tab, "settings-inboxes")

		// Webhooks: one to a private address is refused; a public one is kept.
		b.goTo(tab, c.base+c.app("/settings/webhooks"), "the webhooks settings", `document.querySelector('[data-testid=hook-rows]')`)
		b.eval(tab, `document.querySelector('[data-testid="new-hook-message_created"]').checked = true; true`)
		b.submitIn(tab, map[string]string{"[data-testid=new-hook-url]": "http://127.0.0.1:9/hook"}, "[data-testid=new-hook-save]")
		if got := b.text(tab, "[data-testid=error-url]"); !strings.Contains(got, "private") {
			t.Errorf("a private webhook URL says %q", got)
		}
		b.eval(tab, `document.querySelector('[data-testid="new-hook-message_created"]').checked = true; true`)
		b.submitIn(tab, map[string]string{"[data-testid=new-hook-name]": "CRM", "[data-testid=new-hook-url]": "https://crm.example.com/hooks"}, "[data-testid=new-hook-save]")
		hooks := c.mustGet(c.api("/webhooks"))["payload"].(map[string]any)["webhooks"].([]any)
		if len(hooks) != 1 || hooks[0].(map[string]any)["url"] != "https://crm.example.com/hooks" || fmt.Sprint(hooks[0].(map[string]any)["subscriptions"]) != "[message_created]" {
			t.Fatalf("the API sees webhooks %v", hooks)
		}
		b.shootWidths(t, tab, "settings-webhooks")
		b.submitIn(tab, nil, fmt.Sprintf(`[data-testid="hook-delete-%d"]`, idOf(hooks[0].(map[string]any), "id")))
		if n := len(c.mustGet(c.api("/webhooks"))["payload"].(map[string]any)["webhooks"].([]any)); n != 0 {
			t.Errorf("%d webhooks left after the delete", n)
		}

		if st, _ := c.page(c.app("/settings/secrets"), c.cookie); st != http.StatusNotFound {
			t.Errorf("an unknown settings section answered %d", st)
		}
	})
}
