package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestInboxMembers(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		u1, agent := a.agent(a.Account)
		u2, _ := a.agent(a.Account)
		u3, _ := a.agent(a.Account)
		outsider, _ := a.user("Outsider")
		accB, adminB := a.otherAccount("Globex")
		strangerB, _ := a.agent(accB)
		inboxB := a.inboxIn(accB, adminB, "B inbox", H{"type": "api"})
		ib := a.apiInbox("Support")

		members := request{method: "GET", path: a.path("/inbox_members/%d", ib)}
		change := func(method string, body any) request {
			return request{method: method, path: a.path("/inbox_members"), body: body}
		}
		set := func(ids ...int) H { return H{"inbox_id": ib, "user_ids": append([]int{}, ids...)} }
		has := func(name string, ids ...int) scenario {
			ids = append([]int{}, ids...)
			return scenario{name: name, request: members, wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": ids}}
		}
		a.run(t, []scenario{
			{
				name:       "an inbox without members answers {payload: []}",
				request:    members,
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "POST adds agents and answers the members as agents (id = user id)",
				request:    change("POST", set(u2, u1)),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.*.id": []int{u1, u2}, "payload.0.role": "agent", "payload.0.account_id": a.Account,
					"payload.0.email": nonEmpty, "payload.0.name": nonEmpty, "payload.0.availability_status": present,
				},
			},
			{
				name:       "POST again adds to the set",
				request:    change("POST", set(u2, u3)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{u1, u2, u3}},
			},
			has("GET lists them", u1, u2, u3),
			{
				name:       "an agent may read the members",
				request:    as(agent, members),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{u1, u2, u3}},
			},
			invalid("POST with a user outside the account is 422 naming user_ids", change("POST", set(u1, outsider)), "user_ids"),
			invalid("POST with another account's user is 422 naming user_ids", change("POST", set(strangerB)), "user_ids"),
			invalid("PATCH with a user outside the account is 422 naming user_ids", change("PATCH", set(a.AdminID, outsider)), "user_ids"),
			invalid("DELETE with a user outside the account is 422 naming user_ids", change("DELETE", set(u1, strangerB)), "user_ids"),
			invalid("POST without inbox_id is 422 naming inbox_id", change("POST", H{"user_ids": []int{u1}}), "inbox_id"),
			invalid("POST without user_ids is 422 naming user_ids", change("POST", H{"inbox_id": ib}), "user_ids"),
			invalid("POST with user_ids that are not ids is 422 naming user_ids", change("POST", H{"inbox_id": ib, "user_ids": []string{"x"}}), "user_ids"),
			status("POST for another account's inbox is 404", change("POST", H{"inbox_id": inboxB, "user_ids": []int{u1}}), http.StatusNotFound),
			status("GET of another account's inbox members is 404", request{method: "GET", path: a.path("/inbox_members/%d", inboxB)}, http.StatusNotFound),
			status("an agent's GET of another account's inbox members is 404", as(agent, request{method: "GET", path: a.path("/inbox_members/%d", inboxB)}), http.StatusNotFound),
			status("GET of an unknown inbox's members is 404", request{method: "GET", path: a.path("/inbox_members/999999")}, http.StatusNotFound),
			status("an agent's POST is 403", as(agent, change("POST", set(a.AdminID))), http.StatusForbidden),
			status("an agent's PATCH is 403", as(agent, change("PATCH", set(u1))), http.StatusForbidden),
			status("an agent's DELETE is 403", as(agent, change("DELETE", set(u1, u2, u3))), http.StatusForbidden),
			status("an agent's DELETE /inbox_members/{inbox_id} is 403",
				as(agent, request{method: "DELETE", path: a.path("/inbox_members/%d", ib), body: H{"user_ids": []int{u1}}}), http.StatusForbidden),
			has("the refused changes changed nothing", u1, u2, u3),
			{
				name:       "PATCH replaces the set",
				request:    change("PATCH", set(u3, a.AdminID)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{a.AdminID, u3}, "payload.0.role": "administrator"},
			},
			has("GET lists the replaced set", a.AdminID, u3),
			{
				name:       "DELETE /inbox_members with {inbox_id, user_ids} removes them and answers 200 with no body",
				request:    change("DELETE", set(u3)),
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if len(r.Body) != 0 {
						t.Errorf("want an empty body, got %s", r.Body)
					}
				},
			},
			has("GET lists the rest", a.AdminID),
			{
				name:       "DELETE /inbox_members/{inbox_id} with {user_ids} removes them too",
				request:    request{method: "DELETE", path: a.path("/inbox_members/%d", ib), body: H{"inbox_id": ib, "user_ids": []int{a.AdminID}}},
				wantStatus: http.StatusOK,
			},
			has("the inbox has no members left"),
			{
				name:       "PATCH with user_ids as a comma list (form clients) works",
				request:    change("PATCH", H{"inbox_id": ib, "user_ids": itoa(u1) + "," + itoa(u2)}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{u1, u2}},
			},
			{
				name:       "PATCH with an empty list empties the set",
				request:    change("PATCH", set()),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "the other account's inbox has no members from here",
				request:    request{method: "GET", path: accountPath(accB, "/inbox_members/%d", inboxB), token: adminB},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
		})
	})
}
