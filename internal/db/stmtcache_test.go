package db

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

	// Bounded: past the limit each new statement takes one's place.
	last := ""
	for i := range maxCachedStatements + 10 {
		var x int
		last = "SELECT ? + " + strconv.Itoa(i)
		if err := tx.QueryRowContext(ctx, last, 1).Scan(&x); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(cached.stmts); n != maxCachedStatements {
		t.Errorf("%d statements cached, want %d", n, maxCachedStatements)
	}
	if cached.stmts[last] == nil {
		t.Error("the newest statement is not cached")
	}

	// A statement dropped while its rows are open is closed once they are,
	// not before: the rows read on.
	rows, err := tx.QueryContext(ctx, each, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := cached.stmts[each]
	cached.drop(each, s)
	if !s.evicted || cached.stmts[each] != nil {
		t.Fatalf("the busy statement was not set aside: %+v", s)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Close(); err != nil || n != 3 {
		t.Fatalf("the rows of a dropped statement read %d (%v), want 3", n, err)
	}

	// Long argument lists (IN lists of every length) run uncached.
	args := make([]any, maxCachedArgs+1)
	marks := make([]string, len(args))
	for i := range args {
		args[i], marks[i] = i, "?"
	}
	long := "SELECT count(*) FROM t WHERE n IN (" + strings.Join(marks, ", ") + ")"
	var found int
	if err := tx.QueryRowContext(ctx, long, args...).Scan(&found); err != nil || found != 3 {
		t.Fatalf("the long IN list found %d (%v), want 3", found, err)
	}
	if cached.stmts[long] != nil {
		t.Error("a statement with more than maxCachedArgs arguments was cached")
	}
}
