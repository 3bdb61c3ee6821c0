package db_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"

	entmigrate "github.com/switchboard/switchboard/ent/migrate"
	"github.com/switchboard/switchboard/internal/contactsearch"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func TestMain(m *testing.M) { testdb.Main(m) }

func migrations(t *testing.T, d *db.DB) migrate.Dir {
	t.Helper()
	dir, err := d.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// withFiles is the binary's migration directory plus extra files, with its
// atlas.sum recomputed.
func withFiles(t *testing.T, d *db.DB, extra ...migrate.File) migrate.Dir {
	t.Helper()
	files, err := migrations(t, d).Files()
	if err != nil {
		t.Fatal(err)
	}
	dir := &migrate.MemDir{}
	if err := dir.CopyFiles(append(files, extra...)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestMigrationsMatchSchema fails when ent/schema changed without a
// migration (go run ./internal/db/migrategen -name ...), or a migration file
// without ent/schema: the files, applied to a fresh database, must leave
// nothing for Atlas to change, and replayed on an empty one, nothing for
// migrategen to write.
func TestMigrationsMatchSchema(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		ctx := context.Background()
		migrated := e.New(t)
		drift, err := migrated.SchemaDrift(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if drift != "" {
			t.Errorf("ent/schema and the migration files disagree; run go run ./internal/db/migrategen -name NAME. Atlas would apply:\n%s", drift)
		}
		tables := tableNames(t, migrated)
		want := []string{db.RevisionTable}
		for _, tb := range entmigrate.Tables {
			want = append(want, tb.Name)
		}
		if migrated.Dialect == dialect.SQLite {
			want = append(want, db.HandWrittenTables...)
		}
		slices.Sort(want)
		if !slices.Equal(tables, want) {
			t.Errorf("the migrations make tables %v, ent/schema has (with %s and the hand-written ones) %v", tables, db.RevisionTable, want)
		}
		expectHandWritten(t, migrated)

		empty := testdb.Open(t, e.NewEmptyURL(t))
		wrote, err := empty.PlanMigration(ctx, withFiles(t, empty), "drift")
		if err != nil || wrote {
			t.Errorf("replaying the files and diffing with ent/schema wrote a migration (%v, %v)", wrote, err)
		}
		if e.Name == dialect.Postgres {
			var n int
			if err := migrated.SQL.QueryRow(`SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'`).Scan(&n); err != nil || n != 1 {
				t.Errorf("pg_trgm is not enabled by the migrations (%d, %v)", n, err)
			}
		}
	})
}

// expectHandWritten checks that the objects of the hand-written migrations
// are there: a later migration that rebuilds a table on SQLite (copy, drop,
// rename) drops its triggers, and must make them again.
func expectHandWritten(t *testing.T, d *db.DB) {
	t.Helper()
	q, names := `SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?`, contactsearch.SQLiteTriggers
	if d.Dialect == dialect.Postgres {
		q, names = `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1`, db.HandWrittenIndexes
	}
	for _, name := range names {
		var n int
		if err := d.SQL.QueryRow(q, name).Scan(&n); err != nil || n != 1 {
			t.Errorf("%s, made by a hand-written migration, is missing (%d, %v)", name, n, err)
		}
	}
}

func tableNames(t *testing.T, d *db.DB) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if d.Dialect == dialect.Postgres {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	rows, err := d.SQL.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func TestMigrationStates(t *testing.T) {
	probe := migrate.NewLocalFile("29990101000000_probe.sql", []byte("CREATE TABLE migration_probe (id integer PRIMARY KEY);\n"))
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		ctx := context.Background()
		d := testdb.Open(t, e.NewEmptyURL(t))
		state := func(dir migrate.Dir) *db.MigrationStatus {
			t.Helper()
			st, err := d.MigrationStatus(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		files, _ := migrations(t, d).Files()
		if st := state(migrations(t, d)); st.State != db.Fresh || len(st.Pending) != len(files) || st.Err() != nil {
			t.Fatalf("empty database: %v with %d pending, want empty with all %d", st.State, len(st.Pending), len(files))
		}
		done, err := d.MigrateUp(ctx, migrations(t, d))
		if err != nil || len(done) != len(files) {
			t.Fatalf("migrate up on an empty database did %q, %v; want every file applied", done, err)
		}
		if st := state(migrations(t, d)); st.State != db.UpToDate || len(st.Applied) != len(files) {
			t.Errorf("after migrate up: %v with %d revisions", st.State, len(st.Applied))
		}
		longer := withFiles(t, d, probe)
		if st := state(longer); st.State != db.Behind || len(st.Pending) != 1 || st.Pending[0].Name() != probe.Name() {
			t.Errorf("with a new file: %v, pending %v; want behind with the probe", st.State, st.Pending)
		}
		if done, err := d.MigrateUp(ctx, longer); err != nil || !slices.Equal(done, []string{"applied " + probe.Name()}) {
			t.Errorf("migrate up with a new file did %q, %v", done, err)
		}
		if done, err := d.MigrateUp(ctx, longer); err != nil || len(done) != 0 {
			t.Errorf("a second migrate up did %q, %v; want nothing", done, err)
		}
		st := state(migrations(t, d))
		if st.State != db.Ahead || st.Err() == nil || !strings.Contains(st.Err().Error(), "29990101000000") {
			t.Errorf("a binary without the probe: %v, %v; want ahead naming the version", st.State, st.Err())
		}
		if _, err := d.MigrateUp(ctx, migrations(t, d)); err == nil || !strings.Contains(err.Error(), "does not know") {
			t.Errorf("migrate up on a database ahead: %v, want a refusal", err)
		}
	})
}

func TestMigrationEditedAfterItWasApplied(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		d := e.New(t)
		files, _ := migrations(t, d).Files()
		last := files[len(files)-1]
		edited := migrate.NewLocalFile(last.Name(), append(last.Bytes(), "-- an afterthought\n"...))
		dir := &migrate.MemDir{}
		if err := dir.CopyFiles(append(files[:len(files)-1:len(files)-1], edited)); err != nil {
			t.Fatal(err)
		}
		st, err := d.MigrationStatus(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Err(); err == nil || !strings.Contains(err.Error(), last.Name()) {
			t.Errorf("an applied file edited afterwards: %v, want a refusal naming %s", err, last.Name())
		}
	})
}

// TestMigrationFileIsOneTransaction: a file that fails half-way leaves
// nothing behind, neither its first statements nor a revision.
func TestMigrationFileIsOneTransaction(t *testing.T) {
	broken := migrate.NewLocalFile("29990101000000_broken.sql",
		[]byte("CREATE TABLE half_done (id integer PRIMARY KEY);\nINSERT INTO no_such_table VALUES (1);\n"))
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		ctx := context.Background()
		d := e.New(t)
		_, err := d.MigrateUp(ctx, withFiles(t, d, broken))
		if err == nil || !strings.Contains(err.Error(), broken.Name()) {
			t.Fatalf("a failing migration: %v, want an error naming it", err)
		}
		if slices.Contains(tableNames(t, d), "half_done") {
			t.Error("the failed file's first statement stayed applied")
		}
		st, err := d.MigrationStatus(ctx, withFiles(t, d, broken))
		if err != nil || st.State != db.Behind || len(st.Pending) != 1 {
			t.Errorf("after the failure: %v, %v; want the file still pending", st, err)
		}
	})
}

