package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of agents (spec §2 Agent, §4 Agents; chatwoot-shapes §7).
// An agent's id is its user's id.

func TestAgents(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		plat := a.mustDo(request{method: "POST", path: "/platform/api/v1/users", token: a.Platform, body: H{
			"name": "Paula Platform", "email": "paula@people.test", "password": "s3cret-pass",
		}}, http.StatusOK)
		paula, paulaToken := plat.int(t, "id"), plat.str(t, "access_token")
		accB, adminB := a.otherAccount("Globex")
		strangerB, _ := a.agent(accB)

		agents := a.path("/agents")
		create := func(body H) request { return request{method: "POST", path: agents, body: body} }
		one := func(method string, id int, body any) request {
			return request{method: method, path: a.path("/agents/%d", id), body: body}
		}
		var invited int
		a.run(t, []scenario{
			{
				name:       "GET /agents is a bare array of agents whose id is the user id",
				request:    request{method: "GET", path: agents},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"*.id": []int{a.AdminID, agentID}, "0.role": "administrator", "0.email": "admin@acme.test",
					"0.name": "Ada Admin", "0.available_name": "Ada Admin", "0.account_id": a.Account,
					"0.availability_status": present, "1.availability_status": "offline", "0.auto_offline": true, "0.confirmed": present,
					"0.provider": "email", "0.thumbnail": present, "1.role": "agent",
				},
			},
			{
				name:       "an agent may list the agents",
				request:    as(agent, request{method: "GET", path: agents}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 2},
			},
			status("Paula's token does not open the account before she is added", as(paulaToken, request{method: "GET", path: a.path("/conversations")}), http.StatusUnauthorized),
			{
				name:       "POST with an existing platform user's e-mail (any case) attaches that user: same id",
				request:    create(H{"name": "Ignored Name", "email": "Paula@People.TEST", "role": "agent"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": paula, "email": "paula@people.test", "name": "Paula Platform", "role": "agent", "account_id": a.Account},
			},
			{
				name:       "the attached user's own token now opens the account",
				request:    as(paulaToken, request{method: "GET", path: a.path("/conversations")}),
				wantStatus: http.StatusOK,
			},
			{
				name: "POST with a new e-mail invites a user: unconfirmed, with the sent availability and auto_offline",
				request: create(H{"name": "Ivy Invite", "email": "ivy@acme.test", "role": "administrator",
					"availability": "busy", "auto_offline": false, "password": "hunter2-hunter2"}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"name": "Ivy Invite", "email": "ivy@acme.test", "role": "administrator", "confirmed": false,
					"availability_status": "busy", "auto_offline": false, "password": absent,
				},
				check: func(t *testing.T, r *response) {
					invited = r.int(t, "id")
					u := a.mustDoT(t, request{method: "GET", path: fmt.Sprintf("/platform/api/v1/users/%d", invited), token: a.Platform}, http.StatusOK)
					expect(t, u, map[string]any{"email": "ivy@acme.test", "confirmed": false, "accounts.0.id": a.Account})
					// The account API never sets a password: the invited user cannot log in.
					if _, err := a.srv.Svc.Login(sys(), "ivy@acme.test", "hunter2-hunter2"); err == nil {
						t.Error("the invited user logged in with the password sent to POST /agents")
					}
					if _, err := a.srv.Svc.Login(sys(), "ivy@acme.test", ""); err == nil {
						t.Error("the invited user logged in without a password")
					}
					row, err := a.srv.DB.Client.User.Get(sys(), invited)
					if err != nil {
						t.Fatal(err)
					}
					if row.PasswordHash != "" {
						t.Error("the invited user has a password")
					}
				},
			},
			invalid("POST with an e-mail already an agent is 422 naming email", create(H{"name": "Again", "email": "PAULA@people.test", "role": "agent"}), "email"),
			invalid("POST with the administrator's e-mail is 422 naming email", create(H{"name": "Ada", "email": "admin@acme.test", "role": "agent"}), "email"),
			invalid("POST with role owner is 422 naming role", create(H{"name": "Owen", "email": "owen@acme.test", "role": "owner"}), "role"),
			invalid("POST without role is 422 naming role", create(H{"name": "Nora", "email": "nora@acme.test"}), "role"),
			invalid("POST without e-mail is 422 naming email", create(H{"name": "Ned", "role": "agent"}), "email"),
			invalid("POST with a malformed e-mail is 422 naming email", create(H{"name": "Ned", "email": "ned", "role": "agent"}), "email"),
			invalid("POST without name is 422 naming name", create(H{"email": "nameless@acme.test", "role": "agent"}), "name"),
			invalid("POST with availability away is 422 naming availability",
				create(H{"name": "Al", "email": "al@acme.test", "role": "agent", "availability": "away"}), "availability"),
			invalid("POST with several errors names them all", create(H{"role": "king"}), "name", "email", "role"),
			status("an agent's POST is 403", as(agent, create(H{"name": "Sneaky", "email": "sneaky@acme.test", "role": "administrator"})), http.StatusForbidden),
			{
				name:       "the refused POSTs added no agent",
				request:    request{method: "GET", path: agents},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"#": 4, "*.email": contains("admin@acme.test", "paula@people.test", "ivy@acme.test"),
				},
			},
			{
				name:       "no platform user was invited by the refused POSTs",
				request:    request{method: "POST", path: "/platform/api/v1/users", token: a.Platform, body: H{"name": "Owen", "email": "owen@acme.test", "password": "s3cret-pass"}},
				wantStatus: http.StatusOK,
			},
		})
		if invited == 0 {
			t.Fatal("no invited agent to go on with")
		}
		a.run(t, []scenario{
			{
				name:       "PATCH changes name, role, availability and auto_offline",
				request:    one("PATCH", agentID, H{"name": "Agent Renamed", "role": "administrator", "availability": "online", "auto_offline": false}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": agentID, "name": "Agent Renamed", "role": "administrator", "availability_status": "online", "auto_offline": false},
			},
			{
				name:       "PUT changes one field and leaves the others",
				request:    one("PUT", agentID, H{"role": "agent"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "Agent Renamed", "role": "agent", "availability_status": "online", "auto_offline": false},
			},
			{
				// Issue 10: an e-mail change is refused (403) instead of
				// ignored, so the client learns where e-mails change.
				name:       "PATCH refuses an e-mail change: it is the platform user's own",
				request:    one("PATCH", paula, H{"email": "hijack@evil.test", "availability": "busy"}),
				wantStatus: http.StatusForbidden,
			},
			{
				name:       "PATCH with her current e-mail is no change and passes",
				request:    one("PATCH", paula, H{"email": "paula@people.test", "availability": "busy"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"email": "paula@people.test", "availability_status": "busy"},
			},
			invalid("PATCH with availability away is 422 naming availability", one("PATCH", agentID, H{"availability": "away"}), "availability"),
			invalid("PATCH with role owner is 422 naming role", one("PATCH", agentID, H{"role": "owner"}), "role"),
			invalid("PATCH with a blank name is 422 naming name", one("PATCH", agentID, H{"name": " "}), "name"),
			invalid("PATCH with auto_offline that is not a boolean is 422 naming auto_offline", one("PATCH", agentID, H{"auto_offline": "sometimes"}), "auto_offline"),
			status("PATCH of a user who is no agent here is 404", one("PATCH", strangerB, H{"name": "Hijacked"}), http.StatusNotFound),
			status("PATCH of an unknown id is 404", one("PATCH", 999999, H{"name": "Nobody"}), http.StatusNotFound),
			status("DELETE of another account's agent is 404", one("DELETE", strangerB, nil), http.StatusNotFound),
			status("an agent's PATCH of itself to administrator is 403", as(agent, one("PATCH", agentID, H{"role": "administrator"})), http.StatusForbidden),
			status("an agent's PATCH of another agent is 403", as(agent, one("PATCH", paula, H{"name": "Changed"})), http.StatusForbidden),
			status("an agent's DELETE is 403", as(agent, one("DELETE", a.AdminID, nil)), http.StatusForbidden),
			{
				name:       "the refused writes changed nothing",
				request:    request{method: "GET", path: agents},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"#": 4, "*.id": []int{a.AdminID, agentID, paula, invited},
					"1.name": "Agent Renamed", "1.role": "agent", "1.availability_status": "online",
					"2.name": "Paula Platform", "3.role": "administrator",
				},
			},
			{
				name:       "the other account's agent is untouched",
				request:    as(adminB, request{method: "GET", path: accountPath(accB, "/agents")}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 2, "1.id": strangerB},
			},
		})
	})
}

