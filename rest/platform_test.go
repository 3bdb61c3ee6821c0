package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// The platform (provisioning) API: accounts, users with passwords and
// account memberships, under the installation's platform token.

func TestPlatformAPI(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		plat := func(method, path string, body any) request {
			return request{method: method, path: "/platform/api/v1" + path, token: a.Platform, body: body}
		}
		var accountID, userID int
		var userToken string
		accountUsers := func() string { return fmt.Sprintf("/accounts/%d/account_users", accountID) }

		a.run(t, []scenario{
			{
				name:       "create account answers the account",
				request:    plat("POST", "/accounts", H{"name": "Initech"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": present, "name": "Initech", "created_at": isoTime},
				check:      func(t *testing.T, r *response) { accountID = r.int(t, "id") },
			},
			{
				name:        "create account without a name is 422 naming name",
				request:     plat("POST", "/accounts", H{"name": "  "}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"name"},
			},
			{
				name:       "show account answers it",
				request:    plat("GET", "/accounts/"+fmt.Sprint(a.Account), nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": a.Account, "name": "Acme"},
			},
			{
				name:       "show of an unknown account is 404",
				request:    plat("GET", "/accounts/999999", nil),
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "create user answers the user with its access_token",
				request:    plat("POST", "/users", H{"name": "Peter Gibbons", "email": "Peter@Initech.test", "password": "tps-reports"}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "name": "Peter Gibbons", "email": "peter@initech.test",
					"access_token": nonEmpty, "password": absent, "password_hash": absent,
				},
				check: func(t *testing.T, r *response) {
					userID, userToken = r.int(t, "id"), r.str(t, "access_token")
				},
			},
			{
				name:        "create user with a password under 8 characters is 422 naming password",
				request:     plat("POST", "/users", H{"name": "Short", "email": "short@initech.test", "password": "1234567"}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"password"},
			},
			{
				name:        "create user with an e-mail already used (in another case) is 422 naming email",
				request:     plat("POST", "/users", H{"name": "Peter Again", "email": "PETER@initech.test", "password": "long-enough"}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"email"},
			},
			{
				name:        "create user with a malformed e-mail is 422 naming email",
				request:     plat("POST", "/users", H{"name": "Bad Mail", "email": "nope", "password": "long-enough"}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"email"},
			},
			{
				name:        "create user without a name is 422 naming name",
				request:     plat("POST", "/users", H{"email": "noname@initech.test", "password": "long-enough"}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"name"},
			},
		})
		if userToken == "" || accountID == 0 {
			t.Fatal("cannot go on without the created account and user")
		}
		contacts := accountPath(accountID, "/contacts")
		a.run(t, []scenario{
			{
				name:       "show user answers it, in no account yet",
				request:    plat("GET", fmt.Sprintf("/users/%d", userID), nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": userID, "email": "peter@initech.test", "accounts": []any{}, "access_token": absent},
			},
			{
				name:       "show of an unknown user is 404",
				request:    plat("GET", "/users/999999", nil),
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "the new user's token is 401 before it joins the account",
				request:    request{method: "GET", path: contacts, token: userToken},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "add account_user makes the user an agent of the account",
				request:    plat("POST", accountUsers(), H{"user_id": userID, "role": "agent"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"account_id": accountID, "user_id": userID, "role": "agent"},
			},
			{
				name:       "the new user's token works once it is in the account",
				request:    request{method: "GET", path: contacts, token: userToken},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0},
			},
			{
				name:       "the new user's token still does not open another account",
				request:    request{method: "GET", path: a.path("/contacts"), token: userToken},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "as an agent, the new user may not create an inbox",
				request:    request{method: "POST", path: accountPath(accountID, "/inboxes"), token: userToken, body: H{"name": "X", "channel": H{"type": "api"}}},
				wantStatus: http.StatusForbidden,
			},
			{
				name:       "show user lists the membership",
				request:    plat("GET", fmt.Sprintf("/users/%d", userID), nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"accounts.#": 1, "accounts.0.id": accountID, "accounts.0.role": "agent", "accounts.0.name": "Initech"},
			},
			{
				name:       "adding the user again with another role changes the role",
				request:    plat("POST", accountUsers(), H{"user_id": userID, "role": "administrator"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"role": "administrator"},
			},
			{
				name:       "as an administrator, the user may create an inbox",
				request:    request{method: "POST", path: accountPath(accountID, "/inboxes"), token: userToken, body: H{"name": "Initech API", "channel": H{"type": "api"}}},
				wantStatus: http.StatusOK,
			},
			{
				name:        "add account_user with an unknown role is 422 naming role",
				request:     plat("POST", accountUsers(), H{"user_id": userID, "role": "overlord"}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"role"},
			},
			{
				name:        "add account_user without user_id is 422 naming user_id",
				request:     plat("POST", accountUsers(), H{"role": "agent"}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"user_id"},
			},
			{
				name:       "add account_user for an unknown user is 404",
				request:    plat("POST", accountUsers(), H{"user_id": 999999, "role": "agent"}),
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "add account_user to an unknown account is 404",
				request:    plat("POST", "/accounts/999999/account_users", H{"user_id": userID, "role": "agent"}),
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "remove account_user (DELETE with a JSON body) answers 200",
				request:    plat("DELETE", accountUsers(), H{"user_id": userID}),
				wantStatus: http.StatusOK,
			},
			{
				name:       "the removed user's token is 401 on that account",
				request:    request{method: "GET", path: contacts, token: userToken},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "removing a user who is not a member is 404",
				request:    plat("DELETE", accountUsers(), H{"user_id": userID}),
				wantStatus: http.StatusNotFound,
			},
			{
				name:        "remove account_user without user_id is 422 naming user_id",
				request:     plat("DELETE", accountUsers(), H{}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"user_id"},
			},
			{
				name:       "show user lists no membership after the removal",
				request:    plat("GET", fmt.Sprintf("/users/%d", userID), nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"accounts": []any{}},
			},
		})
	})
}

func TestPlatformAuth(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		unauthorized := func(name string, rq request) scenario {
			return scenario{name: name, request: rq, wantStatus: http.StatusUnauthorized}
		}
		user := H{"name": "Mallory", "email": "mallory@evil.test", "password": "long-enough"}
		a.run(t, []scenario{
			unauthorized("platform create account without a token is 401", request{method: "POST", path: "/platform/api/v1/accounts", token: noToken, body: H{"name": "X"}}),
			unauthorized("platform create account with a wrong token is 401", request{method: "POST", path: "/platform/api/v1/accounts", token: "wrong", body: H{"name": "X"}}),
			unauthorized("platform create user with a user's access token is 401", request{method: "POST", path: "/platform/api/v1/users", token: a.Admin, body: user}),
			unauthorized("platform show account with a wrong token is 401", request{method: "GET", path: fmt.Sprintf("/platform/api/v1/accounts/%d", a.Account), token: "wrong"}),
			unauthorized("platform show user without a token is 401", request{method: "GET", path: fmt.Sprintf("/platform/api/v1/users/%d", a.AdminID), token: noToken}),
			unauthorized("platform add account_user with a user's access token is 401", request{method: "POST", path: fmt.Sprintf("/platform/api/v1/accounts/%d/account_users", a.Account), token: a.Admin, body: H{"user_id": a.AdminID, "role": "agent"}}),
			unauthorized("platform remove account_user with a wrong token is 401", request{method: "DELETE", path: fmt.Sprintf("/platform/api/v1/accounts/%d/account_users", a.Account), token: "wrong", body: H{"user_id": a.AdminID}}),
			{
				name:       "the platform token works as Authorization: Bearer",
				request:    request{method: "GET", path: fmt.Sprintf("/platform/api/v1/accounts/%d", a.Account), token: noToken, header: map[string]string{"Authorization": "Bearer " + a.Platform}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": a.Account},
			},
			{
				name:       "no user was created by the refused requests",
				request:    request{method: "POST", path: "/platform/api/v1/users", token: a.Platform, body: user},
				wantStatus: http.StatusOK,
				want:       map[string]any{"email": "mallory@evil.test"},
			},
			{
				name:       "the administrator is still an administrator",
				request:    request{method: "GET", path: fmt.Sprintf("/platform/api/v1/users/%d", a.AdminID), token: a.Platform},
				wantStatus: http.StatusOK,
				want:       map[string]any{"accounts.0.role": "administrator"},
			},
		})
	})
}
