package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestAssignmentsAndPriority: Chatwoot's assignments and toggle_priority,
// through the operations the console uses; each change is a
// conversation_updated, and a change to what is already set tells nobody.
func TestAssignmentsAndPriority(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		cv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
		agentID, _ := a.agent(a.Account)
		team := a.team("support")
		assign := func(body H) request {
			return request{method: "POST", path: a.path("/conversations/%d/assignments", cv), body: body}
		}
		priority := func(p any) request {
			return request{method: "POST", path: a.path("/conversations/%d/toggle_priority", cv), body: H{"priority": p}}
		}
		show := request{method: "GET", path: a.path("/conversations/%d", cv)}
		updated := []events.Kind{events.ConversationUpdated}
		a.run(t, []scenario{
			{name: "assign an agent: answered the agent", request: assign(H{"assignee_id": agentID}), wantStatus: http.StatusOK,
				want: map[string]any{"id": agentID, "role": "agent", "account_id": a.Account}, wantEvents: updated},
			{name: "a team alone: answered the team", request: assign(H{"team_id": team}), wantStatus: http.StatusOK,
				want: map[string]any{"id": team, "name": "support"}, wantEvents: updated},
			{name: "both are kept", request: show, wantStatus: http.StatusOK,
				want: map[string]any{"assignee_id": agentID, "team_id": team}},
			{name: "null unassigns: answered null", request: assign(H{"assignee_id": nil}), wantStatus: http.StatusOK,
				check: bodyIs("null"), wantEvents: updated},
			{name: "and the team stays", request: show, wantStatus: http.StatusOK,
				want: map[string]any{"assignee_id": nil, "team_id": team}},
			invalid("nothing to assign", assign(H{}), "assignee_id", "team_id"),
			invalid("an assignee that is not an id", assign(H{"assignee_id": "ann"}), "assignee_id"),
			invalid("a user of no account here", assign(H{"assignee_id": 999999}), "assignee_id"),
			invalid("a team of no account here", assign(H{"team_id": 999999}), "team_id"),
			{name: "set a priority: an empty 200", request: priority("high"), wantStatus: http.StatusOK,
				check: bodyIs(""), wantEvents: updated},
			{name: "the same again tells nobody", request: priority("high"), wantStatus: http.StatusOK, wantEvents: []events.Kind{}},
			{name: "it is the conversation's", request: show, wantStatus: http.StatusOK, want: map[string]any{"priority": "high"}},
			invalid("an unknown priority", priority("critical"), "priority"),
			{name: "null clears it", request: priority(nil), wantStatus: http.StatusOK, wantEvents: updated},
			{name: "cleared", request: show, wantStatus: http.StatusOK, want: map[string]any{"priority": nil}},
			{name: "another account's conversation is not found", wantStatus: http.StatusNotFound,
				request: request{method: "POST", path: accountPath(a.Account, "/conversations/%d/toggle_priority", 999999), body: H{"priority": "low"}}},
		})
	})
}
