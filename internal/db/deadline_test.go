package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestStatementDeadline: before the deadline statements and transactions
// run; past it each refuses with context.DeadlineExceeded before it starts
// (the row is not written), on both engines, and the context never ends
// (no Done channel for database/sql or the drivers to watch).
func TestStatementDeadline(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		d := e.New(t)
		bg := context.Background()
		if _, err := d.SQL.ExecContext(bg, "CREATE TABLE deadline_rows (n INTEGER)"); err != nil {
			t.Fatal(err)
		}
		future := db.WithStatementDeadline(bg, time.Now().Add(time.Hour))
		past := db.WithStatementDeadline(bg, time.Now().Add(-time.Second))
		if future.Done() != nil || past.Done() != nil {
			t.Fatal("a statement deadline gives its context a Done channel")
		}
		if got := db.WithStatementDeadline(past, time.Now().Add(time.Hour)); db.StatementDeadlinePassed(got) == nil {
			t.Fatal("a later deadline replaced an earlier one")
		}
		exec := func(ctx context.Context) error {
			_, err := d.SQL.ExecContext(ctx, "INSERT INTO deadline_rows (n) VALUES (1)")
			return err
		}
		query := func(ctx context.Context) error {
			var n int
			return d.SQL.QueryRowContext(ctx, "SELECT count(*) FROM deadline_rows").Scan(&n)
		}
		begin := func(ctx context.Context) error {
			tx, err := d.SQL.BeginTx(ctx, nil)
			if err == nil {
				err = tx.Rollback()
			}
			return err
		}
		inTx := func(ctx context.Context) error {
			tx, err := d.SQL.BeginTx(bg, nil)
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, "UPDATE deadline_rows SET n = n + 1")
			if cerr := tx.Commit(); err == nil {
				err = cerr
			}
			return err
		}
		cases := []struct {
			name string
			run  func(context.Context) error
		}{{"exec", exec}, {"query", query}, {"begin", begin}, {"statement in a transaction", inTx}}
		for _, c := range cases {
			if err := c.run(future); err != nil {
				t.Errorf("%s before the deadline: %v", c.name, err)
			}
			if err := c.run(past); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s past the deadline: %v, want context.DeadlineExceeded", c.name, err)
			}
		}
		var rows, sum int
		if err := d.SQL.QueryRowContext(bg, "SELECT count(*), coalesce(sum(n), 0) FROM deadline_rows").Scan(&rows, &sum); err != nil {
			t.Fatal(err)
		}
		// One insert and one update before the deadline; none after.
		if rows != 1 || sum != 2 {
			t.Errorf("rows = %d with sum %d, want 1 row of 2: a statement past the deadline ran", rows, sum)
		}
	})
}
