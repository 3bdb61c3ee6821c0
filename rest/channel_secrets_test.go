package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/testdb"
)

// mask is what reads show in place of a channel secret that is set.
const mask = inboxes.SecretMask

// stored checks the secret an inbox's channel holds in the database (reads
// show only the mask): key is api_key, app_secret, smtp_password, imap_password or
// hmac_token.
func (a *app) stored(inboxID int, key, want string) func(t *testing.T, r *response) {
	return func(t *testing.T, _ *response) {
		t.Helper()
		ib, err := a.srv.DB.Client.Inbox.Get(sys(), inboxID)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		switch ch := ib.Channel; key {
		case "api_key":
			if ch.ProviderConfig != nil {
				got = ch.ProviderConfig.APIKey
			}
		case "app_secret":
			if ch.ProviderConfig != nil {
				got = ch.ProviderConfig.AppSecret
			}
		case "smtp_password":
			if ch.SMTP != nil {
				got = ch.SMTP.Password
			}
		case "imap_password":
			if ch.IMAP != nil {
				got = ch.IMAP.Password
			}
		case "hmac_token":
			got = ch.HMACToken
		}
		if got != want {
			t.Errorf("inbox %d stores %s %q, want %q", inboxID, key, got, want)
		}
	}
}

// Channel secrets are shown once: the HMAC token the service issues is in
// the answer that created the inbox, and every later read (administrators'
// included) shows the mask. An update that leaves a secret out, or sends the
// mask back (a client echoing what it read), keeps the stored secret.
func TestChannelSecretsShownOnce(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		created := a.mustDo(request{method: "POST", path: a.path("/inboxes"),
			body: H{"name": "API", "channel": H{"type": "api", "webhook_url": "https://hooks.example.com/in"}}}, http.StatusOK)
		api, issued := created.int(t, "id"), created.str(t, "hmac_token")
		if issued == "" || issued == mask {
			t.Fatalf("the create answer has hmac_token %q, want the issued token", issued)
		}
		a.stored(api, "hmac_token", issued)(t, created)

		mailBody := H{"name": "Mail", "channel": H{"type": "email", "email": "mail@acme.test",
			"smtp_address": "smtp.acme.test", "smtp_login": "mailer", "smtp_password": "smtp-secret"}}
		mailCreated := a.mustDo(request{method: "POST", path: a.path("/inboxes"), body: mailBody}, http.StatusOK)
		mail := mailCreated.int(t, "id")
		wa := a.inbox("WhatsApp", whatsappChannel("+15550001234"))
		patch := func(id int, channel H) request {
			return request{method: "PATCH", path: a.path("/inboxes/%d", id), body: H{"channel": channel}}
		}
		a.run(t, []scenario{
			{name: "a secret the client sent is not echoed by create", request: request{method: "GET", path: a.path("/inboxes/%d", mail)},
				wantStatus: http.StatusOK, want: map[string]any{"smtp_password": mask}, check: bodyLacks("smtp-secret")},
			{name: "a read shows the issued token masked", request: request{method: "GET", path: a.path("/inboxes/%d", api)},
				wantStatus: http.StatusOK, want: map[string]any{"hmac_token": mask}, check: bodyLacks(issued)},
			{name: "an update sending the masked SMTP password back keeps it",
				request:    patch(mail, H{"smtp_login": "mailer2", "smtp_password": mask}),
				wantStatus: http.StatusOK, want: map[string]any{"smtp_login": "mailer2", "smtp_password": mask},
				check: a.stored(mail, "smtp_password", "smtp-secret")},
			{name: "an update sending the masked api_key back keeps it",
				request:    patch(wa, H{"provider_config": H{"api_key": mask, "phone_number_id": "777"}}),
				wantStatus: http.StatusOK, want: map[string]any{"provider_config.api_key": mask, "provider_config.phone_number_id": "777"},
				check: a.stored(wa, "api_key", "key")},
			{name: "an update leaving the password out keeps it", request: patch(mail, H{"smtp_port": 2525}),
				wantStatus: http.StatusOK, check: a.stored(mail, "smtp_password", "smtp-secret")},
			{name: "an update with a new password replaces it", request: patch(mail, H{"smtp_password": "rotated"}),
				wantStatus: http.StatusOK, want: map[string]any{"smtp_password": mask},
				check: func(t *testing.T, r *response) {
					a.stored(mail, "smtp_password", "rotated")(t, r)
					bodyLacks("rotated")(t, r)
				}},
			{name: "a WhatsApp app secret is stored and answered masked", request: patch(wa, H{"provider_config": H{"app_secret": "meta-app-secret"}}),
				wantStatus: http.StatusOK, want: map[string]any{"provider_config.app_secret": mask, "provider_config.api_key": mask},
				check: func(t *testing.T, r *response) {
					a.stored(wa, "app_secret", "meta-app-secret")(t, r)
					bodyLacks("meta-app-secret")(t, r)
				}},
			{name: "an update sending the masked app secret back keeps it",
				request:    patch(wa, H{"provider_config": H{"app_secret": mask, "business_account_id": "999"}}),
				wantStatus: http.StatusOK, want: map[string]any{"provider_config.app_secret": mask, "provider_config.business_account_id": "999"},
				check: a.stored(wa, "app_secret", "meta-app-secret")},
			{name: "an update does not show the issued token again", request: patch(api, H{"hmac_mandatory": true}),
				wantStatus: http.StatusOK, want: map[string]any{"hmac_token": mask}, check: a.stored(api, "hmac_token", issued)},
		})
	})
}
