package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConversationVisibility: agents see and act on conversations only in
// inboxes they are members of; administrators see all; another account's
// conversations are 404.
func TestConversationVisibility(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		x := a.apiInbox("X")
		y := a.apiInbox("Y")
		a.addInboxMembers(y, agentID)
		alice, aliceX := a.contact(x, H{"name": "Alice"})
		bob, bobY := a.contact(y, H{"name": "Bob"})
		inX := a.startConversation(a.Account, "", H{"source_id": aliceX, "inbox_id": x, "message": H{"content": "secret X"}})
		inY := a.startConversation(a.Account, "", H{"source_id": bobY, "inbox_id": y})
		accB, adminB := a.otherAccount("Globex")
		ibB := a.inboxIn(accB, adminB, "B", H{"type": "api"})
		dave, _ := a.contactIn(accB, adminB, ibB, H{"name": "Dave"})
		var convsB []int
		for i := 0; i < 5; i++ {
			convsB = append(convsB, a.startConversation(accB, adminB, H{"inbox_id": ibB, "contact_id": dave}))
		}
		onlyB := convsB[4] // display id 5: no conversation of A has it

		conv := func(method string, id int, suffix string, body any) request {
			return request{method: method, path: a.path("/conversations/%d%s", id, suffix), body: body}
		}
		list := request{method: "GET", path: a.path("/conversations")}
		a.run(t, []scenario{
			{
				name:       "the administrator sees every inbox's conversations",
				request:    list,
				wantStatus: http.StatusOK,
				want:       map[string]any{"data.payload.*.id": []int{inY, inX}, "data.meta.all_count": 2},
			},
			{
				name:       "an agent does not see the conversations of an inbox it is not a member of",
				request:    as(agent, list),
				wantStatus: http.StatusOK,
				want:       map[string]any{"data.payload.*.id": []int{inY}, "data.meta.all_count": 1},
				check:      bodyLacks("secret X"),
			},
			status("an agent's GET of such a conversation is 404", as(agent, conv("GET", inX, "", nil)), http.StatusNotFound),
			status("an agent's toggle_status of it is 404", as(agent, conv("POST", inX, "/toggle_status", H{"status": "resolved"})), http.StatusNotFound),
			status("an agent's label read of it is 404", as(agent, conv("GET", inX, "/labels", nil)), http.StatusNotFound),
			status("an agent's label write of it is 404", as(agent, conv("POST", inX, "/labels", H{"labels": []string{"hijacked"}})), http.StatusNotFound),
			status("an agent creating a conversation in that inbox is 403",
				as(agent, request{method: "POST", path: a.path("/conversations"), body: H{"inbox_id": x, "contact_id": alice, "message": H{"content": "hi"}}}), http.StatusForbidden),
			// The agent reads no link of that inbox: the source id is unknown
			// to it, as one that does not exist.
			invalid("an agent creating one there by source_id is 422, as for an unknown source id",
				as(agent, request{method: "POST", path: a.path("/conversations"), body: H{"source_id": aliceX, "inbox_id": x}}), "source_id"),
			{
				name:       "the agent's refused actions changed nothing",
				request:    conv("GET", inX, "", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "open", "labels": []any{}},
				check: func(t *testing.T, r *response) {
					expect(t, a.mustDoT(t, request{method: "GET", path: a.path("/conversations?status=all")}, http.StatusOK),
						map[string]any{"data.meta.all_count": 2})
				},
			},
			{
				name:       "an agent sees a conversation of its inbox",
				request:    as(agent, conv("GET", inY, "", nil)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": inY, "meta.sender.id": bob},
			},
			{
				name:       "an agent may create a conversation in its inbox",
				request:    as(agent, request{method: "POST", path: a.path("/conversations"), body: H{"inbox_id": y, "contact_id": bob, "message": H{"content": "from the agent"}}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 3, "inbox_id": y, "messages.0.content": "from the agent", "messages.0.sender_id": agentID, "messages.0.sender_type": "User"},
			},
			{
				name:       "an agent may toggle the status of a conversation of its inbox",
				request:    as(agent, conv("POST", inY, "/toggle_status", nil)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "resolved"},
			},
			{
				name:       "an agent may label a conversation of its inbox",
				request:    as(agent, conv("POST", inY, "/labels", H{"labels": []string{"vip"}})),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []string{"vip"}},
			},
			{
				name:       "the administrator makes the agent a member of X",
				request:    request{method: "POST", path: a.path("/inbox_members"), body: H{"inbox_id": x, "user_ids": []int{agentID}}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "now the agent sees X's conversation in the list",
				request:    as(agent, list),
				wantStatus: http.StatusOK,
				want:       map[string]any{"data.payload.*.id": []int{3, inX}},
			},
			{
				name:       "and may open it",
				request:    as(agent, conv("GET", inX, "", nil)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": inX, "messages.0.content": "secret X"},
			},
			{
				name:       "and create one there",
				request:    as(agent, request{method: "POST", path: a.path("/conversations"), body: H{"source_id": aliceX, "inbox_id": x, "contact_id": alice}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 4},
			},
			{
				name:       "the administrator removes the agent from X again",
				request:    request{method: "DELETE", path: a.path("/inbox_members"), body: H{"inbox_id": x, "user_ids": []int{agentID}}},
				wantStatus: http.StatusOK,
			},
			status("and X's conversation is 404 to the agent again", as(agent, conv("GET", inX, "", nil)), http.StatusNotFound),
			status("another account's conversation id is 404 on show", conv("GET", onlyB, "", nil), http.StatusNotFound),
			status("another account's conversation id is 404 on toggle_status", conv("POST", onlyB, "/toggle_status", H{"status": "resolved"}), http.StatusNotFound),
			status("another account's conversation id is 404 on labels read", conv("GET", onlyB, "/labels", nil), http.StatusNotFound),
			status("another account's conversation id is 404 on labels write", conv("POST", onlyB, "/labels", H{"labels": []string{"x"}}), http.StatusNotFound),
			status("another account's conversation id is 404 to an agent too", as(agent, conv("GET", onlyB, "", nil)), http.StatusNotFound),
			{
				name:       "the other account's conversation is untouched",
				request:    as(adminB, request{method: "GET", path: accountPath(accB, "/conversations/%d", onlyB)}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "open", "labels": []any{}, "meta.sender.id": dave},
			},
			{
				name:       "the same display id in this account is this account's conversation",
				request:    conv("GET", 1, "", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.sender.id": alice},
			},
		})
	})
}
