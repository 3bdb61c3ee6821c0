package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
)

// runJSON runs an operator command and decodes its one line of JSON.
func runJSON(t *testing.T, cmd command, args ...string) map[string]string {
	t.Helper()
	var out bytes.Buffer
	if err := cmd(mustLoadConfig(t), args, &out); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	var got map[string]string
	if strings.Count(out.String(), "\n") != 1 || json.Unmarshal(out.Bytes(), &got) != nil {
		t.Fatalf("%v printed %q, want one line of JSON", args, out.String())
	}
	return got
}

func TestResetPasswordAndRotateToken(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Setenv("DATABASE_URL", e.NewURL(t))
		boot := runBootstrap(t, "--account-name", "Acme", "--email", "boss@acme.test", "--password", "old-password")
		ctx := context.Background()
		svc := ops.New(openTestDB(t).Client)
		session, err := svc.StartSession(ctx, "127.0.0.1", "boss@acme.test", "old-password")
		if err != nil {
			t.Fatal(err)
		}

		got := runJSON(t, resetPassword, "--email", "Boss@Acme.test")
		if len(got["password"]) < 8 {
			t.Fatalf("reset-password printed no usable password: %v", got)
		}
		if _, err := svc.Login(ctx, "boss@acme.test", got["password"]); err != nil {
			t.Errorf("the printed password does not sign in: %v", err)
		}
		if _, err := svc.Login(ctx, "boss@acme.test", "old-password"); err == nil {
			t.Error("the old password still signs in")
		}
		if _, err := svc.SessionViewer(ctx, session.Token, 0); err == nil {
			t.Error("a console session survived the password reset")
		}
		runJSON(t, resetPassword, "--email", "boss@acme.test", "--password", "chosen-password")
		if _, err := svc.Login(ctx, "boss@acme.test", "chosen-password"); err != nil {
			t.Errorf("--password was not set: %v", err)
		}

		oldToken := boot["access_token"].(string)
		account := int(boot["account_id"].(float64))
		rotated := runJSON(t, rotateToken, "--email", "boss@acme.test")
		if _, err := svc.ViewerForToken(ctx, oldToken, account); err == nil {
			t.Error("the old API token still works after tokens rotate")
		}
		if v, err := svc.ViewerForToken(ctx, rotated["access_token"], account); err != nil || !v.IsAdmin() {
			t.Errorf("the printed token does not act as the administrator: %+v, %v", v, err)
		}

		for _, c := range []struct {
			name string
			cmd  command
			args []string
		}{
			{"reset-password of an unknown e-mail", resetPassword, []string{"--email", "nobody@acme.test"}},
			{"reset-password without --email", resetPassword, nil},
			{"reset-password with a short --password", resetPassword, []string{"--email", "boss@acme.test", "--password", "short"}},
			{"tokens rotate of an unknown e-mail", rotateToken, []string{"--email", "nobody@acme.test"}},
			{"tokens rotate without --email", rotateToken, nil},
		} {
			var out bytes.Buffer
			if err := c.cmd(mustLoadConfig(t), c.args, &out); err == nil || out.Len() != 0 {
				t.Errorf("%s: err %v, printed %q; want an error and nothing printed", c.name, err, out.String())
			}
		}
	})
}

func TestBackupSQLiteIsAnOpenableCopy(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(dir, "live.db"))
	runBootstrap(t, "--account-name", "Acme", "--email", "boss@acme.test")
	openTestDB(t) // a server's connection stays open: the copy is made online
	file := filepath.Join(dir, "copy.db")
	var out bytes.Buffer
	if err := backup(mustLoadConfig(t), []string{file}, &out); err != nil {
		t.Fatal(err)
	}
	copyDB, err := db.Open("sqlite://" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer copyDB.Close()
	var n int
	if err := copyDB.SQL.QueryRow("SELECT count(*) FROM accounts WHERE name = 'Acme'").Scan(&n); err != nil || n != 1 {
		t.Errorf("the copy holds %d accounts named Acme (%v), want 1", n, err)
	}
	if err := backup(mustLoadConfig(t), []string{file}, &out); err == nil {
		t.Error("a backup over an existing file was not refused")
	}
	if err := backup(mustLoadConfig(t), nil, &out); err == nil {
		t.Error("backup without FILE was not refused")
	}
}

func TestBackupPostgresPrintsPgDumpWithoutPassword(t *testing.T) {
	t.Setenv("DATABASE_URL", "postgres://sb:s3cret@127.0.0.1:5432/switchboard?sslmode=disable&password=s3cret")
	var out bytes.Buffer
	if err := backup(mustLoadConfig(t), []string{"/backups/sb it's.dump"}, &out); err != nil {
		t.Fatal(err)
	}
	want := `pg_dump --format=custom --no-owner --file='/backups/sb it'\''s.dump' 'postgres://sb@127.0.0.1:5432/switchboard?sslmode=disable'` + "\n"
	if out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
	if strings.Contains(out.String(), "s3cret") {
		t.Error("the password was printed")
	}
}

func TestSubcommands(t *testing.T) {
	for _, c := range []struct {
		args []string
		ok   bool
		rest int
	}{
		{[]string{"bootstrap", "--email", "x"}, true, 2},
		{[]string{"users", "reset-password", "--email", "x"}, true, 2},
		{[]string{"tokens", "rotate"}, true, 0},
		{[]string{"backup", "f"}, true, 1},
		{[]string{"users"}, false, 0},
		{[]string{"tokens", "revoke"}, false, 0},
	} {
		_, rest, ok := findSubcommand(c.args)
		if ok != c.ok || len(rest) != c.rest {
			t.Errorf("%v: found %v with %d arguments left, want %v with %d", c.args, ok, len(rest), c.ok, c.rest)
		}
	}
}
