package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestConversationList(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		inA := a.apiInbox("A")
		inB := a.apiInbox("B")
		a.addInboxMembers(inA, agentID)
		alice, _ := a.contact(inA, H{"name": "Alice"})
		bob, _ := a.contact(inB, H{"name": "Bob"})
		start := func(body H) int { return a.startConversation(a.Account, "", body) }
		// In A: 24 open and unassigned, 2 open assigned to the administrator.
		var unassignedA []int
		for i := 0; i < 24; i++ {
			unassignedA = append(unassignedA, start(H{"inbox_id": inA, "contact_id": alice}))
		}
		mine1 := start(H{"inbox_id": inA, "contact_id": alice, "assignee_id": a.AdminID})
		mine2 := start(H{"inbox_id": inA, "contact_id": alice, "assignee_id": a.AdminID})
		// In B: one open assigned to the agent, one each resolved, pending, snoozed.
		agentsB := start(H{"inbox_id": inB, "contact_id": bob, "assignee_id": agentID})
		resolved := start(H{"inbox_id": inB, "contact_id": bob, "status": "resolved"})
		pending := start(H{"inbox_id": inB, "contact_id": bob, "status": "pending"})
		snoozed := start(H{"inbox_id": inB, "contact_id": bob, "status": "snoozed"})
		for _, id := range []int{unassignedA[0], agentsB, resolved} {
			a.mustDo(request{method: "POST", path: a.path("/conversations/%d/labels", id), body: H{"labels": []string{"vip"}}}, http.StatusOK)
		}
		a.mustDo(request{method: "POST", path: a.path("/conversations/%d/labels", unassignedA[1]), body: H{"labels": []string{"vip-plus"}}}, http.StatusOK)
		accB, adminB := a.otherAccount("Globex")
		ibB := a.inboxIn(accB, adminB, "B", H{"type": "api"})
		dave, _ := a.contactIn(accB, adminB, ibB, H{"name": "Dave"})
		a.startConversation(accB, adminB, H{"inbox_id": ibB, "contact_id": dave})

		list := func(query string) request { return request{method: "GET", path: a.path("/conversations%s", query)} }
		meta := func(mine, assigned, unassigned, all int) map[string]any {
			return map[string]any{"data.meta": H{"mine_count": mine, "assigned_count": assigned, "unassigned_count": unassigned, "all_count": all}}
		}
		with := func(m map[string]any, kv ...any) map[string]any {
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[0+i].(string)] = kv[i+1]
			}
			return m
		}
		// Newest activity first: the last created comes first.
		newestOpen := []int{agentsB, mine2, mine1}
		for i := len(unassignedA) - 1; i >= 0; i-- {
			newestOpen = append(newestOpen, unassignedA[i])
		}
		a.run(t, []scenario{
			{
				name:       "the default lists open conversations in Chatwoot's envelope, 25 a page, newest activity first",
				request:    list(""),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.#", 25, "data.payload.*.id", newestOpen[:25]),
			},
			{
				name:       "page=2 has the rest",
				request:    list("?page=2"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.*.id", newestOpen[25:]),
			},
			{
				name:       "page=3 is empty, still 200",
				request:    list("?page=3"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload", []any{}),
			},
			{
				name:       "status=open is the default",
				request:    list("?status=open"),
				wantStatus: http.StatusOK,
				want:       meta(2, 3, 24, 27),
			},
			{
				name:       "status=resolved",
				request:    list("?status=resolved"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 1, 1), "data.payload.*.id", []int{resolved}, "data.payload.0.status", "resolved"),
			},
			{
				name:       "status=pending",
				request:    list("?status=pending"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 1, 1), "data.payload.*.id", []int{pending}),
			},
			{
				name:       "status=snoozed",
				request:    list("?status=snoozed"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 1, 1), "data.payload.*.id", []int{snoozed}),
			},
			{
				name:       "status=all counts every status",
				request:    list("?status=all"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 27, 30), "data.payload.#", 25),
			},
			invalid("an unknown status is 422 naming status", list("?status=closed"), "status"),
			{
				name:       "inbox_id narrows to one inbox",
				request:    list(fmt.Sprintf("?inbox_id=%d", inB)),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 0, 1), "data.payload.*.id", []int{agentsB}),
			},
			{
				name:       "inbox_id with status=all",
				request:    list(fmt.Sprintf("?inbox_id=%d&status=all", inB)),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 3, 4), "data.payload.*.id", []int{snoozed, pending, resolved, agentsB}),
			},
			{
				name:       "another account's inbox_id finds nothing",
				request:    list(fmt.Sprintf("?inbox_id=%d", ibB)),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 0, 0), "data.payload", []any{}),
			},
			invalid("a non-numeric inbox_id is 422 naming inbox_id", list("?inbox_id=first"), "inbox_id"),
			{
				name:       "labels[] narrows to the conversations carrying the label (exact title)",
				request:    list("?labels[]=vip"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 1, 2), "data.payload.*.id", []int{agentsB, unassignedA[0]}),
			},
			{
				name:       "labels[] with status=all",
				request:    list("?labels[]=vip&status=all"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 2, 3), "data.payload.*.id", []int{resolved, agentsB, unassignedA[0]}),
			},
			{
				name:       "labels[]=a&labels[]=b keeps conversations with any of them (Chatwoot's tagged_with any)",
				request:    list("?labels[]=vip&labels[]=vip-plus"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 2, 3), "data.payload.*.id", []int{agentsB, unassignedA[1], unassignedA[0]}),
			},
			{
				name:       "labels=a,b (comma-separated) is read as the same list",
				request:    list("?labels=vip,vip-plus"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 2, 3), "data.payload.*.id", []int{agentsB, unassignedA[1], unassignedA[0]}),
			},
			{
				name:       "labels[] with a label nobody carries is empty",
				request:    list("?labels[]=nobody"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 0, 0), "data.payload", []any{}),
			},
			{
				name:       "assignee_type=me lists the viewer's",
				request:    list("?assignee_type=me"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.*.id", []int{mine2, mine1}),
			},
			{
				name:       "assignee_type=assigned lists every assigned one",
				request:    list("?assignee_type=assigned"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.*.id", []int{agentsB, mine2, mine1}),
			},
			{
				name:       "assignee_type=unassigned lists the unassigned ones",
				request:    list("?assignee_type=unassigned"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.#", 24, "data.payload.0.id", unassignedA[23]),
			},
			{
				name:       "assignee_type=all is the default",
				request:    list("?assignee_type=all"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.#", 25),
			},
			invalid("an unknown assignee_type is 422 naming assignee_type", list("?assignee_type=someone"), "assignee_type"),
			invalid("a non-numeric page is 422 naming page", list("?page=two"), "page"),
			{
				name:       "an agent sees only the conversations of its inboxes, with counts of them",
				request:    as(agent, list("")),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 2, 24, 26), "data.payload.#", 25),
				check: func(t *testing.T, r *response) {
					expect(t, r, map[string]any{"data.payload.*.id": excludes(agentsB)})
					r2 := a.mustDoT(t, as(agent, list("?page=2")), http.StatusOK)
					expect(t, r2, map[string]any{"data.payload.*.id": []int{unassignedA[0]}})
				},
			},
			{
				name:       "an agent's assignee_type=me is its own (none in its inboxes)",
				request:    as(agent, list("?assignee_type=me")),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 2, 24, 26), "data.payload", []any{}),
			},
			{
				name:       "an agent filtering on an inbox it is not a member of gets nothing",
				request:    as(agent, list(fmt.Sprintf("?inbox_id=%d&status=all", inB))),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 0, 0), "data.payload", []any{}),
			},
			{
				name:       "list items carry Chatwoot's conversation fields",
				request:    list(fmt.Sprintf("?inbox_id=%d", inB)),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"data.payload.0.id": agentsB, "data.payload.0.inbox_id": inB, "data.payload.0.status": "open",
					"data.payload.0.labels": []string{"vip"}, "data.payload.0.meta.sender.id": bob,
					"data.payload.0.assignee_id": agentID, "data.payload.0.uuid": isUUID, "data.payload.0.messages": []any{},
				},
			},
		})
	})
}
