package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// The inbox view's list over GraphQL: REST's GET /conversations through the
// same operation, with Chatwoot's tab counts and the label filter.
func TestConversationListOverGraphQL(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		agent := w.agent(w.Account)
		conv := func(contact int, assignee string, labels ...string) int {
			in := fmt.Sprintf(`{inboxID: %d, contactID: %d%s}`, w.APIInbox, contact, assignee)
			r := w.gqlOK(t, `mutation { createConversation(input: `+in+`) { conversation { displayID } userErrors { field message } } }`, nil)
			display := atoi(t, mustGet(t, r.Data, "createConversation.conversation.displayID"))
			if len(labels) > 0 {
				w.gqlOK(t, fmt.Sprintf(`mutation { setConversationLabels(displayID: %d, labels: ["%s"]) { labels } }`, display, strings.Join(labels, `", "`)), nil)
			}
			return display
		}
		mine := fmt.Sprintf(`, assigneeID: %d`, w.AdminID)
		vip := conv(w.Alice, mine, "vip")
		conv(w.Bob, "", "vip", "billing")
		conv(w.Carol, "")
		q := `query($s: String, $a: String, $l: [String!], $p: Int) { conversationList(status: $s, assigneeType: $a, labels: $l, page: $p) {
			nodes { displayID } page mineCount assignedCount unassignedCount allCount } }`
		counts := func(mineN, assigned, unassigned, all float64) H {
			return H{"conversationList.mineCount": mineN, "conversationList.assignedCount": assigned,
				"conversationList.unassignedCount": unassigned, "conversationList.allCount": all}
		}
		with := func(h H, k string, v any) H { h[k] = v; return h }
		w.run(t, []gqlCase{
			{name: "every open conversation, with the tab counts", query: q, want: counts(1, 1, 2, 3)},
			{name: "any of the labels, counted alike", query: q, vars: H{"l": []any{"vip", "vip"}}, want: counts(1, 1, 1, 2)},
			{name: "mine only: the page narrows, the counts stay", query: q, vars: H{"a": "me"},
				want: with(counts(1, 1, 2, 3), "conversationList.nodes", []any{H{"displayID": float64(vip)}})},
			{name: "an agent outside the inbox sees none", token: agent, query: q, want: with(counts(0, 0, 0, 0), "conversationList.nodes", []any{})},
			{name: "a page past the end is empty", query: q, vars: H{"p": 2},
				want: with(with(counts(1, 1, 2, 3), "conversationList.page", 2.0), "conversationList.nodes", []any{})},
			{name: "an unknown status is refused", query: q, vars: H{"s": "sleeping"}, code: "BAD_USER_INPUT"},
			{name: "an unknown assignee type is refused", query: q, vars: H{"a": "theirs"}, code: "BAD_USER_INPUT"},
			{name: "more than 100 labels are refused", query: q, vars: H{"l": manyLabels(101)}, code: "BAD_USER_INPUT"},
		})
	})
}

func manyLabels(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = fmt.Sprintf("label-%d", i)
	}
	return out
}
