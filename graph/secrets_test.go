package graph_test

import (
	"context"
	"testing"

	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Secrets are shown once on GraphQL too (issue 10): the kanban webhook
// secret only in the answer that created or regenerated it, and an inbox
// update that sends a channel secret back as the mask keeps the stored one.
func TestGraphQLSecretsShownOnce(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		mail := a.inbox(a.Account, a.Admin, "Mail", H{"type": "email", "email": "mail@acme.test",
			"smtp_address": "smtp.acme.test", "smtp_login": "mailer", "smtp_password": "smtp-secret"})
		wa := a.inbox(a.Account, a.Admin, "WhatsApp", H{"type": "whatsapp", "phone_number": "+15550001234",
			"provider_config": H{"api_key": "wa-key-secret", "phone_number_id": "pnid-1", "business_account_id": "baid-1"}})
		const update = `mutation($id: ID!, $in: InboxInput!) { updateInbox(id: $id, input: $in) { inbox { id } userErrors { field message code } } }`
		stored := func(id int, get func(schematype.Channel) string, want string) func(t *testing.T, r *gqlResp) {
			return func(t *testing.T, _ *gqlResp) {
				ib, err := a.srv.DB.Client.Inbox.Get(viewer.SystemContext(context.Background()), id)
				if err != nil {
					t.Fatal(err)
				}
				if got := get(ib.Channel); got != want {
					t.Errorf("inbox %d stores %q, want %q", id, got, want)
				}
			}
		}
		password := func(ch schematype.Channel) string { return ch.SMTP.Password }
		apiKey := func(ch schematype.Channel) string { return ch.ProviderConfig.APIKey }
		a.run(t, []gqlCase{
			{name: "the first read creates the config and shows its new secret", query: `{ kanbanConfig { webhookSecret } }`,
				want: H{"kanbanConfig.webhookSecret": nonEmpty}},
			{name: "a later read shows no secret", query: `{ kanbanConfig { webhookSecret enabled } }`,
				want: H{"kanbanConfig.webhookSecret": nil, "kanbanConfig.enabled": true}},
			{name: "a save that keeps the secret does not show it",
				query: `mutation { saveKanbanConfig(input: {webhookURL: "https://hooks.example.com/k"}) { kanbanConfig { webhookSecret } userErrors { field message code } } }`,
				want:  H{"saveKanbanConfig.kanbanConfig.webhookSecret": nil}},
			{name: "regenerating shows the new secret",
				query: `mutation { saveKanbanConfig(input: {regenerateSecret: true}) { kanbanConfig { webhookSecret } userErrors { field message code } } }`,
				want:  H{"saveKanbanConfig.kanbanConfig.webhookSecret": nonEmpty}},
			{name: "and the next read hides it", query: `{ kanbanConfig { webhookSecret } }`,
				want: H{"kanbanConfig.webhookSecret": nil}},
			{name: "the SMTP password sent back as the mask is kept", query: update,
				vars:  H{"id": mail, "in": H{"channel": H{"type": "email", "smtp": H{"login": "mailer2", "password": inboxes.SecretMask}}}},
				check: stored(mail, password, "smtp-secret")},
			{name: "the WhatsApp api key sent back as the mask is kept", query: update,
				vars:  H{"id": wa, "in": H{"channel": H{"type": "whatsapp", "providerConfig": H{"apiKey": inboxes.SecretMask}}}},
				check: stored(wa, apiKey, "wa-key-secret")},
			{name: "a new SMTP password replaces it", query: update,
				vars:  H{"id": mail, "in": H{"channel": H{"type": "email", "smtp": H{"password": "rotated"}}}},
				check: stored(mail, password, "rotated")},
		})
	})
}
