package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"

	"github.com/switchboard/switchboard/internal/db"
)

// withoutIndexes runs load with the secondary indexes of tables dropped on
// PostgreSQL, then builds them again from their saved definitions: one build
// of a trigram GIN index over a million rows is much cheaper than keeping it
// up to date through a million inserts. Indexes behind constraints (primary
// keys) stay. Unique indexes are built after the load, so it must not rely on
// them. On SQLite it just runs load.
func withoutIndexes(ctx context.Context, raw *db.DB, progress io.Writer, tables []string, load func() error) error {
	if raw.Dialect != dialect.Postgres {
		return load()
	}
	defs, err := secondaryIndexes(ctx, raw, tables)
	if err != nil {
		return err
	}
	for name := range defs {
		if _, err := raw.SQL.ExecContext(ctx, `DROP INDEX `+pq.QuoteIdentifier(name)); err != nil {
			return err
		}
	}
	loadErr := load()
	started := time.Now()
	for name, def := range defs {
		if _, err := raw.SQL.ExecContext(ctx, def); err != nil {
			return fmt.Errorf("rebuilding index %s: %w", name, err)
		}
	}
	fmt.Fprintf(progress, "\rrebuilt %d indexes in %s   \n", len(defs), time.Since(started).Round(time.Millisecond))
	return loadErr
}

// secondaryIndexes maps the name of each index of tables that no constraint
// owns to its CREATE INDEX statement.
func secondaryIndexes(ctx context.Context, raw *db.DB, tables []string) (map[string]string, error) {
	rows, err := raw.SQL.QueryContext(ctx, `SELECT i.indexname, i.indexdef FROM pg_indexes i
		WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
		AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`, pq.Array(tables))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	defs := map[string]string{}
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			return nil, err
		}
		defs[name] = def
	}
	return defs, rows.Err()
}