// TestAgentAdministrators: an account keeps at least one administrator.
func TestAgentAdministrators(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, _ := a.agent(a.Account)
		one := func(method string, id int, body any) request {
			return request{method: method, path: a.path("/agents/%d", id), body: body}
		}
		a.run(t, []scenario{
			invalid("demoting the last administrator is 422 naming role", one("PATCH", a.AdminID, H{"role": "agent"}), "role"),
			invalid("deleting the last administrator is 422 naming role", one("DELETE", a.AdminID, nil), "role"),
			{
				name:       "the last administrator is still one",
				request:    request{method: "GET", path: a.path("/agents")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"0.id": a.AdminID, "0.role": "administrator"},
			},
			{
				name:       "PATCH role administrator on the last administrator is fine",
				request:    one("PATCH", a.AdminID, H{"role": "administrator", "availability": "online"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"role": "administrator"},
			},
			{
				name:       "promote the agent",
				request:    one("PATCH", agentID, H{"role": "administrator"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"role": "administrator"},
			},
			{
				name:       "with two administrators, demoting one is fine",
				request:    one("PATCH", agentID, H{"role": "agent"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"role": "agent"},
			},
			invalid("and then the other is the last again", one("PATCH", a.AdminID, H{"role": "agent"}), "role"),
			{
				name:       "promote the agent again",
				request:    one("PATCH", agentID, H{"role": "administrator"}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "with two administrators, deleting one is fine",
				request:    one("DELETE", agentID, nil),
				wantStatus: http.StatusOK,
			},
			invalid("and deleting the remaining one is 422 again", one("DELETE", a.AdminID, nil), "role"),
		})
	})
}

// TestAgentDelete: DELETE removes the membership (and the inbox and team
// memberships), never the platform user.
func TestAgentDelete(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		goner, gonerToken := a.agent(a.Account)
		stays, _ := a.agent(a.Account)
		accB, _ := a.otherAccount("Globex")
		a.member(accB, goner, "agent") // goner is also an agent of another account
		ib := a.apiInbox("API")
		a.addInboxMembers(ib, goner, stays)
		team := a.team("sales")
		a.mustDo(request{method: "POST", path: a.path("/teams/%d/team_members", team), body: H{"user_ids": []int{goner, stays}}}, http.StatusOK)
		alice, _ := a.contact(ib, H{"name": "Alice"})
		conv := a.startConversation(a.Account, "", H{"inbox_id": ib, "contact_id": alice, "assignee_id": goner})

		a.run(t, []scenario{
			{
				name:       "the agent's token works before",
				request:    as(gonerToken, request{method: "GET", path: a.path("/conversations")}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "DELETE answers 200 with no body",
				request:    request{method: "DELETE", path: a.path("/agents/%d", goner)},
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if len(r.Body) != 0 {
						t.Errorf("want an empty body, got %s", r.Body)
					}
				},
			},
			{
				name:       "the agent is gone from the list",
				request:    request{method: "GET", path: a.path("/agents")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.id": []int{a.AdminID, stays}},
			},
			status("deleting it again is 404", request{method: "DELETE", path: a.path("/agents/%d", goner)}, http.StatusNotFound),
			status("PATCH of the removed agent is 404", request{method: "PATCH", path: a.path("/agents/%d", goner), body: H{"name": "Back"}}, http.StatusNotFound),
			{
				name:       "the platform user still exists, now only in the other account",
				request:    request{method: "GET", path: fmt.Sprintf("/platform/api/v1/users/%d", goner), token: a.Platform},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": goner, "accounts.*.id": []int{accB}},
			},
			status("the removed user's token is 401 on the account", as(gonerToken, request{method: "GET", path: a.path("/conversations")}), http.StatusUnauthorized),
			{
				name:       "the removed user's token still opens the other account",
				request:    as(gonerToken, request{method: "GET", path: accountPath(accB, "/conversations")}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "the removed agent left the inbox",
				request:    request{method: "GET", path: a.path("/inbox_members/%d", ib)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{stays}},
			},
			{
				name:       "the removed agent left the team",
				request:    request{method: "GET", path: a.path("/teams/%d/team_members", team)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.id": []int{stays}},
			},
			{
				name:       "the removed agent's conversations are unassigned",
				request:    request{method: "GET", path: a.path("/conversations/%d", conv)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"assignee_id": nil},
			},
			{
				name:       "the user can be added back with the same id",
				request:    request{method: "POST", path: a.path("/agents"), body: H{"name": "Back", "email": emailOf(t, a, goner), "role": "agent"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": goner},
			},
		})
	})
}

// emailOf is a platform user's e-mail.
func emailOf(t *testing.T, a *app, userID int) string {
	t.Helper()
	return a.mustDoT(t, request{method: "GET", path: fmt.Sprintf("/platform/api/v1/users/%d", userID), token: a.Platform}, http.StatusOK).str(t, "email")
}

// TestAgentRemovedByPlatform: a user the platform API removes from the
// account loses its inboxes, teams and assignments there too, so being
// added back later grants nothing of the old access.
func TestAgentRemovedByPlatform(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		userID, token := a.agent(a.Account)
		ib := a.apiInbox("API")
		a.addInboxMembers(ib, userID)
		team := a.team("sales")
		a.mustDo(request{method: "POST", path: a.path("/teams/%d/team_members", team), body: H{"user_ids": []int{userID}}}, http.StatusOK)
		alice, _ := a.contact(ib, H{"name": "Alice"})
		conv := a.startConversation(a.Account, "", H{"inbox_id": ib, "contact_id": alice, "assignee_id": userID})
		accountUsers := fmt.Sprintf("/platform/api/v1/accounts/%d/account_users", a.Account)

		a.run(t, []scenario{
			{
				name:       "the agent sees the inbox's conversation before",
				request:    as(token, request{method: "GET", path: a.path("/conversations/%d", conv)}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "the platform removes the user from the account",
				request:    request{method: "DELETE", path: accountUsers, token: a.Platform, body: H{"user_id": userID}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "the conversation is unassigned",
				request:    request{method: "GET", path: a.path("/conversations/%d", conv)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"assignee_id": nil},
			},
			{
				name:       "the platform adds the user back",
				request:    request{method: "POST", path: accountUsers, token: a.Platform, body: H{"user_id": userID, "role": "agent"}},
				wantStatus: http.StatusOK,
			},
			status("the user no longer sees the old inbox's conversation", as(token, request{method: "GET", path: a.path("/conversations/%d", conv)}), http.StatusNotFound),
			{
				name:       "the user is no longer an inbox member",
				request:    request{method: "GET", path: a.path("/inbox_members/%d", ib)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "the user is no longer a team member",
				request:    request{method: "GET", path: a.path("/teams/%d/team_members", team)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 0},
			},
		})
	})
}
