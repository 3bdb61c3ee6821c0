package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Identity across accounts (issue 10): "An administrator of account B
// attached account A's administrator by e-mail and renamed them; A saw the
// new name." An account's administrator changes only the account-scoped
// fields (role, availability, auto_offline) of a user who also belongs to
// another account; the user's own fields change through their profile or
// the platform API.
func TestIdentityAcrossAccounts(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		alice, aliceToken := a.user("Alice Original")
		a.member(a.Account, alice, "administrator")
		aliceEmail := a.mustDo(request{method: "GET", path: "/api/v1/profile", token: aliceToken}, http.StatusOK).str(t, "email")
		accB, adminB := a.otherAccount("Globex")
		inB := func(method, path string, body H) request {
			return request{method: method, path: accountPath(accB, "%s", path), token: adminB, body: body}
		}
		bob, _ := a.agent(accB) // works in B only
		agentsOfA := request{method: "GET", path: a.path("/agents")}
		profile := func(body H) request {
			return request{method: "PUT", path: "/api/v1/profile", token: aliceToken, body: body}
		}
		a.run(t, []scenario{
			{name: "B's administrator attaches A's administrator by e-mail; the name sent does not rename her",
				request:    inB("POST", "/agents", H{"name": "Renamed By B", "email": strings.ToUpper(aliceEmail), "role": "agent"}),
				wantStatus: http.StatusOK, want: map[string]any{"id": alice, "name": "Alice Original", "email": aliceEmail}},
			{name: "B's administrator may not rename her: 403 pointing to the profile",
				request: inB("PATCH", "/agents/"+itoa(alice), H{"name": "Hijacked"}), wantStatus: http.StatusForbidden,
				want: map[string]any{"error": hasText("PUT /api/v1/profile")}},
			{name: "nor with PUT, together with account fields (nothing is applied)",
				request:    inB("PUT", "/agents/"+itoa(alice), H{"name": "Hijacked", "role": "administrator"}),
				wantStatus: http.StatusForbidden},
			{name: "nor change her e-mail", request: inB("PATCH", "/agents/"+itoa(alice), H{"email": "evil@globex.test"}),
				wantStatus: http.StatusForbidden, want: map[string]any{"error": hasText("e-mail")}},
			{name: "B's administrator changes the account-scoped fields",
				request:    inB("PATCH", "/agents/"+itoa(alice), H{"role": "administrator", "availability": "busy", "auto_offline": false}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"role": "administrator", "availability_status": "busy", "auto_offline": false, "name": "Alice Original"}},
			{name: "sending her current name and e-mail back is no change and passes",
				request:    inB("PATCH", "/agents/"+itoa(alice), H{"name": "Alice Original", "email": aliceEmail, "role": "agent"}),
				wantStatus: http.StatusOK, want: map[string]any{"role": "agent"}},
			{name: "A still sees her own name and role", request: agentsOfA, wantStatus: http.StatusOK,
				want:  map[string]any{"*.name": contains("Alice Original"), "*.role": contains("administrator")},
				check: bodyLacks("Hijacked", "Renamed By B", "evil@globex.test")},
			{name: "a user of B alone may be renamed by B's administrator (as in Chatwoot)",
				request:    inB("PATCH", "/agents/"+itoa(bob), H{"name": "Bob Renamed"}),
				wantStatus: http.StatusOK, want: map[string]any{"name": "Bob Renamed"}},
			{name: "but not given another e-mail", request: inB("PATCH", "/agents/"+itoa(bob), H{"email": "bob@elsewhere.test"}),
				wantStatus: http.StatusForbidden},

			// Her own profile.
			status("the profile needs a token", request{method: "GET", path: "/api/v1/profile", token: "-"}, http.StatusUnauthorized),
			status("the platform token is no user's", request{method: "GET", path: "/api/v1/profile", token: a.Platform}, http.StatusUnauthorized),
			{name: "the profile shows her and her accounts", request: request{method: "GET", path: "/api/v1/profile", token: aliceToken},
				wantStatus: http.StatusOK, want: map[string]any{"id": alice, "name": "Alice Original", "accounts.#": 2},
				check: bodyLacks("password", "access_token")},
			{name: "she renames herself", request: profile(H{"profile": H{"name": " Alice Renamed ", "display_name": "Ali"}}),
				wantStatus: http.StatusOK, want: map[string]any{"name": "Alice Renamed", "display_name": "Ali"}},
			{name: "both accounts see her new name (A)", request: agentsOfA, wantStatus: http.StatusOK,
				want: map[string]any{"*.name": contains("Alice Renamed")}},
			{name: "both accounts see her new name (B)", request: inB("GET", "/agents", nil), wantStatus: http.StatusOK,
				want: map[string]any{"*.name": contains("Alice Renamed")}},
			invalid("a blank name is 422", profile(H{"name": " "}), "name"),
			invalid("a new e-mail needs the current password", profile(H{"email": "alice@new.test"}), "current_password"),
			invalid("a wrong current password is 422", profile(H{"password": "n3w-password", "current_password": "guess-guess"}), "current_password"),
			invalid("a short password is 422", profile(H{"password": "short", "current_password": "s3cret-pass"}), "password"),
			invalid("a password longer than bcrypt hashes is 422, not a failure", profile(H{"password": strings.Repeat("long", 19), "current_password": "s3cret-pass"}), "password"),
			invalid("another user's e-mail is taken", profile(H{"email": a.mustDo(request{method: "GET", path: "/api/v1/profile",
				token: a.Admin}, http.StatusOK).str(t, "email"), "current_password": "s3cret-pass"}), "email"),
			{name: "with the current password she changes her e-mail and password",
				request:    profile(H{"email": "Alice@New.test", "password": "n3w-password", "current_password": "s3cret-pass"}),
				wantStatus: http.StatusOK, want: map[string]any{"email": "alice@new.test"}},
			{name: "the old password no longer confirms a change",
				request:    profile(H{"password": "another-one", "current_password": "s3cret-pass"}),
				wantStatus: http.StatusUnprocessableEntity},

			// The platform API.
			{name: "the platform API renames a user", request: request{method: "PATCH", path: "/platform/api/v1/users/" + itoa(alice),
				token: a.Platform, body: H{"name": "Alice By Platform"}}, wantStatus: http.StatusOK, want: map[string]any{"name": "Alice By Platform"}},
			status("an account token may not use it", request{method: "PATCH", path: "/platform/api/v1/users/" + itoa(alice),
				token: adminB, body: H{"name": "x"}}, http.StatusUnauthorized),
			status("an unknown user is 404", request{method: "PATCH", path: "/platform/api/v1/users/999999",
				token: a.Platform, body: H{"name": "x"}}, http.StatusNotFound),
		})
	})
}

// hasText: a string containing sub.
func hasText(sub string) matcher {
	return func(got any, present bool) string {
		if s, ok := got.(string); !ok || !strings.Contains(s, sub) {
			return "want a text containing " + sub
		}
		return ""
	}
}
