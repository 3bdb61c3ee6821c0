package db_test

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestPostgresStatementsAreReused: a query with arguments runs through one
// named statement per connection, and the statement outlives a rolled-back
// and an aborted transaction (named statements belong to the session, not
// to a transaction).
func TestPostgresStatementsAreReused(t *testing.T) {
	ctx := context.Background()
	for _, conn := range postgresConns(t) {
		const next = "SELECT $1::int + 1"
		prepared := func() int {
			t.Helper()
			var n int
			if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM pg_prepared_statements WHERE statement = $1", next).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		run := func(q queryer, arg int) error {
			var got int
			if err := q.QueryRowContext(ctx, next, arg).Scan(&got); err != nil {
				return err
			}
			if got != arg+1 {
				t.Fatalf("%s with %d = %d", next, arg, got)
			}
			return nil
		}

		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := run(tx, 1); err != nil { // prepared inside a transaction…
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil { // …that rolls back
			t.Fatal(err)
		}
		for i := range 3 {
			if err := run(conn, i); err != nil {
				t.Fatalf("after the rollback: %v", err)
			}
		}
		if n := prepared(); n != 1 {
			t.Fatalf("%d named statements for the query, want 1", n)
		}

		// An error aborts a transaction: the cached statement fails in it as
		// any statement would, and works again after the rollback.
		tx, err = conn.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, "SELECT 1 / $1::int", 0); err == nil {
			t.Fatal("division by zero did not fail")
		}
		if err := run(tx, 5); err == nil || !strings.Contains(err.Error(), "aborted") {
			t.Fatalf("in the aborted transaction: %v, want the transaction-aborted error", err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if err := run(conn, 7); err != nil {
			t.Fatalf("after the aborted transaction: %v", err)
		}
		if n := prepared(); n != 1 {
			t.Fatalf("%d named statements for the query, want 1", n)
		}
	}
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// A statement PostgreSQL refuses to prepare inside a transaction answers
// the reason (the failed prepare aborts the transaction, so running it
// unprepared could only say "current transaction is aborted"), whether it
// is run for rows or not; outside one as inside.
func TestPostgresStatementErrorsSayWhy(t *testing.T) {
	for _, e := range testdb.Engines(t) {
		if e.Name != "postgres" {
			continue
		}
		d := e.New(t)
		ctx := context.Background()
		const bad = `UPDATE accounts SET no_such_column = $1 WHERE id = $2`
		for _, tc := range []struct {
			name string
			run  func(q queryer) error
		}{
			{name: "exec", run: func(q queryer) error { _, err := q.ExecContext(ctx, bad, 1, 1); return err }},
			{name: "query", run: func(q queryer) error {
				rows, err := q.QueryContext(ctx, bad+" RETURNING id", 1, 1)
				if err == nil {
					rows.Close()
				}
				return err
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tx, err := d.SQL.BeginTx(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer tx.Rollback() //nolint:errcheck // the test's transaction
				for where, q := range map[string]queryer{"in a transaction": tx, "alone": d.SQL} {
					if err := tc.run(q); err == nil || !strings.Contains(err.Error(), `column "no_such_column"`) {
						t.Errorf("%s: %v, want the undefined column named", where, err)
					}
				}
			})
		}
	}
}

// TestPostgresInListsShareOneStatement: IN lists of integers of any length
// from two up run as one prepared statement (an array argument) and find
// the same rows as the list did, with arguments before and after the list.
func TestPostgresInListsShareOneStatement(t *testing.T) {
	ctx := context.Background()
	for _, conn := range postgresConns(t) {
		for n := 2; n <= 40; n++ {
			ph := make([]string, n)
			args := []any{"a"}
			for i := range ph {
				ph[i] = "$" + strconv.Itoa(i+2)
				args = append(args, i*10)
			}
			args = append(args, 30)
			q := "SELECT count(*), $1::text FROM generate_series(0, 1000) AS g(x) WHERE x IN (" +
				strings.Join(ph, ", ") + ") AND x >= $" + strconv.Itoa(n+2)
			var got int
			var s string
			if err := conn.QueryRowContext(ctx, q, args...).Scan(&got, &s); err != nil {
				t.Fatalf("%d in the list: %v", n, err)
			}
			if want := max(n-3, 0); got != want || s != "a" {
				t.Errorf("%d in the list: %d rows and %q, want %d and %q", n, got, s, want, "a")
			}
		}
		var prepared int
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%generate_series%' AND statement NOT LIKE '%pg_prepared_statements%'").Scan(&prepared); err != nil {
			t.Fatal(err)
		}
		if prepared != 1 {
			t.Errorf("%d statements prepared for lists of 2 to 40, want 1", prepared)
		}
	}
}

// postgresConns returns one connection to a new database of each
// PostgreSQL engine the tests run on (none without one).
func postgresConns(t *testing.T) []*sql.Conn {
	t.Helper()
	var conns []*sql.Conn
	for _, e := range testdb.Engines(t) {
		if e.Name != "postgres" {
			continue
		}
		conn, err := e.New(t).SQL.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		conns = append(conns, conn)
	}
	return conns
}
