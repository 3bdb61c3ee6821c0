package db

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

	"entgo.io/ent/dialect"
)

// WarmConnections is how many connections the server warms at start: more
// than a burst of webhook posts from a dozen clients takes at once, half of
// the PostgreSQL pool.
const WarmConnections = 16

// Warm opens n of the pool's connections at once and, on PostgreSQL, has
// each plan a read of every table of the schema. A new PostgreSQL backend
// loads the catalog of each table, index and type the first time a
// statement names it: in a burst that met a cold pool, a dozen new
// connections spent 10-40 ms on each of their first statements, which were
// among the burst's slowest answers. Warm pays that once, before the
// traffic; the writes of a customer's first message are warmed through the
// real operation after it (conversations.WarmInbound). The connections go
// back to the pool, which keeps them while they are used and for
// maxIdleTime after (a burst after a longer quiet pays for new ones again).
func (d *DB) Warm(ctx context.Context, n int) error {
	if d.Dialect != dialect.Postgres || n <= 0 {
		return nil
	}
	if limit := d.SQL.Stats().MaxOpenConnections; limit > 0 {
		// More would wait for one of these to come back: forever.
		n = min(n, limit)
	}
	q, err := d.warmStatement(ctx)
	if err != nil {
		return err
	}
	conns := make([]*sql.Conn, n)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if conns[i], errs[i] = d.SQL.Conn(ctx); errs[i] == nil {
				_, errs[i] = conns[i].ExecContext(ctx, q)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("warming the pool: %w", err)
		}
	}
	return nil
}

// warmStatement counts at most one row of every table of the current
// schema: the planner opens each table and its indexes to plan it. Where
// pg_trgm is installed it also calls one of its functions: a backend loads
// the extension's library on first use, and the first contact it inserted
// (the search index is a trigram one) took 8 ms against 2 ms after that.
func (d *DB) warmStatement(ctx context.Context) (string, error) {
	var trgm bool
	if err := d.SQL.QueryRowContext(ctx, `SELECT to_regprocedure('show_trgm(text)') IS NOT NULL`).Scan(&trgm); err != nil {
		return "", err
	}
	rows, err := d.SQL.QueryContext(ctx, `SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var parts []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return "", err
		}
		parts = append(parts, fmt.Sprintf("(SELECT count(*) FROM (SELECT * FROM %s LIMIT 1) t)", t))
	}
	if trgm {
		parts = append(parts, "cardinality(show_trgm('warm'))")
	}
	if err := rows.Err(); err != nil || len(parts) == 0 {
		return "SELECT 1", err
	}
	return "SELECT " + strings.Join(parts, " + "), nil
}
