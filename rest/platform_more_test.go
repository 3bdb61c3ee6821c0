package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestPlatformAccountsAndAccountUsers: PATCH/PUT /platform/api/v1/accounts/{id}
// and GET .../account_users, in Chatwoot's shapes.
func TestPlatformAccountsAndAccountUsers(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		plat := func(method, path string, body any) request {
			return request{method: method, path: "/platform/api/v1" + path, token: a.Platform, body: body}
		}
		acc := fmt.Sprintf("/accounts/%d", a.Account)
		a.run(t, []scenario{
			{
				name:       "PATCH account renames it and answers the account",
				request:    plat("PATCH", acc, H{"name": "Acme Corp", "locale": "pt_BR"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": a.Account, "name": "Acme Corp", "locale": "pt_BR", "status": "active"},
			},
			{
				name:       "PUT account wrapped in account works too",
				request:    plat("PUT", acc, H{"account": H{"name": "Acme"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "Acme"},
			},
			{
				name:        "a blank name is 422 naming name",
				request:     plat("PATCH", acc, H{"name": " "}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"name"},
			},
			{
				name:        "an unknown status is 422 naming status",
				request:     plat("PATCH", acc, H{"status": "deleted"}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"status"},
			},
			{
				name:       "PATCH of an unknown account is 404",
				request:    plat("PATCH", "/accounts/999999", H{"name": "X"}),
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "account_users lists the memberships as records",
				request:    plat("GET", acc+"/account_users", nil),
				wantStatus: http.StatusOK,
				want: map[string]any{"#": 1, "0.user_id": a.AdminID, "0.account_id": a.Account,
					"0.role": "administrator", "0.id": present, "0.created_at": isoTime},
			},
			{
				name:       "account_users of an unknown account is 404",
				request:    plat("GET", "/accounts/999999/account_users", nil),
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "account_users with a user's token is 401",
				request:    request{method: "GET", path: "/platform/api/v1" + acc + "/account_users"},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "suspending the account through the platform answers it suspended",
				request:    plat("PATCH", acc, H{"status": "suspended"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "suspended"},
			},
			{
				name:       "the suspended account's users are refused",
				request:    request{method: "GET", path: a.path("/contacts")},
				wantStatus: http.StatusUnauthorized,
			},
		})
	})
}

// TestPlatformSignInLink: GET /platform/api/v1/users/{id}/login answers
// Chatwoot's {url}; the link signs in to the console once, and its token is
// no session cookie.
func TestPlatformSignInLink(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		login := func(id int) request {
			return request{method: "GET", path: fmt.Sprintf("/platform/api/v1/users/%d/login", id), token: a.Platform}
		}
		link := func(t *testing.T) (path, token string) {
			r := a.mustDo(login(a.AdminID), http.StatusOK)
			u, err := url.Parse(r.str(t, "url"))
			if err != nil || u.Path != "/app/login" || u.Query().Get("email") != "admin@acme.test" || u.Query().Get("sso_auth_token") == "" {
				t.Fatalf("sign-in url %q is not /app/login?email=..&sso_auth_token=..", r.str(t, "url"))
			}
			return u.RequestURI(), u.Query().Get("sso_auth_token")
		}
		contacts := fmt.Sprintf("/app/accounts/%d/contacts", a.Account)
		withCookie := func(path, value string) request {
			return request{method: "GET", path: path, token: noToken, header: map[string]string{"Cookie": "sb_session=" + value}}
		}
		// expect checks a console answer (HTML, so not a JSON scenario).
		expect := func(what string, rq request, status int, location string) *response {
			t.Helper()
			r := doRequest(t, a, rq)
			if r.Status != status || (location != "" && r.Header.Get("Location") != location) {
				t.Fatalf("%s: got %d to %q, want %d to %q", what, r.Status, r.Header.Get("Location"), status, location)
			}
			return r
		}
		first, _ := link(t)
		r := expect("the link signs in: 303 to /app", request{method: "GET", path: first, token: noToken}, http.StatusSeeOther, "/app")
		expect("the session it made opens the console", withCookie(contacts, sessionCookieOf(t, r)), http.StatusOK, "")
		expect("the same link a second time is refused", request{method: "GET", path: first, token: noToken}, http.StatusUnauthorized, "")
		expect("an unknown token is refused", request{method: "GET", path: "/app/login?sso_auth_token=nope", token: noToken}, http.StatusUnauthorized, "")
		second, token := link(t)
		expect("a link token as a session cookie is no session", withCookie(contacts, token), http.StatusSeeOther, "/app/login")
		expect("and the link it was is spent", request{method: "GET", path: second, token: noToken}, http.StatusUnauthorized, "")
		a.run(t, []scenario{
			{
				name:       "a link for an unknown user is 404",
				request:    login(999999),
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "a link with a user's token is 401",
				request:    request{method: "GET", path: fmt.Sprintf("/platform/api/v1/users/%d/login", a.AdminID)},
				wantStatus: http.StatusUnauthorized,
			},
		})
	})
}

func sessionCookieOf(t *testing.T, r *response) string {
	t.Helper()
	for _, c := range r.Header.Values("Set-Cookie") {
		if v, ok := strings.CutPrefix(c, "sb_session="); ok {
			return strings.SplitN(v, ";", 2)[0]
		}
	}
	t.Fatalf("no sb_session cookie in %v", r.Header.Values("Set-Cookie"))
	return ""
}

// TestPlatformDeleteUser: DELETE /platform/api/v1/users/{id} removes the
// user everywhere in one go; their conversations lose the assignee, their
// pending schedules fail, their token stops working.
func TestPlatformDeleteUser(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Alice"})
		accB, _ := a.otherAccount("Globex")
		gone, goneTok := a.agent(a.Account)
		a.member(accB, gone, "administrator")
		a.mustDo(request{method: "POST", path: a.path("/inbox_members"), body: H{"inbox_id": ib, "user_ids": []int{gone}}}, http.StatusOK)
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct, "assignee_id": gone})
		sched := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), token: goneTok,
			body: H{"inbox_id": ib, "contact_id": ct, "content": "Later", "scheduled_at": inAnHour()}}, http.StatusOK).int(t, "id")
		if got := a.mustDo(request{method: "GET", path: a.path("/conversations/%d", conv)}, http.StatusOK).int(t, "assignee_id"); got != gone {
			t.Fatalf("setup: the conversation is assigned to %d, want %d", got, gone)
		}
		del := request{method: "DELETE", path: fmt.Sprintf("/platform/api/v1/users/%d", gone), token: a.Platform}
		a.run(t, []scenario{
			{name: "DELETE user answers 200", request: del, wantStatus: http.StatusOK},
			{name: "the user is gone", request: request{method: "GET", path: fmt.Sprintf("/platform/api/v1/users/%d", gone), token: a.Platform}, wantStatus: http.StatusNotFound},
			{name: "a second DELETE is 404", request: del, wantStatus: http.StatusNotFound},
			{name: "their token is 401", request: request{method: "GET", path: a.path("/contacts"), token: goneTok}, wantStatus: http.StatusUnauthorized},
			{
				name:       "their conversation has no assignee",
				request:    request{method: "GET", path: a.path("/conversations/%d", conv)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"assignee_id": nil},
			},
			{
				name:       "their pending schedule failed, without an author",
				request:    request{method: "GET", path: a.path("/scheduled_messages/%d", sched)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "failed", "author_id": nil},
			},
			{
				name:       "the inbox lists no member",
				request:    request{method: "GET", path: a.path("/inbox_members/%d", ib)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 0},
			},
			{
				name:       "the other account has no account_user left",
				request:    request{method: "GET", path: fmt.Sprintf("/platform/api/v1/accounts/%d/account_users", accB), token: a.Platform},
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 1},
			},
			{name: "DELETE of an unknown user is 404", request: request{method: "DELETE", path: "/platform/api/v1/users/999999", token: a.Platform}, wantStatus: http.StatusNotFound},
			{name: "DELETE user with a user's token is 401", request: request{method: "DELETE", path: fmt.Sprintf("/platform/api/v1/users/%d", a.AdminID)}, wantStatus: http.StatusUnauthorized},
		})
	})
}

