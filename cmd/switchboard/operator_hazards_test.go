package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/config"
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
		deadline := time.After(5 * time.Second) // a third of the cache's lifetime
		poll := time.NewTicker(10 * time.Millisecond)
		defer poll.Stop()
		for {
			if _, err := running.AuthenticateToken(ctx, "127.0.0.1", oldToken, account); err != nil {
				return
			}
			select {
			case <-deadline:
				t.Fatal("the running server still takes the old token 5 s after tokens rotate")
			case <-poll.C:
			}
		}
	})
}

// TestCommandsOnAMistypedSQLitePath: the commands that work on an existing
// database refuse a SQLite path with none, and create nothing there; a
// backup of the empty database they used to make "succeeded".
func TestCommandsOnAMistypedSQLitePath(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "typo.db")
	t.Setenv("DATABASE_URL", "sqlite://"+missing)
	for _, c := range []struct {
		name string
		cmd  command
		args []string
	}{
		{"backup", backup, []string{filepath.Join(dir, "backup.db")}},
		{"migrate status", migrateStatusCommand, nil},
		{"users reset-password", resetPassword, []string{"--email", "boss@acme.test"}},
		{"tokens rotate", rotateToken, []string{"--email", "boss@acme.test"}},
	} {
		var out bytes.Buffer
		err := c.cmd(mustLoadConfig(t), c.args, &out)
		if err == nil || !strings.Contains(err.Error(), "there is no database at "+missing) {
			t.Errorf("%s: %v (printed %q), want a refusal naming %s", c.name, err, out.String(), missing)
		}
		for _, f := range []string{missing, filepath.Join(dir, "backup.db")} {
			if _, err := os.Stat(f); err == nil {
				t.Fatalf("%s created %s", c.name, f)
			}
		}
	}
}

// TestInstancesStartingTogetherOnAnEmptyDatabase: each finds the database
// empty and sets it up; one does, and the others serve what it made (they
// exited with the set-up's unique violation).
func TestInstancesStartingTogetherOnAnEmptyDatabase(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Setenv("DATABASE_URL", e.NewURL(t))
		svc := ops.New(openTestDB(t).Client)
		const instances = 4
		errs := make(chan error, instances)
		outs := make([]bytes.Buffer, instances)
		for i := range instances {
			go func() { errs <- firstStart(context.Background(), svc, mustLoadConfig(t), &outs[i]) }()
		}
		for range instances {
			if err := <-errs; err != nil {
				t.Errorf("an instance did not start: %v", err)
			}
		}
		printed := 0
		for i := range outs {
			if strings.Contains(outs[i].String(), "Switchboard is set up") {
				printed++
			}
		}
		if printed != 1 {
			t.Errorf("%d instances printed the set-up, want exactly one", printed)
		}
	})
}

// TestATakenPortStopsTheStartFirst: the port is bound before anything is
// set up; a first start on a taken one printed its administrator's password
// and logged "listening", then failed.
func TestATakenPortStopsTheStartFirst(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	file := filepath.Join(t.TempDir(), "fresh.db")
	t.Setenv("DATABASE_URL", "sqlite://"+file)
	t.Setenv("PORT", strconv.Itoa(taken.Addr().(*net.TCPAddr).Port))
	err = serve(mustLoadConfig(t), config.RuntimeMemory{})
	if err == nil || !strings.Contains(err.Error(), "PORT=") {
		t.Fatalf("serve on a taken port: %v, want a refusal naming PORT", err)
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("the start set up a database before finding its port taken")
	}
}
