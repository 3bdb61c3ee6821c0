package graph_test

import (
	"testing"

	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// GraphQL stores outbound URLs through the same operations as REST, so the
// same configuration-time check refuses localhost and special-purpose
// addresses, naming the input field (issue 10).
func TestGraphQLOutboundURLsAreChecked(t *testing.T) {
	outboundtest.AllowPrivate(t, false)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		api := a.inbox(a.Account, a.Admin, "API", H{"type": "api", "webhook_url": "https://hooks.example.com/in"})
		const (
			createBot   = `mutation($in: AgentBotInput!) { createAgentBot(input: $in) { agentBot { id } userErrors { field message code } } }`
			createInbox = `mutation($in: InboxInput!) { createInbox(input: $in) { inbox { id } userErrors { field message code } } }`
			updateInbox = `mutation($id: ID!, $in: InboxInput!) { updateInbox(id: $id, input: $in) { inbox { id } userErrors { field message code } } }`
			saveKanban  = `mutation($in: KanbanConfigInput!) { saveKanbanConfig(input: $in) { kanbanConfig { webhookURL } userErrors { field message code } } }`
		)
		var cases []gqlCase
		for _, u := range []string{"http://localhost/", "http://169.254.169.254/", "http://100.64.0.1/", "http://[::1]/", "http://[64:ff9b::7f00:1]/"} {
			cases = append(cases,
				gqlCase{name: "agent bot " + u, query: createBot, vars: H{"in": H{"name": "Evil", "outgoingURL": u}},
					code: "INVALID", attrs: []string{"input.outgoingURL"}},
				gqlCase{name: "API inbox create " + u, query: createInbox,
					vars: H{"in": H{"name": "Evil", "channel": H{"type": "api", "webhookURL": u}}},
					code: "INVALID", attrs: []string{"input.channel.webhookURL"}},
				gqlCase{name: "API inbox update " + u, query: updateInbox,
					vars: H{"id": api, "in": H{"channel": H{"type": "api", "webhookURL": u}}},
					code: "INVALID", attrs: []string{"input.channel.webhookURL"}},
				gqlCase{name: "kanban webhook " + u, query: saveKanban, vars: H{"in": H{"webhookURL": u}},
					code: "INVALID", attrs: []string{"input.webhookURL"}},
			)
		}
		cases = append(cases,
			gqlCase{name: "an SMTP host on the loopback", query: createInbox,
				vars: H{"in": H{"name": "Evil", "channel": H{"type": "email", "email": "e@acme.test", "smtp": H{"address": "127.0.0.1"}}}},
				code: "INVALID", attrs: []string{"input.channel.smtp.address"}},
			gqlCase{name: "a public name is accepted", query: saveKanban, vars: H{"in": H{"webhookURL": "https://hooks.example.com/k"}},
				want: H{"saveKanbanConfig.kanbanConfig.webhookURL": "https://hooks.example.com/k"}},
		)
		a.run(t, cases)
	})
}
