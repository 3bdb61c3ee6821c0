package db

import (
	"context"
	"database/sql"
	"errors"
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
// traffic. The connections go back to the pool, which keeps them while they
// are used and for maxIdleTime after (a burst after a longer quiet pays for
// new ones again).
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
	inbox, err := d.warmInbox(ctx)
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
			if errs[i] == nil && inbox.id != 0 {
				errs[i] = warmWrites(ctx, conns[i], inbox, -(i + 1))
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

// warmTarget is the inbox the warm-up writes through and its account (id 0:
// there is no inbox yet, and nothing is written).
type warmTarget struct{ id, account int }

// warmInbox reads the warm-up's inbox, the first one, once for all the
// connections it warms.
func (d *DB) warmInbox(ctx context.Context) (warmTarget, error) {
	var ib warmTarget
	err := d.SQL.QueryRowContext(ctx, `SELECT id, account_id FROM inboxes ORDER BY id LIMIT 1`).Scan(&ib.id, &ib.account)
	if errors.Is(err, sql.ErrNoRows) {
		return warmTarget{}, nil
	}
	return ib, err
}

// warmWrites has a connection write a contact, its contact inbox, a
// conversation and a message through ib, and roll them back: a backend
// plans the foreign-key checks of a table (and loads its indexes) the first
// time it writes a row there, 1.5-2 ms for each key, and in a burst of
// first messages from new customers a dozen new backends paid that at once.
// The rows carry id (negative, one per connection, so warming connections
// never wait on each other's unique keys; ids given are not taken from the
// tables' sequences).
func warmWrites(ctx context.Context, conn *sql.Conn, ib warmTarget, id int) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // rolled back whatever happens
	key := fmt.Sprintf("warm-%d", -id)
	for _, w := range []struct {
		q    string
		args []any
	}{
		{`INSERT INTO contacts (id, created_at, updated_at, additional_attributes, custom_attributes, labels, account_id, search_text)
			VALUES ($1, now(), now(), '{}', '{}', '[]', $2, $3)`, []any{id, ib.account, key}},
		{`INSERT INTO contact_inboxes (id, created_at, updated_at, source_id, contact_id, inbox_id, account_id)
			VALUES ($1, now(), now(), $2, $1, $3, $4)`, []any{id, key, ib.id, ib.account}},
		{`INSERT INTO conversations (id, display_id, created_at, updated_at, uuid, labels, additional_attributes, custom_attributes,
			last_activity_at, contact_id, contact_inbox_id, inbox_id, account_id)
			VALUES ($1, $1, now(), now(), $2, '[]', '{}', '{}', now(), $1, $1, $3, $4)`, []any{id, key, ib.id, ib.account}},
		{`INSERT INTO messages (id, created_at, updated_at, content, content_attributes, additional_attributes, conversation_id, inbox_id, account_id)
			VALUES ($1, now(), now(), $2, '{}', '{}', $1, $3, $4)`, []any{id, key, ib.id, ib.account}},
	} {
		if _, err := tx.ExecContext(ctx, w.q, w.args...); err != nil {
			return err
		}
	}
	return nil
}
