package web_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestSignInLinkExpires: a platform single sign-on link works within
// accounts.SignInLinkTTL and not after.
func TestSignInLinkExpires(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		clock := newManualClock()
		c := newConsoleWith(t, e, server.Config{Now: clock.Now})
		platform := viewer.NewContext(context.Background(), viewer.Viewer{Platform: true})
		admin, err := c.srv.DB.Client.User.Query().Only(viewer.SystemContext(context.Background()))
		if err != nil {
			t.Fatal(err)
		}
		link := func(t *testing.T) string {
			t.Helper()
			l, err := c.srv.Svc.CreateSignInLink(platform, admin.ID)
			if err != nil {
				t.Fatal(err)
			}
			return "/app/login?sso_auth_token=" + l.Token
		}
		late := link(t)
		inTime := link(t)
		clock.Advance(accounts.SignInLinkTTL - time.Second)
		if r := c.send("GET", inTime, nil, nil); r.status != http.StatusSeeOther || r.header.Get("Location") != "/app" {
			t.Errorf("a link used just within its TTL answered %d to %q, want 303 to /app", r.status, r.header.Get("Location"))
		}
		clock.Advance(time.Second)
		if r := c.send("GET", late, nil, nil); r.status != http.StatusUnauthorized {
			t.Errorf("a link used at its TTL answered %d, want 401", r.status)
		}
	})
}
