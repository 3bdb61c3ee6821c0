package rest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"

	"github.com/switchboard/switchboard/ent/accesstoken"
	"github.com/switchboard/switchboard/ent/account"
	"github.com/switchboard/switchboard/internal/observe"
	"github.com/switchboard/switchboard/internal/testdb"
)

// The verified-token cache (issue 13): a token checked once is not checked
// again for a few seconds, yet a role change, a removed membership or a
// replaced token takes effect with the very next request.

func TestTokenCacheSeesChangesAtOnce(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		userID, token := a.user("Casey Cache")
		a.member(a.Account, userID, "administrator")
		adminOnly := request{method: "GET", path: a.path("/webhooks"), token: token}
		contacts := request{method: "GET", path: a.path("/contacts"), token: token}
		other, otherAdmin := a.otherAccount("Globex")
		a.member(other, userID, "agent")
		inOther := request{method: "GET", path: accountPath(other, "/contacts"), token: token}
		var newToken string
		a.run(t, []scenario{
			status("an administrator reads the webhooks", adminOnly, http.StatusOK),
			status("and again, now from the cache", adminOnly, http.StatusOK),
			status("the user is an agent of the other account", inOther, http.StatusOK),
			{
				name:       "demoted to agent, the next request is refused",
				request:    request{method: "PATCH", path: a.path("/agents/%d", userID), body: H{"role": "agent"}},
				wantStatus: http.StatusOK,
				check: func(t *testing.T, _ *response) {
					a.mustDoT(t, adminOnly, http.StatusForbidden)
					a.mustDoT(t, contacts, http.StatusOK)
				},
			},
			{
				name: "removed from the other account, the next request there is 401",
				request: request{method: "DELETE", path: fmt.Sprintf("/platform/api/v1/accounts/%d/account_users", other),
					token: a.Platform, body: H{"user_id": userID}},
				wantStatus: http.StatusOK,
				check: func(t *testing.T, _ *response) {
					a.mustDoT(t, inOther, http.StatusUnauthorized)
					a.mustDoT(t, request{method: "GET", path: accountPath(other, "/contacts"), token: otherAdmin}, http.StatusOK)
				},
			},
			{
				name:    "a replaced token is refused at once and its successor accepted",
				request: contacts, wantStatus: http.StatusOK,
				check: func(t *testing.T, _ *response) {
					newToken = fmt.Sprintf("rotated-%d", a.next())
					sum := sha256.Sum256([]byte(newToken))
					c := a.srv.DB.Client
					if _, err := c.AccessToken.Delete().Where(accesstoken.UserID(userID)).Exec(sys()); err != nil {
						t.Fatalf("retiring the token: %v", err)
					}
					if err := c.AccessToken.Create().SetUserID(userID).SetTokenHash(hex.EncodeToString(sum[:])).Exec(sys()); err != nil {
						t.Fatalf("issuing its successor: %v", err)
					}
					a.mustDoT(t, contacts, http.StatusUnauthorized)
					a.mustDoT(t, request{method: "GET", path: a.path("/contacts"), token: newToken}, http.StatusOK)
				},
			},
			{
				name: "a suspended account refuses the next request", request: request{method: "GET", path: a.path("/contacts"), token: newToken},
				wantStatus: http.StatusOK,
				check: func(t *testing.T, _ *response) {
					if err := a.srv.DB.Client.Account.UpdateOneID(a.Account).SetStatus(account.StatusSuspended).Exec(sys()); err != nil {
						t.Fatal(err)
					}
					a.mustDoT(t, request{method: "GET", path: a.path("/contacts"), token: newToken}, http.StatusUnauthorized)
				},
			},
		})
	})
}

// TestTokenCacheSavesTheAuthenticationStatements: a token verified a moment
// ago costs no statement; an unknown one still costs its lookup.
func TestTokenCacheSavesTheAuthenticationStatements(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a, n := newCountingApp(t, e)
		ctx := observe.WithRequestID(context.Background(), "auth-cache-test")
		authenticate := func(token string) (int64, error) {
			before := n.Load()
			_, err := a.srv.Svc.AuthenticateToken(ctx, "127.0.0.1", token, a.Account)
			return n.Load() - before, err
		}
		_, agent := a.agent(a.Account) // changes memberships: the cache starts empty
		cold, err := authenticate(agent)
		if err != nil {
			t.Fatal(err)
		}
		warm, err := authenticate(agent)
		if err != nil {
			t.Fatal(err)
		}
		if warm > 1 {
			t.Errorf("a token verified a moment ago took %d statements, want at most 1", warm)
		}
		if warm >= cold {
			t.Errorf("the cache saved nothing: %d statements warm, %d cold", warm, cold)
		}
		ib := a.apiInbox("Support")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct}) // bumps the account's counter
		if after, err := authenticate(agent); err != nil || after != warm {
			t.Errorf("after a new conversation the token took %d statements (%v), want %d: the cache was emptied for nothing", after, err, warm)
		}
		if wrong, err := authenticate("not-a-token"); err == nil || wrong == 0 {
			t.Errorf("an unknown token took %d statements and answered %v: it must be looked up and refused", wrong, err)
		}
		t.Logf("%s: authentication takes %d statements cold, %d warm", e.Name, cold, warm)
	})
}

// TestTokenCacheHearsOfChangesOnAnotherInstance runs two servers on one
// PostgreSQL database: a demotion made through one reaches the other's cache
// through LISTEN/NOTIFY, well before the cached entry would expire.
func TestTokenCacheHearsOfChangesOnAnotherInstance(t *testing.T) {
	t.Parallel()
	a, b := twoInstances(t)

	userID, token := a.user("Casey Cache")
	a.member(a.Account, userID, "administrator")
	adminOnly := request{method: "GET", path: a.path("/webhooks"), token: token}
	b.mustDo(adminOnly, http.StatusOK) // verified, and now cached, on instance two
	a.mustDo(request{method: "PATCH", path: a.path("/agents/%d", userID), body: H{"role": "agent"}}, http.StatusOK)

	deadline := time.Now().Add(5 * time.Second) // a third of the cache's lifetime
	for b.do(adminOnly).Status != http.StatusForbidden {
		if time.Now().After(deadline) {
			t.Fatal("instance two still treats the demoted user as an administrator")
		}
		runtime.Gosched()
	}
}

// twoInstances runs two servers on one fresh PostgreSQL database (skipping
// the test where there is none): a is bootstrapped, b acts as a's
// administrator through the other instance.
func twoInstances(t *testing.T) (a, b *app) {
	t.Helper()
	open := testdb.SharedPostgres(t)
	a = newAppOn(t, open(), server.Config{Channels: &acceptingChannels{}})
	other := server.New(server.Config{StorageDir: t.TempDir(), Channels: &acceptingChannels{}}, open())
	t.Cleanup(func() { _ = other.Shutdown() })
	return a, &app{t: t, srv: other, Account: a.Account, AdminID: a.AdminID, Admin: a.Admin, Platform: a.Platform}
}
