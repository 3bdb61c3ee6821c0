package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestSettingsHooksAndInboxesInChromium: an administrator sets the kanban
// webhook and tests it (the receiver's answer shown), makes a new signing
// secret, edits an account webhook's URL and events, and creates a
// WhatsApp inbox whose secrets are never shown back.
func TestSettingsHooksAndInboxesInChromium(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTeapot)
			fmt.Fprint(w, `{"ok":"not today"}`)
		}))
		t.Cleanup(receiver.Close)
		c := newConsole(t, e)
		hook := idOf(c.mustPost(c.api("/webhooks"), map[string]any{"url": "https://hooks.example.com/a", "subscriptions": []string{"contact_created"}})["payload"].(map[string]any)["webhook"].(map[string]any), "id")
		b := startBrowser(t)
		tab := b.signInTab(c.base)
		b.goTo(tab, c.base+c.app("/settings/webhooks"), "the webhooks settings", `document.querySelector('[data-testid=kanban-hook]')`)

		b.eval(tab, `document.querySelector('[data-testid="kanban-kanban_item.created"]').checked = false; true`)
		b.submitIn(tab, map[string]string{"[data-testid=kanban-url]": receiver.URL}, "[data-testid=kanban-save]")
		if got := b.eval(tab, `document.querySelector('[data-testid=kanban-url]').value`); got != receiver.URL {
			t.Errorf("the saved URL reads %v", got)
		}
		if got := fmt.Sprint(c.mustGet(c.api("/kanban_config"))["webhook_events"]); strings.Contains(got, "kanban_item.created") || !strings.Contains(got, "kanban_item.moved") {
			t.Errorf("the API sees the events %s", got)
		}
		b.submitIn(tab, nil, "[data-testid=kanban-test]")
		if got := b.text(tab, "[data-testid=kanban-test-status]"); got != "418" {
			t.Errorf("the test shows the answer code %q", got)
		}
		if got := b.text(tab, "[data-testid=kanban-test-body]"); got != `{"ok":"not today"}` {
			t.Errorf("the test shows the answer %q", got)
		}
		b.eval(tab, `document.querySelector('[data-testid=kanban-test-result]').scrollIntoView(); true`)
		b.shootWidths(t, tab, "settings-kanban-test")
		b.submitIn(tab, nil, "[data-testid=kanban-regenerate]")
		if got := b.text(tab, "[data-testid=kanban-secret]"); !strings.HasPrefix(got, "whsec_") {
			t.Errorf("the new secret reads %q", got)
		}
		b.goTo(tab, c.base+c.app("/settings/webhooks"), "the webhooks settings again", `document.querySelector('[data-testid=kanban-hook]')`)
		if b.eval(tab, `!document.querySelector('[data-testid=kanban-secret]')`) != true {
			t.Error("the secret is shown a second time")
		}

		b.eval(tab, fmt.Sprintf(`document.querySelector('[data-testid=hook-edit-%d]').click();
			document.querySelector('[data-testid="hook-%d-contact_created"]').checked = false;
			document.querySelector('[data-testid="hook-%d-message_created"]').checked = true; true`, hook, hook, hook))
		b.shootWidths(t, tab, "settings-webhook-edit")
		b.submitIn(tab, map[string]string{fmt.Sprintf("[data-testid=hook-url-%d]", hook): "https://hooks.example.com/b"}, fmt.Sprintf("[data-testid=hook-save-%d]", hook))
		if got := b.text(tab, fmt.Sprintf("[data-testid=hook-row-%d]", hook)); !strings.Contains(got, "hooks.example.com/b") || !strings.Contains(got, "message_created") {
			t.Errorf("the edited webhook's row reads %q", got)
		}

		b.goTo(tab, c.base+c.app("/settings/inboxes"), "the inboxes settings", `document.querySelector('[data-testid=new-inbox]')`)
		b.eval(tab, `document.querySelector('[data-testid=new-inbox-whatsapp]').click(); true`)
		b.submitIn(tab, map[string]string{"[data-testid=inbox-whatsapp-name]": "WhatsApp sales", "[data-testid=inbox-whatsapp-api_key]": "sekrit-key",
			"[data-testid=inbox-whatsapp-phone_number_id]": "123"}, "[data-testid=inbox-whatsapp-create]")
		b.waitTrue(tab, "the refusal in the form", `document.querySelector('[data-testid=new-inbox-error]')`)
		if got := b.eval(tab, `document.querySelector('[data-testid=inbox-whatsapp-api_key]').value + '|' + document.querySelector('[data-testid=inbox-whatsapp-phone_number_id]').value`); got != "|123" {
			t.Errorf("the refused form shows back %v (the key must stay empty)", got)
		}
		b.eval(tab, `document.querySelector('[data-testid=new-inbox]').scrollIntoView(); true`)
		b.shootWidths(t, tab, "settings-inbox-refused")
		b.submitIn(tab, map[string]string{"[data-testid=inbox-whatsapp-phone_number]": "+15550009999", "[data-testid=inbox-whatsapp-api_key]": "sekrit-key",
			"[data-testid=inbox-whatsapp-business_account_id]": "456"}, "[data-testid=inbox-whatsapp-create]")
		if msg := b.text(tab, "[data-testid=new-inbox-error]"); msg != "" {
			t.Fatalf("the WhatsApp inbox was refused: %s", msg)
		}
		b.waitTrue(tab, "the new inbox's row", `[...document.querySelectorAll('[data-testid=inbox-rows] input[name=name]')].some(i => i.value === 'WhatsApp sales')`)
		if b.eval(tab, `document.documentElement.outerHTML.includes('sekrit-key')`) != false {
			t.Error("the API key is shown back")
		}
	})
}
