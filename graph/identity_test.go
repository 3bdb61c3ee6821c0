package graph_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// GraphQL's updateAgent obeys the identity rule of UpdateAgent (issue 10):
// an administrator of account B may not rename, or change the e-mail of, a
// user who also belongs to account A; the account-scoped fields change.
func TestGraphQLIdentityAcrossAccounts(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		user, _ := a.agentUser(a.Account)
		email := mustGet(t, a.mustREST("GET", fmt.Sprintf("/platform/api/v1/users/%d", user), a.Platform, nil, http.StatusOK), "email")
		_, adminB := a.otherAccount("Globex")
		const (
			create = `mutation($in: AgentInput!) { createAgent(input: $in) { agent { userID role user { name } } userErrors { field message code } } }`
			update = `mutation($id: ID!, $in: AgentInput!) { updateAgent(id: $id, input: $in) { agent { role availability user { name email } } userErrors { field message code } } }`
		)
		a.run(t, []gqlCase{
			{name: "B attaches A's agent by e-mail without renaming them", token: adminB, query: create,
				vars: H{"in": H{"name": "Renamed By B", "email": email, "role": "agent"}},
				want: H{"createAgent.agent.user.name": "Agent"}},
			{name: "B may not rename them", token: adminB, query: update,
				vars: H{"id": user, "in": H{"name": "Hijacked", "role": "administrator"}}, code: "FORBIDDEN"},
			{name: "B may not change their e-mail", token: adminB, query: update,
				vars: H{"id": user, "in": H{"email": "evil@globex.test"}}, code: "FORBIDDEN"},
			{name: "B changes the account-scoped fields", token: adminB, query: update,
				vars: H{"id": user, "in": H{"role": "administrator", "availability": "busy"}},
				want: H{"updateAgent.agent.role": "administrator", "updateAgent.agent.availability": "busy", "updateAgent.agent.user.name": "Agent"}},
			{name: "A sees the name unchanged", query: `{ agents(first: 10) { edges { node { userID user { name } } } } }`,
				check: func(t *testing.T, r *gqlResp) {
					for _, ag := range mustGet(t, r.Data, "agents.edges").([]any) {
						if n := mustGet(t, ag, "node.user.name"); n == "Hijacked" || n == "Renamed By B" {
							t.Errorf("A sees the name %v", n)
						}
					}
				}},
		})
	})
}
