package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
	"golang.org/x/crypto/bcrypt"
)

// TestConsoleSettingsWrites: the kanban webhook (save, test, a new
// secret), editing an account webhook and creating inboxes, through the
// operations the API uses; a refusal answers the section again (422) with
// the sentence (at the refused field when the form has it) and changes
// nothing; a secret sent is never shown back.
func TestConsoleSettingsWrites(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			w.WriteHeader(http.StatusAccepted)
			fmt.Fprintf(w, "test seen=%t signed=%t", strings.Contains(string(body), `"kanban.test"`), r.Header.Get("Webhook-Signature") != "")
		}))
		t.Cleanup(receiver.Close)
		c := newConsole(t, e)
		hook := idOf(c.mustPost(c.api("/webhooks"), map[string]any{"url": "https://hooks.example.com/a", "subscriptions": []string{"contact_created"}})["payload"].(map[string]any)["webhook"].(map[string]any), "id")
		settings := func(rest string) string { return c.app("/settings/" + rest) }
		none := []events.Kind{}
		c.run(t, []consoleCase{
			{name: "a test before there is a URL", path: settings("kanban/test"), form: url.Values{}, status: http.StatusUnprocessableEntity,
				html: []string{`data-testid="settings-error">Set a webhook url`}, events: none},
			{name: "a kanban URL that is no URL", path: settings("kanban"), form: url.Values{"webhook_url": {"ftp://x"}, "enabled": {"false", "true"}},
				status: http.StatusUnprocessableEntity, html: []string{"Webhook url must be an http(s) URL"}, events: none},
			{name: "the kanban webhook", path: settings("kanban"), form: url.Values{"webhook_url": {receiver.URL}, "enabled": {"false", "true"},
				"webhook_events": {"", "kanban_item.moved"}}, status: http.StatusSeeOther, location: settings("webhooks"), events: none},
			{name: "its test", path: settings("kanban/test"), form: url.Values{}, status: http.StatusOK,
				html: []string{`data-testid="kanban-test-status">202<`, `data-testid="kanban-test-body">test seen=true signed=true<`}, events: none},
			{name: "a new secret, shown once", path: settings("kanban/secret"), form: url.Values{}, status: http.StatusOK,
				html: []string{`data-testid="kanban-secret">whsec_`}, events: none},
			{name: "a webhook edited", path: settings(fmt.Sprintf("webhooks/%d", hook)), form: url.Values{"name": {"CRM"}, "url": {"https://hooks.example.com/b"},
				"subscriptions": {"", "conversation_created", "message_created"}}, status: http.StatusSeeOther, events: none},
			{name: "a webhook edited to no http URL", path: settings(fmt.Sprintf("webhooks/%d", hook)), form: url.Values{"url": {"ftp://hooks.example.com/x"}},
				status: http.StatusUnprocessableEntity, html: []string{`id="tried-err-url">Url must be an http(s) URL<`,
					fmt.Sprintf(`data-testid="hook-url-%d" aria-describedby="tried-err-url" aria-invalid="true"`, hook)}, events: none},
			{name: "a webhook that does not exist", path: settings("webhooks/999999"), form: url.Values{"url": {"https://hooks.example.com/c"}},
				status: http.StatusNotFound, events: none},
			{name: "an inbox of no known channel", path: settings("inboxes"), form: url.Values{"name": {"Fax"}, "channel_type": {"fax"}},
				status: http.StatusUnprocessableEntity, html: []string{`data-testid="settings-error"`}, events: none},
			{name: "a WhatsApp inbox without its number", path: settings("inboxes"), form: url.Values{"name": {"WA"}, "channel_type": {"whatsapp"},
				"api_key": {"sekrit-key"}, "phone_number_id": {"123"}}, status: http.StatusUnprocessableEntity,
				html: []string{`data-testid="new-inbox-error"`, `value="123"`}, events: none},
			{name: "an e-mail inbox with a port that is no number", path: settings("inboxes"), form: url.Values{"name": {"Mail"}, "channel_type": {"email"},
				"email": {"help@acme.test"}, "smtp_address": {"smtp.acme.test"}, "smtp_port": {"many"}, "smtp_password": {"pw-secret"}},
				status: http.StatusUnprocessableEntity, html: []string{"SMTP port must be a whole number"}, events: none},
			{name: "an API inbox", path: settings("inboxes"), form: url.Values{"name": {"Web API"}, "channel_type": {"api"}}, status: http.StatusSeeOther},
			{name: "a website widget", path: settings("inboxes"), form: url.Values{"name": {"Site"}, "channel_type": {"web_widget"},
				"website_url": {"https://acme.test"}, "widget_color": {"#1f6feb"}, "welcome_title": {"Hello"}}, status: http.StatusSeeOther},
			{name: "an e-mail inbox", path: settings("inboxes"), form: url.Values{"name": {"Mail"}, "channel_type": {"email"}, "email": {"help@acme.test"},
				"smtp_address": {"smtp.acme.test"}, "smtp_port": {"587"}, "smtp_login": {"help"}, "smtp_password": {"pw-secret"}}, status: http.StatusSeeOther},
			{name: "a WhatsApp inbox", path: settings("inboxes"), form: url.Values{"name": {"WA"}, "channel_type": {"whatsapp"}, "phone_number": {"+15550009999"},
				"api_key": {"sekrit-key"}, "phone_number_id": {"123"}, "business_account_id": {"456"}, "app_secret": {"app-sekrit"}}, status: http.StatusSeeOther},
		})
		cfg := c.mustGet(c.api("/kanban_config"))
		if cfg["webhook_url"] != receiver.URL || fmt.Sprint(cfg["webhook_events"]) != "[kanban_item.moved]" || cfg["enabled"] != true {
			t.Errorf("the API sees the kanban config %v", cfg)
		}
		got := c.mustGet(c.api(fmt.Sprintf("/webhooks/%d", hook)))
		if !strings.Contains(fmt.Sprint(got), "hooks.example.com/b") || !strings.Contains(fmt.Sprint(got), "[conversation_created message_created]") {
			t.Errorf("the API sees the webhook as %v", got)
		}
		inboxes := fmt.Sprint(c.mustGet(c.api("/inboxes")))
		for _, name := range []string{"Web API", "Site", "Mail", "WA"} {
			if !strings.Contains(inboxes, "name:"+name+" ") {
				t.Errorf("the API lacks the inbox %s", name)
			}
		}
		if strings.Contains(inboxes, "Fax") {
			t.Error("the refused inbox was made")
		}
		_, page := c.page(settings("inboxes"), c.cookie)
		for _, secret := range []string{"sekrit-key", "pw-secret", "app-sekrit"} {
			if strings.Contains(page, secret) || strings.Contains(inboxes, secret) {
				t.Errorf("the secret %s is shown back", secret)
			}
		}
	})
}

