package testdb

import (
	"testing"

	"github.com/switchboard/switchboard/internal/db"
)

// Postgres is the PostgreSQL engine; it skips t (saying why) when none is
// available.
func Postgres(t testing.TB, why string) Engine {
	t.Helper()
	for _, e := range Engines(t) {
		if e.Name == postgresName {
			return e
		}
	}
	t.Skip(why + "; PostgreSQL is not available here")
	return Engine{}
}

// SharedPostgres creates a fresh, migrated PostgreSQL database for several
// instances of one deployment and answers how each opens its own
// connection pool to it (closed when t ends); it skips t when PostgreSQL is
// not available.
func SharedPostgres(t testing.TB) (open func() *db.DB) {
	t.Helper()
	url := Postgres(t, "instances share a PostgreSQL database").NewURL(t)
	return func() *db.DB {
		t.Helper()
		return Open(t, url)
	}
}
