package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/config"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
)

func TestMain(m *testing.M) {
	serveIfChild()
	testdb.Main(m)
}

// runBootstrap runs the bootstrap subcommand against DATABASE_URL and decodes
// its single line of JSON.
func runBootstrap(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out bytes.Buffer
	if err := bootstrap(mustLoadConfig(t), args, &out); err != nil {
		t.Fatalf("bootstrap %v: %v", args, err)
	}
	if n := strings.Count(out.String(), "\n"); n != 1 {
		t.Fatalf("bootstrap printed %d lines, want exactly one: %q", n, out.String())
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("bootstrap output is not JSON: %v: %q", err, out.String())
	}
	return got
}

func TestBootstrapPrintsOneJSONLineAndReusesUsers(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Setenv("DATABASE_URL", e.NewURL(t))

		first := runBootstrap(t, "--account-name", "Acme", "--email", "Boss@Acme.test", "--name", "Boss", "--password", "long-enough")
		for _, k := range []string{"account_id", "user_id", "access_token", "platform_token"} {
			if first[k] == nil || first[k] == "" {
				t.Errorf("first bootstrap lacks %q: %v", k, first)
			}
		}

		var refused bytes.Buffer
		err := bootstrap(mustLoadConfig(t), []string{"--account-name", "Gamma", "--email", "boss@acme.test", "--password", "another-one"}, &refused)
		if err == nil || !strings.Contains(err.Error(), "keeps the password") || refused.Len() != 0 {
			t.Errorf("a password for an existing user: %v, printed %q; want a refusal (it was dropped silently)", err, refused.String())
		}
		second := runBootstrap(t, "--account-name", "Beta", "--email", "boss@acme.test", "--name", "Boss")
		if _, ok := second["platform_token"]; ok {
			t.Errorf("second bootstrap printed a platform_token; only the call that creates it may: %v", second)
		}
		if second["user_id"] != first["user_id"] {
			t.Errorf("bootstrap with an existing e-mail made a new user %v, want the existing %v", second["user_id"], first["user_id"])
		}
		if second["account_id"] == first["account_id"] {
			t.Errorf("second bootstrap reused account %v", first["account_id"])
		}

		database := openTestDB(t)
		svc := ops.New(database.Client)
		for _, b := range []map[string]any{first, second} {
			v, err := svc.ViewerForToken(context.Background(), b["access_token"].(string), int(b["account_id"].(float64)))
			if err != nil || !v.IsAdmin() {
				t.Errorf("token printed for account %v does not act as its administrator: %+v, %v", b["account_id"], v, err)
			}
		}
		var setup bytes.Buffer
		if err := firstStart(context.Background(), svc, mustLoadConfig(t), &setup); err != nil {
			t.Fatal(err)
		}
		if setup.Len() != 0 {
			t.Errorf("first-start setup ran on a bootstrapped database: %q", setup.String())
		}
	})
}

func TestBootstrapRejectsMissingFlags(t *testing.T) {
	var out bytes.Buffer
	if err := bootstrap(mustLoadConfig(t), []string{"--email", "a@b.c"}, &out); err == nil {
		t.Fatal("bootstrap without --account-name succeeded")
	}
	if out.Len() != 0 {
		t.Errorf("a failed bootstrap printed to stdout: %q", out.String())
	}
}

func TestFirstStartSetsUpAnEmptyDatabaseOnce(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Setenv("DATABASE_URL", e.NewURL(t))
		database := openTestDB(t)
		svc := ops.New(database.Client)
		var out bytes.Buffer
		if err := firstStart(context.Background(), svc, mustLoadConfig(t), &out); err != nil {
			t.Fatal(err)
		}
		token := fieldAfter(out.String(), "API access token:")
		if token == "" || !strings.Contains(out.String(), "/app") {
			t.Fatalf("first start did not print the console URL and an access token: %q", out.String())
		}
		if _, err := svc.ViewerForToken(context.Background(), token, 0); err != nil {
			t.Errorf("the printed access token does not authenticate: %v", err)
		}
		out.Reset()
		if err := firstStart(context.Background(), svc, mustLoadConfig(t), &out); err != nil || out.Len() != 0 {
			t.Errorf("second start set up again: %q, %v", out.String(), err)
		}
	})
}

func openTestDB(t *testing.T) *db.DB {
	t.Helper()
	cfg := mustLoadConfig(t)
	cfg.DatabaseWait = 0
	database, err := openDatabase(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { database.Close() })
	return database
}

func fieldAfter(text, label string) string {
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, label); i >= 0 {
			return strings.TrimSpace(line[i+len(label):])
		}
	}
	return ""
}

// mustLoadConfig reads the configuration from the environment, as main does.
func mustLoadConfig(t *testing.T) config.Config {
	t.Helper()
	c, _, err := config.Load(nil, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
