package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestInboxSecrets(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		api := a.inbox("API", H{"type": "api", "webhook_url": "https://hooks.example.com/in"})
		wa := a.inbox("WhatsApp", H{"type": "whatsapp", "phone_number": "+15550001234", "provider": "whatsapp_cloud",
			"provider_config":   H{"api_key": "wa-api-key-secret", "phone_number_id": "pnid-1", "business_account_id": "baid-1"},
			"message_templates": waTemplates})
		mail := a.inbox("Mail", H{"type": "email", "email": "mail@acme.test", "smtp_address": "smtp.acme.test",
			"smtp_port": 465, "smtp_login": "mailer", "smtp_password": "smtp-password-secret"})
		widget := a.inbox("Widget", H{"type": "web_widget", "website_url": "https://acme.test"})
		hmac := map[int]string{}
		for _, id := range []int{api, widget} {
			ib, err := a.srv.DB.Client.Inbox.Get(sys(), id)
			if err != nil || ib.Channel.HMACToken == "" {
				t.Fatalf("inbox %d has no stored hmac token (%v)", id, err)
			}
			hmac[id] = ib.Channel.HMACToken
		}
		secrets := []string{`"hmac_token"`, `"provider_config"`, `"smtp_password"`, `"api_key"`,
			hmac[api], hmac[widget], "wa-api-key-secret", "smtp-password-secret"}
		// Administrators see which secrets are set, never their values
		// (issue 10: channel secrets are shown once).
		values := []string{hmac[api], hmac[widget], "wa-api-key-secret", "smtp-password-secret"}
		show := func(id int) request { return request{method: "GET", path: a.path("/inboxes/%d", id)} }
		list := request{method: "GET", path: a.path("/inboxes")}
		a.run(t, []scenario{
			{
				name:       "the administrator's list carries no secrets",
				request:    list,
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 4, "payload.1.phone_number": "+15550001234", "payload.1.message_templates": waTemplates},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "an agent's list carries no secrets",
				request:    as(agent, list),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 4},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "the administrator sees the api inbox's hmac_token masked",
				request:    show(api),
				wantStatus: http.StatusOK,
				want:       map[string]any{"hmac_token": mask, "webhook_url": "https://hooks.example.com/in"},
				check:      bodyLacks(values...),
			},
			{
				name:       "the administrator sees the whatsapp provider_config with the api_key masked",
				request:    show(wa),
				wantStatus: http.StatusOK,
				want:       map[string]any{"provider_config.api_key": mask, "provider_config.phone_number_id": "pnid-1"},
				check:      bodyLacks(values...),
			},
			{
				name:       "the administrator sees the email inbox's SMTP settings with the password masked",
				request:    show(mail),
				wantStatus: http.StatusOK,
				want:       map[string]any{"smtp_password": mask, "smtp_port": 465, "smtp_login": "mailer"},
				check:      bodyLacks(values...),
			},
			{
				name:       "the administrator sees the web widget's hmac_token masked",
				request:    show(widget),
				wantStatus: http.StatusOK,
				want:       map[string]any{"hmac_token": mask},
				check:      bodyLacks(values...),
			},
			{
				name:       "an agent's view of the api inbox has no hmac_token but the public settings",
				request:    as(agent, show(api)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"hmac_token": absent, "webhook_url": "https://hooks.example.com/in", "inbox_identifier": isUUID},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "an agent's view of the whatsapp inbox has no provider_config but the number and templates",
				request:    as(agent, show(wa)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"provider_config": absent, "phone_number": "+15550001234", "message_templates": waTemplates},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "an agent's view of the email inbox has no SMTP password but the address",
				request:    as(agent, show(mail)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"smtp_password": absent, "email": "mail@acme.test"},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "an agent's view of the web widget has no hmac_token",
				request:    as(agent, show(widget)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"hmac_token": absent, "website_url": "https://acme.test"},
				check:      bodyLacks(secrets...),
			},
			{
				name:       "a contact's inbox (inbox_slim) carries no secrets",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": wa, "phone_number": "+15559990000"}},
				wantStatus: http.StatusOK,
				check:      bodyLacks(secrets...),
			},
		})
	})
}