// TestLegacyDatabaseIsAdopted: a database made by ent's auto-migration
// (every start before versioned migrations) keeps its rows and is recorded
// as migrated.
func TestLegacyDatabaseIsAdopted(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		ctx := context.Background()
		d := testdb.Open(t, e.NewEmptyURL(t))
		if e.Name == dialect.Postgres {
			if _, err := d.SQL.Exec(`CREATE EXTENSION IF NOT EXISTS pg_trgm`); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Client.Schema.Create(ctx); err != nil {
			t.Fatal(err)
		}
		now := "CURRENT_TIMESTAMP"
		if _, err := d.SQL.Exec(`INSERT INTO accounts (created_at, updated_at, name) VALUES (` + now + `, ` + now + `, 'Old')`); err != nil {
			t.Fatal(err)
		}
		old, err := d.Client.Contact.Create().SetAccountID(1).SetName("Old Contact").Save(viewer.SystemContext(ctx))
		if err != nil {
			t.Fatal(err)
		}
		st, err := d.MigrationStatus(ctx, migrations(t, d))
		if err != nil || st.State != db.Legacy {
			t.Fatalf("auto-migrated database: %v, %v; want made before versioned migrations", st, err)
		}
		done, err := d.MigrateUp(ctx, migrations(t, d))
		if err != nil || len(done) != 1 || !strings.Contains(done[0], "recorded it as at") {
			t.Fatalf("migrate up did %q, %v", done, err)
		}
		if st, _ := d.MigrationStatus(ctx, migrations(t, d)); st.State != db.UpToDate {
			t.Errorf("after adoption: %v, want up to date", st.State)
		}
		var n int
		if err := d.SQL.QueryRow(`SELECT count(*) FROM accounts WHERE name = 'Old'`).Scan(&n); err != nil || n != 1 {
			t.Errorf("the old account is gone (%d, %v)", n, err)
		}
		expectHandWritten(t, d)
		sys := viewer.SystemContext(ctx)
		found, err := d.Client.Contact.Query().Where(contactsearch.Match("old contact", false)).IDs(sys)
		if err != nil || !slices.Equal(found, []int{old.ID}) {
			t.Errorf("searching the old contact after adoption finds %v (%v), want [%d]", found, err, old.ID)
		}
	})
}
