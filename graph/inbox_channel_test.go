package graph_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/testdb"
)

// updateInbox takes channel settings through the same operation as REST's
// PATCH /inboxes/{id}: sent settings merge, the rest (secrets) stay, errors
// name the REST field.
func TestGraphQLUpdateInboxChannel(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		agent := a.agent(a.Account)
		wa := a.inbox(a.Account, a.Admin, "WhatsApp", H{"type": "whatsapp", "phone_number": "+15550001234",
			"provider_config": H{"api_key": "wa-key-secret", "phone_number_id": "pnid-1", "business_account_id": "baid-1"}})
		mail := a.inbox(a.Account, a.Admin, "Mail", H{"type": "email", "email": "mail@acme.test",
			"smtp_address": "smtp.acme.test", "smtp_login": "mailer", "smtp_password": "smtp-secret"})
		accB, adminB := a.otherAccount("Globex")
		waB := a.inbox(accB, adminB, "B", H{"type": "api"})
		const update = `mutation($id: ID!, $in: InboxInput!) { updateInbox(id: $id, input: $in) { inbox { id name } userErrors { field message code } } }`
		restShow := func(id int) any {
			return a.mustREST("GET", fmt.Sprintf("/api/v1/accounts/%d/inboxes/%d", a.Account, id), a.Admin, nil, http.StatusOK)
		}
		expectREST := func(id int, want H) func(t *testing.T, r *gqlResp) {
			return func(t *testing.T, r *gqlResp) {
				body := restShow(id)
				for path, v := range want {
					if got := mustGet(t, body, path); got != v {
						t.Errorf("REST %s: want %v, got %v", path, v, got)
					}
				}
			}
		}
		a.run(t, []gqlCase{
			{name: "channel settings merge over the stored ones", query: update,
				vars: H{"id": wa, "in": H{"name": "WA", "channel": H{"type": "whatsapp", "phoneNumber": "+15550009999"}}},
				want: H{"updateInbox.inbox.name": "WA"},
				check: expectREST(wa, H{"phone_number": "+15550009999", "provider_config.api_key": inboxes.SecretMask,
					"provider_config.phone_number_id": "pnid-1"})},
			{name: "SMTP settings merge: the password not re-sent stays", query: update,
				vars:  H{"id": mail, "in": H{"channel": H{"type": "email", "smtp": H{"address": "smtp2.acme.test", "port": 2525}}}},
				check: expectREST(mail, H{"smtp_address": "smtp2.acme.test", "smtp_port": float64(2525), "smtp_login": "mailer", "smtp_password": inboxes.SecretMask})},
			{name: "IMAP settings are taken, the password write-only", query: update,
				vars: H{"id": mail, "in": H{"channel": H{"type": "email", "imap": H{"enabled": true, "address": "imap.acme.test",
					"login": "mailer", "password": "imap-secret", "enableSSL": false, "port": 143}}}},
				check: expectREST(mail, H{"imap_enabled": true, "imap_address": "imap.acme.test", "imap_port": float64(143),
					"imap_enable_ssl": false, "imap_password": inboxes.SecretMask})},
			{name: "enabled IMAP settings without a password name channel.imap_password", query: update,
				vars: H{"id": mail, "in": H{"channel": H{"type": "email", "imap": H{"password": ""}}}},
				code: "INVALID", attrs: []string{"input.channel.imap.password"}},
			{name: "an invalid phone number names channel.phone_number", query: update,
				vars: H{"id": wa, "in": H{"name": "Not applied", "channel": H{"type": "whatsapp", "phoneNumber": "555"}}},
				code: "INVALID", attrs: []string{"input.channel.phoneNumber"}},
			{name: "another channel type names channel.type", query: update,
				vars: H{"id": wa, "in": H{"channel": H{"type": "api"}}},
				code: "INVALID", attrs: []string{"input.channel.type"}},
			{name: "an agent is forbidden", token: agent, query: update,
				vars: H{"id": wa, "in": H{"channel": H{"type": "whatsapp", "phoneNumber": "+15550008888"}}},
				code: "FORBIDDEN"},
			{name: "another account's inbox is not found", query: update,
				vars: H{"id": waB, "in": H{"channel": H{"type": "api", "webhookURL": "https://evil.example.com"}}},
				code: "NOT_FOUND"},
			{name: "the refused updates changed nothing", query: `query($id: ID!) { inbox(id: $id) { name } }`,
				vars: H{"id": wa}, want: H{"inbox.name": "WA"},
				check: expectREST(wa, H{"phone_number": "+15550009999", "provider_config.api_key": inboxes.SecretMask})},
		})
	})
}