// agentSession adds an agent (not an administrator) with a password and
// signs them in.
func agentSession(c *console) string {
	_, cookie := signedInAgent(c, "grace")
	return cookie
}

// signedInAgent adds the agent name@acme.test with a password, signs them
// in, and gives their user id and session cookie.
func signedInAgent(c *console, name string) (int, string) {
	c.t.Helper()
	email, password := name+"@acme.test", name+"-long-pass"
	id := idOf(c.mustPost(c.api("/agents"), map[string]any{"name": name, "email": email, "role": "agent"}), "id")
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.srv.DB.Client.User.UpdateOneID(id).SetPasswordHash(string(hash)).SetConfirmed(true).Exec(viewer.SystemContext(context.Background())); err != nil {
		c.t.Fatal(err)
	}
	return id, c.signIn(email, password)
}

// TestConsoleSettingsWritesAreAdministrators: an agent's settings writes
// are refused (403) and change nothing; their webhooks page has no kanban
// webhook card.
func TestConsoleSettingsWritesAreAdministrators(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		hook := idOf(c.mustPost(c.api("/webhooks"), map[string]any{"url": "https://hooks.example.com/a", "subscriptions": []string{"contact_created"}})["payload"].(map[string]any)["webhook"].(map[string]any), "id")
		grace := agentSession(c)
		none := []events.Kind{}
		settings := func(rest string) string { return c.app("/settings/" + rest) }
		c.run(t, []consoleCase{
			{name: "the kanban webhook", path: settings("kanban"), form: url.Values{"webhook_url": {"https://hooks.example.com/k"}}, cookie: grace, status: http.StatusForbidden, events: none},
			{name: "a new kanban secret", path: settings("kanban/secret"), form: url.Values{}, cookie: grace, status: http.StatusForbidden, events: none},
			{name: "a kanban test", path: settings("kanban/test"), form: url.Values{}, cookie: grace, status: http.StatusForbidden, events: none},
			{name: "a webhook edited", path: settings(fmt.Sprintf("webhooks/%d", hook)), form: url.Values{"url": {"https://evil.example.com/"}}, cookie: grace, status: http.StatusForbidden, events: none},
			{name: "an inbox", path: settings("inboxes"), form: url.Values{"name": {"Side door"}, "channel_type": {"api"}}, cookie: grace, status: http.StatusForbidden, events: none},
		})
		if st, page := c.page(settings("webhooks"), grace); st != http.StatusOK || strings.Contains(page, `data-testid="kanban-hook"`) {
			t.Errorf("the agent's webhooks page answered %d, kanban card shown: %t", st, strings.Contains(page, `data-testid="kanban-hook"`))
		}
		if got := fmt.Sprint(c.mustGet(c.api(fmt.Sprintf("/webhooks/%d", hook)))); !strings.Contains(got, "hooks.example.com/a") {
			t.Errorf("the webhook changed: %s", got)
		}
		if got := fmt.Sprint(c.mustGet(c.api("/inboxes"))); strings.Contains(got, "Side door") {
			t.Error("the agent made an inbox")
		}
	})
}
