package main

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestARotatedTokenStopsAtOnceOnRunningServers: a running server remembers
// the tokens it verified (15 s); the operator's command tells it, through
// PostgreSQL's NOTIFY as a server's own changes do, to forget them, so the
// old token stops working at once, as the README says. (SQLite has no
// channel between processes: there the cache's lifetime bounds it.)
func TestARotatedTokenStopsAtOnceOnRunningServers(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		if e.Name != "postgres" {
			t.Skip("no channel between processes on SQLite")
		}
		t.Setenv("DATABASE_URL", e.NewURL(t))
		boot := runBootstrap(t, "--account-name", "Acme", "--email", "boss@acme.test")
		oldToken, account := boot["access_token"].(string), int(boot["account_id"].(float64))

		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		database := openTestDB(t)
		hub := events.NewHub()
		if err := events.RelayThroughPostgres(ctx, hub, database.DSN, database.SQL); err != nil {
			t.Fatal(err)
		}
		running := ops.New(database.Client, ops.WithEvents(hub))
		if _, err := running.AuthenticateToken(ctx, "127.0.0.1", oldToken, account); err != nil {
			t.Fatalf("the token before the rotation: %v", err)
		}

		runJSON(t, rotateToken, "--email", "boss@acme.test")
		deadline := time.Now().Add(5 * time.Second) // a third of the cache's lifetime
		for {
			if _, err := running.AuthenticateToken(ctx, "127.0.0.1", oldToken, account); err != nil {
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the running server still takes the old token 5 s after tokens rotate")
			}
			time.Sleep(10 * time.Millisecond) // polling the server's answer, with a deadline
		}
	})
}
