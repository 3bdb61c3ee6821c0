// Package testdb gives tests a fresh database, migrated with the migration
// files, per test on every engine available: always SQLite, and PostgreSQL when TEST_DATABASE_URL is set
// or initdb and pg_ctl are on PATH (then one throwaway cluster is started per
// test binary).
//
// Packages that use PostgreSQL must let testdb clean up after the test binary:
//
//	func TestMain(m *testing.M) { testdb.Main(m) }
//
// Set SWITCHBOARD_TEST_NO_PG=1 to skip PostgreSQL locally (e.g. for a quick
// run); it wins over everything else, so never set it in CI.
package testdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/switchboard/switchboard/internal/db"
)

// Engine is one database engine the suite runs on.
type Engine struct {
	Name string // "sqlite" or "postgres"
}

const (
	sqliteName   = "sqlite"
	postgresName = "postgres"
)

// Engines lists the engines to run the suite on: always SQLite; PostgreSQL too
// when TEST_DATABASE_URL is set or initdb and pg_ctl are on PATH, unless
// SWITCHBOARD_TEST_NO_PG is set.
func Engines(t testing.TB) []Engine {
	t.Helper()
	engines := []Engine{{Name: sqliteName}}
	if postgresAvailable() {
		engines = append(engines, Engine{Name: postgresName})
	}
	return engines
}

// ForEach runs fn as a subtest per engine, named after the engine.
func ForEach(t *testing.T, fn func(t *testing.T, e Engine)) {
	t.Helper()
	for _, e := range Engines(t) {
		t.Run(e.Name, func(t *testing.T) { fn(t, e) })
	}
}

// New returns a fresh, migrated, empty database on e. It is closed (and on
// PostgreSQL dropped) when t ends.
func (e Engine) New(t testing.TB) *db.DB {
	t.Helper()
	u, migrated := e.create(t)
	// Its close is registered after create's cleanup, so it runs first: the
	// database is closed before it is dropped or its directory removed.
	d := Open(t, u)
	if !migrated {
		if err := migrate(d); err != nil {
			t.Fatalf("testdb: %v", err)
		}
	}
	return d
}

// Open opens the database at url (a DATABASE_URL) with its own connection
// pool, closed when t ends.
func Open(t testing.TB, url string) *db.DB {
	t.Helper()
	d, err := db.Open(url)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// NewURL creates a fresh, migrated, empty database on e and returns its
// DATABASE_URL, for tests that run a subprocess against it. It is removed
// when t ends.
func (e Engine) NewURL(t testing.TB) string {
	t.Helper()
	u, migrated := e.create(t)
	if !migrated {
		migrateURL(t, u)
	}
	return u
}

// NewEmptyURL creates a database on e with no tables at all (not even
// migrated) and returns its DATABASE_URL. It is removed when t ends.
func (e Engine) NewEmptyURL(t testing.TB) string {
	t.Helper()
	switch e.Name {
	case sqliteName:
		return "sqlite://" + filepath.Join(t.TempDir(), "empty.db")
	case postgresName:
		return createPostgres(t, "template0")
	}
	t.Fatalf("testdb: unknown engine %q", e.Name)
	return ""
}

// create makes an empty database for t and reports whether it is migrated
// already: PostgreSQL databases are copies of a migrated template database,
// SQLite ones copies of a migrated template file.
func (e Engine) create(t testing.TB) (u string, migrated bool) {
	t.Helper()
	switch e.Name {
	case sqliteName:
		return copySQLiteTemplate(t), true
	case postgresName:
		return createPostgres(t, ""), true
	default:
		t.Fatalf("testdb: unknown engine %q", e.Name)
		return "", false
	}
}

func migrateURL(t testing.TB, u string) {
	t.Helper()
	d, err := db.Open(u)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	defer d.Close()
	if err := migrate(d); err != nil {
		t.Fatalf("testdb: %v", err)
	}
}

// migrate applies the binary's migration files, as `switchboard migrate up`
// does: every test runs on the schema the files make.
func migrate(d *db.DB) error {
	dir, err := d.Migrations()
	if err != nil {
		return err
	}
	_, err = d.MigrateUp(context.Background(), dir)
	return err
}

// ---- SQLite ----

// sqliteTemplate is a migrated SQLite database file, made once per test
// binary and kept in memory: copying it is much faster than migrating.
var sqliteTemplate struct {
	once  sync.Once
	bytes []byte
	err   error
}

func copySQLiteTemplate(t testing.TB) string {
	t.Helper()
	sqliteTemplate.once.Do(func() { sqliteTemplate.bytes, sqliteTemplate.err = makeSQLiteTemplate() })
	if sqliteTemplate.err != nil {
		t.Fatalf("testdb: migrating the SQLite template: %v", sqliteTemplate.err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, sqliteTemplate.bytes, 0o600); err != nil {
		t.Fatalf("testdb: %v", err)
	}
	return "sqlite://" + path
}

func makeSQLiteTemplate() ([]byte, error) {
	dir, err := os.MkdirTemp("", "switchboard-sqlite-template-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	d, err := db.Open("sqlite://" + path)
	if err != nil {
		return nil, err
	}
	err = migrate(d)
	if err == nil {
		// Everything into the main file, so that it alone is the database.
		_, err = d.SQL.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	}
	if err = errors.Join(err, d.Close()); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// Main runs the tests, then drops the template database and stops the
// cluster testdb started, if any, and exits with the tests' status. (Should
// the binary die first, a reaper process still stops the cluster.)
func Main(m *testing.M) {
	mainCalled.Store(true)
	code := m.Run()
	if err := shutdown(); err != nil {
		fmt.Fprintln(os.Stderr, "testdb:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
