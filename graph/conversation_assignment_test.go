package graph_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestGraphQLAssignmentAndPriority: REST's assignments and toggle_priority
// as mutations, through the same operations.
func TestGraphQLAssignmentAndPriority(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		cv := a.conversationWith(t, ib, a.contact(a.Admin, ib, H{"name": "Ann"}))
		agentID, _ := a.agentUser(a.Account)
		team := mustGet(t, a.gqlOK(t, `mutation { createTeam(input: {name: "support"}) { team { databaseId } } }`, nil).Data,
			"createTeam.team.databaseId")
		assign := fmt.Sprintf(`mutation($a: ID, $t: ID, $u: Boolean, $r: Boolean) { assignConversation(displayID: %d,
			assigneeID: $a, teamID: $t, unassign: $u, removeTeam: $r) {
			conversation { assignee { databaseId } team { name } } userErrors { field code } } }`, cv)
		priority := fmt.Sprintf(`mutation($p: String) { setConversationPriority(displayID: %d, priority: $p) {
			conversation { priority } userErrors { field code } } }`, cv)
		a.run(t, []gqlCase{
			{name: "assign an agent and a team", query: assign, vars: H{"a": agentID, "t": team},
				want: H{"assignConversation.conversation.assignee.databaseId": agentID, "assignConversation.conversation.team.name": "support"}},
			{name: "unassign keeps the team", query: assign, vars: H{"u": true},
				want: H{"assignConversation.conversation.assignee": nil, "assignConversation.conversation.team.name": "support"}},
			{name: "nothing to assign", query: assign, vars: H{}, code: "INVALID",
				want: H{"assignConversation.conversation": nil, "assignConversation.userErrors.*.field": []any{[]any{"assigneeID"}, []any{"teamID"}}}},
			{name: "an id and its clearing at once", query: assign, vars: H{"t": team, "r": true}, code: "INVALID",
				want: H{"assignConversation.userErrors.*.field": []any{[]any{"teamID"}}}},
			{name: "set a priority", query: priority, vars: H{"p": "urgent"}, want: H{"setConversationPriority.conversation.priority": "urgent"}},
			{name: "an unknown one", query: priority, vars: H{"p": "critical"}, code: "INVALID",
				want: H{"setConversationPriority.userErrors.*.field": []any{[]any{"priority"}}}},
			{name: "null clears it", query: priority, vars: H{"p": nil}, want: H{"setConversationPriority.conversation.priority": nil}},
		})
	})
}
