package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/testdb"
)

var probe = migrate.NewLocalFile("29990101000000_probe.sql", []byte("CREATE TABLE migration_probe (id integer PRIMARY KEY);\n"))

func binaryMigrations(t *testing.T, d *db.DB) migrate.Dir {
	t.Helper()
	dir, err := d.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// withProbe is the binary's migrations plus one more: a database migrated
// by the binary is behind it, one migrated with it is ahead of the binary.
func withProbe(t *testing.T, d *db.DB) migrate.Dir {
	t.Helper()
	files, err := binaryMigrations(t, d).Files()
	if err != nil {
		t.Fatal(err)
	}
	dir := &migrate.MemDir{}
	if err := dir.CopyFiles(append(files, probe)); err != nil {
		t.Fatal(err)
	}
	return dir
}

func probeExists(t *testing.T, d *db.DB) bool {
	t.Helper()
	_, err := d.SQL.Exec(`SELECT count(*) FROM migration_probe`)
	return err == nil
}

func TestStartAndTheSchema(t *testing.T) {
	ctx := context.Background()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Run("an empty database is migrated", func(t *testing.T) {
			t.Setenv("DATABASE_URL", e.NewEmptyURL(t))
			d := openTestDB(t)
			st, err := d.MigrationStatus(ctx, binaryMigrations(t, d))
			if err != nil || st.State != db.UpToDate {
				t.Errorf("after the first start: %v, %v; want up to date", st, err)
			}
		})
		t.Run("a database behind is refused, or migrated with AUTO_MIGRATE=1", func(t *testing.T) {
			d := e.New(t)
			err := prepareSchema(ctx, d, withProbe(t, d), false)
			if err == nil || !strings.Contains(err.Error(), "run `switchboard migrate up`") ||
				!strings.Contains(err.Error(), "AUTO_MIGRATE=1") || !strings.Contains(err.Error(), probe.Name()) {
				t.Errorf("behind: %v, want a refusal naming the pending file, the command and AUTO_MIGRATE=1", err)
			}
			if probeExists(t, d) {
				t.Fatal("the refused start applied the migration")
			}
			if err := prepareSchema(ctx, d, withProbe(t, d), true); err != nil || !probeExists(t, d) {
				t.Errorf("AUTO_MIGRATE=1: %v, probe applied: %v", err, probeExists(t, d))
			}
		})
		t.Run("a database ahead is refused, even with AUTO_MIGRATE=1", func(t *testing.T) {
			d := e.New(t)
			if _, err := d.MigrateUp(ctx, withProbe(t, d)); err != nil {
				t.Fatal(err)
			}
			err := prepareSchema(ctx, d, binaryMigrations(t, d), true)
			if err == nil || !strings.Contains(err.Error(), "does not know (29990101000000)") {
				t.Errorf("ahead: %v, want a refusal naming the unknown version", err)
			}
		})
	})
}

func TestMigrateCommands(t *testing.T) {
	ctx := context.Background()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		d := testdb.Open(t, e.NewEmptyURL(t))
		files, _ := binaryMigrations(t, d).Files()
		steps := []struct {
			name  string
			run   func(out *bytes.Buffer) error
			wants []string
		}{
			{"status of an empty database", func(out *bytes.Buffer) error { return migrateStatus(ctx, d, binaryMigrations(t, d), out) },
				[]string{"database:    " + d.Dialect, "migrations:  0 of", "pending:     " + files[0].Name(), "state:       empty"}},
			{"up applies every file", func(out *bytes.Buffer) error { return migrateUp(ctx, d, binaryMigrations(t, d), out) },
				[]string{"applied " + files[0].Name(), "applied " + files[len(files)-1].Name()}},
			{"up again has nothing to do", func(out *bytes.Buffer) error { return migrateUp(ctx, d, binaryMigrations(t, d), out) },
				[]string{"the database is up to date; nothing to apply"}},
			{"status of a database behind", func(out *bytes.Buffer) error { return migrateStatus(ctx, d, withProbe(t, d), out) },
				[]string{"pending:     " + probe.Name(), "state:       behind: run `switchboard migrate up`"}},
			{"up applies the new file", func(out *bytes.Buffer) error { return migrateUp(ctx, d, withProbe(t, d), out) },
				[]string{"applied " + probe.Name()}},
			{"status when up to date", func(out *bytes.Buffer) error { return migrateStatus(ctx, d, withProbe(t, d), out) },
				[]string{"(last: 29990101000000)", "state:       up to date"}},
			{"status of a database ahead", func(out *bytes.Buffer) error { return migrateStatus(ctx, d, binaryMigrations(t, d), out) },
				[]string{"state:       the database has migrations this binary does not know (29990101000000)"}},
		}
		for _, s := range steps {
			var out bytes.Buffer
			if err := s.run(&out); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			for _, want := range s.wants {
				if !strings.Contains(out.String(), want) {
					t.Errorf("%s: no %q in:\n%s", s.name, want, out.String())
				}
			}
		}
		if _, ok := subcommands["migrate up"]; !ok {
			t.Error("no migrate up command")
		}
		if err := migrateStatusCommand(mustLoadConfig(t), []string{"extra"}, &bytes.Buffer{}); err == nil {
			t.Error("migrate status with an argument was accepted")
		}
	})
}

// TestServeRefusesADatabaseNotMigrated runs the real binary: a database
// behind it (here: its revisions lost, so it looks made before versioned
// migrations) or ahead of it stops the start with exit code 1 and the way
// out.
func TestServeRefusesADatabaseNotMigrated(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		for _, c := range []struct {
			name, sql, want string
		}{
			{"behind", `DELETE FROM ` + db.RevisionTable, "run `switchboard migrate up`, or start with AUTO_MIGRATE=1"},
			{"ahead", `UPDATE ` + db.RevisionTable + ` SET version = '29990101000000'` +
				` WHERE version = (SELECT max(version) FROM ` + db.RevisionTable + `)`, "does not know (29990101000000)"},
		} {
			url := e.NewURL(t)
			if _, err := testdb.Open(t, url).SQL.Exec(c.sql); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			err := serverCommand(t, url, freePort(t), "info", &stderr).Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), c.want) {
				t.Errorf("%s: exit %v, stderr %q; want exit 1 saying %q", c.name, err, stderr.String(), c.want)
			}
		}
	})
}