// TestPlatformDeleteAccount: DELETE /platform/api/v1/accounts/{id} removes
// the account with everything in it, keeps its users and leaves other
// accounts alone.
func TestPlatformDeleteAccount(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		accB, adminB := a.otherAccount("Globex")
		ibB := a.inboxIn(accB, adminB, "B", H{"type": "api"})
		ctB, _ := a.contactIn(accB, adminB, ibB, H{"name": "Bob"})

		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Alice"})
		agentID, agentTok := a.agent(a.Account)
		a.addInboxMembers(ib, agentID)
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct, "assignee_id": agentID, "message": H{"content": "Hi"}})
		a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv),
			body: fields("content", "a file").file("attachments[]", "note.txt", "text/plain", []byte("hello"))}, http.StatusOK)
		a.label("vip")
		team := a.team("Sales")
		a.mustDo(request{method: "POST", path: a.path("/teams/%d/team_members", team), body: H{"user_ids": []int{agentID}}}, http.StatusOK)
		a.agentBot("Bot")
		a.customAttribute("plan", "text", "contact_attribute")
		f := a.funnel("Deals", "new", "won")
		card := a.card(f, "new", H{"title": "Deal"})
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/assign_agent", card), body: H{"agent_id": agentID}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), token: agentTok,
			body: H{"inbox_id": ib, "contact_id": ct, "content": "Later", "scheduled_at": inAnHour(), "recurrence_type": "daily"}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/webhooks"), body: H{"url": "https://hooks.example.com/x", "subscriptions": []string{"message_created"}}}, http.StatusOK)

		plat := func(method, path string) request {
			return request{method: method, path: "/platform/api/v1" + path, token: a.Platform}
		}
		acc := fmt.Sprintf("/accounts/%d", a.Account)
		a.run(t, []scenario{
			{name: "DELETE account answers 200", request: plat("DELETE", acc), wantStatus: http.StatusOK},
			{name: "the account is gone", request: plat("GET", acc), wantStatus: http.StatusNotFound},
			{name: "a second DELETE is 404", request: plat("DELETE", acc), wantStatus: http.StatusNotFound},
			{name: "its administrator still exists, without the account", request: plat("GET", fmt.Sprintf("/users/%d", a.AdminID)),
				wantStatus: http.StatusOK, want: map[string]any{"accounts": []any{}}},
			{name: "its agent's token no longer reaches it", request: request{method: "GET", path: a.path("/contacts"), token: agentTok}, wantStatus: http.StatusUnauthorized},
			{name: "the other account keeps its contact", request: request{method: "GET", path: accountPath(accB, "/contacts/%d", ctB), token: adminB},
				wantStatus: http.StatusOK, want: map[string]any{"payload.name": "Bob"}},
			{name: "DELETE of an unknown account is 404", request: plat("DELETE", "/accounts/999999"), wantStatus: http.StatusNotFound},
			{name: "DELETE account with a user's token is 401", request: request{method: "DELETE", path: "/platform/api/v1" + fmt.Sprintf("/accounts/%d", accB), token: adminB}, wantStatus: http.StatusUnauthorized},
		})
	})
}
