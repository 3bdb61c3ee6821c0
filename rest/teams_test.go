package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of teams and team members (spec §2 Team, §4 Teams;
// chatwoot-shapes §8).

func TestTeams(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		accB, adminB := a.otherAccount("Globex")
		teamB := a.mustDo(request{method: "POST", path: accountPath(accB, "/teams"), token: adminB, body: H{"name": "b team"}}, http.StatusOK).int(t, "id")

		teams := a.path("/teams")
		create := func(body any) request { return request{method: "POST", path: teams, body: body} }
		one := func(method string, id int, body any) request {
			return request{method: method, path: a.path("/teams/%d", id), body: body}
		}
		ib := a.apiInbox("API")
		alice, _ := a.contact(ib, H{"name": "Alice"})
		var sales, support, conv int
		a.run(t, []scenario{
			{
				name:       "GET /teams is a bare empty array at first",
				request:    request{method: "GET", path: teams},
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 0},
			},
			{
				name:       "create lower-cases the name and stores every field",
				request:    create(H{"name": "Sales Team", "description": "Closes deals", "allow_auto_assign": false}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "name": "sales team", "description": "Closes deals", "allow_auto_assign": false,
					"account_id": a.Account, "is_member": false,
				},
				check: func(t *testing.T, r *response) { sales = r.int(t, "id") },
			},
			{
				name:       "create with the body wrapped in team, and defaults",
				request:    create(H{"team": H{"name": "support"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "support", "description": "", "allow_auto_assign": true},
				check: func(t *testing.T, r *response) {
					support = r.int(t, "id")
					conv = a.mustDoT(t, request{method: "POST", path: a.path("/conversations"), body: H{
						"inbox_id": ib, "contact_id": alice, "team_id": support}}, http.StatusOK).int(t, "id")
				},
			},
			invalid("a name already used (in another case) is 422 naming name", create(H{"name": "SALES team"}), "name"),
			invalid("a blank name is 422 naming name", create(H{"name": "  "}), "name"),
			invalid("no name is 422 naming name", create(H{"description": "nameless"}), "name"),
			invalid("allow_auto_assign that is not a boolean is 422 naming it", create(H{"name": "x", "allow_auto_assign": "often"}), "allow_auto_assign"),
			status("an agent's create is 403", as(agent, create(H{"name": "agents only"})), http.StatusForbidden),
			{
				name:       "a name used in another account is free here",
				request:    create(H{"name": "B Team"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "b team"},
			},
			{
				name:       "the list holds the created teams only",
				request:    request{method: "GET", path: teams},
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.name": []string{"sales team", "support", "b team"}, "0.is_member": false},
			},
			{
				name:       "an agent may list teams",
				request:    as(agent, request{method: "GET", path: teams}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 3},
			},
		})
		if sales == 0 || support == 0 {
			t.Fatal("no teams to go on with")
		}
		a.run(t, []scenario{
			{
				name:       "show answers the team unwrapped",
				request:    one("GET", sales, nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": sales, "name": "sales team", "is_member": false},
			},
			{
				name:       "an agent may show a team",
				request:    as(agent, one("GET", sales, nil)),
				wantStatus: http.StatusOK,
			},
			status("show of an unknown team is 404", one("GET", 999999, nil), http.StatusNotFound),
			status("show of another account's team is 404", one("GET", teamB, nil), http.StatusNotFound),
			status("an agent's show of another account's team is 404", as(agent, one("GET", teamB, nil)), http.StatusNotFound),
			status("PATCH of another account's team is 404", one("PATCH", teamB, H{"name": "hijacked"}), http.StatusNotFound),
			status("DELETE of another account's team is 404", one("DELETE", teamB, nil), http.StatusNotFound),
			status("an agent's PATCH is 403", as(agent, one("PATCH", sales, H{"description": "agent was here"})), http.StatusForbidden),
			status("an agent's DELETE is 403", as(agent, one("DELETE", sales, nil)), http.StatusForbidden),
			{
				name:       "a conversation may be created in a team",
				request:    request{method: "GET", path: a.path("/conversations/%d", conv)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"team_id": support},
			},
			{
				name:       "PATCH changes the sent fields",
				request:    one("PATCH", sales, H{"name": "Inside Sales", "allow_auto_assign": true}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": sales, "name": "inside sales", "description": "Closes deals", "allow_auto_assign": true},
			},
			{
				name:       "PUT changes the description",
				request:    one("PUT", sales, H{"description": "Inbound leads"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "inside sales", "description": "Inbound leads"},
			},
			{
				name:       "PATCH keeping its own name in another case is not a clash",
				request:    one("PATCH", sales, H{"name": "INSIDE SALES"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "inside sales"},
			},
			invalid("PATCH to another team's name is 422 naming name", one("PATCH", sales, H{"name": "Support"}), "name"),
			invalid("PATCH to a blank name is 422 naming name", one("PATCH", sales, H{"name": ""}), "name"),
			status("PATCH of an unknown team is 404", one("PATCH", 999999, H{"name": "nobody"}), http.StatusNotFound),
			{
				name:       "the refused writes changed nothing",
				request:    one("GET", sales, nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "inside sales", "description": "Inbound leads", "allow_auto_assign": true},
			},
			{
				name:       "DELETE answers 200 with no body",
				request:    one("DELETE", support, nil),
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if len(r.Body) != 0 {
						t.Errorf("want an empty body, got %s", r.Body)
					}
				},
			},
			status("the deleted team is 404", one("GET", support, nil), http.StatusNotFound),
			{
				name:       "its conversation stays, without a team",
				request:    request{method: "GET", path: a.path("/conversations/%d", conv)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"team_id": nil},
			},
			status("deleting it again is 404", one("DELETE", support, nil), http.StatusNotFound),
			{
				name:       "its name is free again",
				request:    create(H{"name": "Support"}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "the other account's team is untouched",
				request:    as(adminB, request{method: "GET", path: accountPath(accB, "/teams/%d", teamB)}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "b team"},
			},
		})
	})
}

func TestTeamMembers(t *testing.T) {
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
		teamB := a.mustDo(request{method: "POST", path: accountPath(accB, "/teams"), token: adminB, body: H{"name": "b team"}}, http.StatusOK).int(t, "id")
		team := a.team("sales")
		other := a.team("support")

		members := a.path("/teams/%d/team_members", team)
		get := request{method: "GET", path: members}
		change := func(method string, ids ...int) request {
			return request{method: method, path: members, body: H{"user_ids": append([]int{}, ids...)}}
		}
		has := func(name string, ids ...int) scenario {
			return scenario{name: name, request: get, wantStatus: http.StatusOK, want: map[string]any{"*.id": append([]int{}, ids...)}}
		}
		a.run(t, []scenario{
			{
				name:       "GET of a team without members is a bare empty array",
				request:    get,
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 0},
			},
			{
				name:       "POST adds agents and answers them (id = user id)",
				request:    change("POST", u2, u1),
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.id": []int{u1, u2}, "0.role": "agent", "0.email": nonEmpty, "0.account_id": a.Account},
			},
			{
				name:       "POST again answers only the newly added",
				request:    change("POST", u2, u3),
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.id": []int{u3}},
			},
			{
				name:       "POST of members already there answers an empty array",
				request:    change("POST", u1),
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 0},
			},
			has("GET lists every member", u1, u2, u3),
			{
				name:       "an agent may read the members",
				request:    as(agent, get),
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.id": []int{u1, u2, u3}},
			},
			{
				name:       "is_member tells an agent it is in the team",
				request:    as(agent, request{method: "GET", path: a.path("/teams")}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.is_member": []bool{true, false}},
			},
			{
				name:       "is_member is false for the administrator, who is not",
				request:    request{method: "GET", path: a.path("/teams/%d", team)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"is_member": false},
			},
			invalid("POST with a user outside the account is 422 naming user_ids", change("POST", a.AdminID, outsider), "user_ids"),
			invalid("POST with another account's agent is 422 naming user_ids", change("POST", strangerB), "user_ids"),
			invalid("PATCH with a user outside the account is 422 naming user_ids", change("PATCH", a.AdminID, outsider), "user_ids"),
			invalid("DELETE with a user outside the account is 422 naming user_ids", change("DELETE", u1, strangerB), "user_ids"),
			invalid("POST without user_ids is 422 naming user_ids", request{method: "POST", path: members, body: H{}}, "user_ids"),
			invalid("POST with user_ids that are not ids is 422 naming user_ids", request{method: "POST", path: members, body: H{"user_ids": []string{"x"}}}, "user_ids"),
			status("POST to another account's team is 404", request{method: "POST", path: a.path("/teams/%d/team_members", teamB), body: H{"user_ids": []int{u1}}}, http.StatusNotFound),
			status("GET of another account's team's members is 404", request{method: "GET", path: a.path("/teams/%d/team_members", teamB)}, http.StatusNotFound),
			status("an agent's GET of another account's team's members is 404", as(agent, request{method: "GET", path: a.path("/teams/%d/team_members", teamB)}), http.StatusNotFound),
			status("GET of an unknown team's members is 404", request{method: "GET", path: a.path("/teams/999999/team_members")}, http.StatusNotFound),
			status("an agent's POST is 403", as(agent, change("POST", a.AdminID)), http.StatusForbidden),
			status("an agent's PATCH is 403", as(agent, change("PATCH", u1)), http.StatusForbidden),
			status("an agent's DELETE is 403", as(agent, change("DELETE", u1, u2, u3)), http.StatusForbidden),
			has("the refused changes changed nothing", u1, u2, u3),
			{
				name:       "PATCH replaces the set and answers every member",
				request:    change("PATCH", u3, a.AdminID),
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.id": []int{a.AdminID, u3}, "0.role": "administrator"},
			},
			has("GET lists the replaced set", a.AdminID, u3),
			{
				name:       "now the administrator is_member",
				request:    request{method: "GET", path: a.path("/teams/%d", team)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"is_member": true},
			},
			{
				name:       "DELETE removes the sent members and answers 200 with no body",
				request:    change("DELETE", u3),
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if len(r.Body) != 0 {
						t.Errorf("want an empty body, got %s", r.Body)
					}
				},
			},
			has("GET lists the rest", a.AdminID),
			{
				name:       "PATCH with an empty list empties the team",
				request:    change("PATCH"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 0},
			},
			{
				name:       "the other team was never touched",
				request:    request{method: "GET", path: a.path("/teams/%d/team_members", other)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 0},
			},
			{
				name:       "the other account's team has no members from here",
				request:    as(adminB, request{method: "GET", path: accountPath(accB, "/teams/%d/team_members", teamB)}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 0},
			},
		})
	})
}
