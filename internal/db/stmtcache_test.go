package db

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestSQLiteStatementsAreReusedAndNeverShared: a connection prepares a
// query once and runs it again through its statement; a query run while
// the same query's rows are still open (inside a transaction's loop) runs
// uncached and both read what they should; the cache is bounded.
func TestSQLiteStatementsAreReusedAndNeverShared(t *testing.T) {
	d, err := Open("sqlite://" + filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	conn, err := d.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{"CREATE TABLE t (n INTEGER)", "INSERT INTO t (n) VALUES (1), (2), (3)"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	const sum = "SELECT sum(n) FROM t WHERE n >= ?"
	var cached *cachingConn
	for _, want := range []int{6, 6} {
		var got int
		if err := conn.QueryRowContext(ctx, sum, 1).Scan(&got); err != nil || got != want {
			t.Fatalf("sum = %d (%v), want %d", got, err, want)
		}
		_ = conn.Raw(func(dc any) error { cached = dc.(*cachingConn); return nil })
	}
	if s := cached.stmts[sum]; s == nil || s.busy {
		t.Fatalf("the query's statement is not cached and free: %+v", s)
	}

	// The same query inside its own open rows, as a loop in a transaction
	// would run it.
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const each = "SELECT n FROM t WHERE n >= ? ORDER BY n"
	outer, err := tx.QueryContext(ctx, each, 1)
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]int
	for outer.Next() {
		var n int
		if err := outer.Scan(&n); err != nil {
			t.Fatal(err)
		}
		inner, err := tx.QueryContext(ctx, each, n)
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		for inner.Next() {
			count++
		}
		inner.Close()
		pairs = append(pairs, [2]int{n, count})
	}
	if err := outer.Close(); err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{1, 3}, {2, 2}, {3, 1}}; !slices.Equal(pairs, want) {
		t.Errorf("nested queries read %v, want %v", pairs, want)
	}
	if s := cached.stmts[each]; s == nil || s.busy {
		t.Errorf("after the loop the statement is %+v, want cached and free", s)
	}

	// Bounded: past the limit the cache starts over.
	for i := range maxCachedStatements + 1 {
		var x int
		if err := tx.QueryRowContext(ctx, "SELECT ? + "+strconv.Itoa(i), 1).Scan(&x); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(cached.stmts); n > maxCachedStatements {
		t.Errorf("%d statements cached, want at most %d", n, maxCachedStatements)
	}
}
