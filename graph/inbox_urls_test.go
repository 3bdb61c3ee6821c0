package graph_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/testdb"
)

// An inbox shows the URLs REST shows: an API inbox's webhook URL to whoever
// sees the inbox, a WhatsApp inbox's callback URL (to set up at Meta) to
// administrators only.
func TestGraphQLInboxURLs(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newAppWith(t, e, server.Config{Channels: acceptAll{}, PublicURL: "https://sb.example.com"})
		agentID, agent := a.agentUser(a.Account)
		api := a.inbox(a.Account, a.Admin, "API", H{"type": "api", "webhook_url": "https://hooks.example.com/in"})
		bare := a.inbox(a.Account, a.Admin, "Bare API", H{"type": "api"})
		wa := a.inbox(a.Account, a.Admin, "WhatsApp", H{"type": "whatsapp", "phone_number": "+15550001234",
			"provider_config": H{"api_key": "wa-key", "phone_number_id": "pnid-1", "business_account_id": "baid-1"}})
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		for _, ib := range []int{api, wa} {
			a.mustREST("POST", base+"/inbox_members", a.Admin, H{"inbox_id": ib, "user_ids": []int{agentID}}, http.StatusOK)
		}
		const q = `query($id: ID!) { inbox(id: $id) { webhookURL callbackWebhookURL } }`
		callback := "https://sb.example.com/webhooks/whatsapp/+15550001234"
		a.run(t, []gqlCase{
			{name: "an API inbox's webhook URL", query: q, vars: H{"id": api},
				want: H{"inbox.webhookURL": "https://hooks.example.com/in", "inbox.callbackWebhookURL": nil}},
			{name: "an API inbox without one", query: q, vars: H{"id": bare},
				want: H{"inbox.webhookURL": nil, "inbox.callbackWebhookURL": nil}},
			{name: "a WhatsApp inbox's callback URL, to an administrator", query: q, vars: H{"id": wa},
				want: H{"inbox.webhookURL": nil, "inbox.callbackWebhookURL": callback},
				check: func(t *testing.T, _ *gqlResp) {
					r := a.mustREST("GET", fmt.Sprintf("%s/inboxes/%d", base, wa), a.Admin, nil, http.StatusOK)
					if got := mustGet(t, r, "callback_webhook_url"); got != callback {
						t.Errorf("REST shows %v, GraphQL %s", got, callback)
					}
				}},
			{name: "an agent sees an API inbox's webhook URL", token: agent, query: q, vars: H{"id": api},
				want: H{"inbox.webhookURL": "https://hooks.example.com/in"}},
			{name: "an agent does not see the callback URL, as in REST", token: agent, query: q, vars: H{"id": wa},
				want: H{"inbox.callbackWebhookURL": nil}},
		})
	})
}
