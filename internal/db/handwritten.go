package db

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"slices"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
	entschema "entgo.io/ent/dialect/sql/schema"

	"github.com/switchboard/switchboard/internal/contactsearch"
)

// Some schema objects cannot be declared in ent/schema (SQLite's FTS5 table
// and its triggers, an index with NULLS LAST): hand-written migration files
// make them. They are named here, so that schema diffs, which compare the
// database with ent/schema, neither drop them nor count them as drift.

// HandWrittenTables are the tables no ent schema declares.
var HandWrittenTables = contactsearch.SQLiteTables

// HandWrittenIndexes are the indexes on ent's tables no ent schema declares.
var HandWrittenIndexes = contactsearch.PostgresIndexes

// handWrittenMark starts a hand-written migration file (migrategen -blank
// writes it).
var handWrittenMark = []byte("-- Hand-written")

// keepHandWritten removes from a diff the drops of hand-written objects.
func keepHandWritten(next entschema.Differ) entschema.Differ {
	return entschema.DiffFunc(func(current, desired *schema.Schema) ([]schema.Change, error) {
		changes, err := next.Diff(current, desired)
		if err != nil {
			return nil, err
		}
		return slices.DeleteFunc(changes, func(c schema.Change) bool {
			switch c := c.(type) {
			case *schema.DropTable:
				return slices.Contains(HandWrittenTables, c.T.Name)
			case *schema.ModifyTable:
				c.Changes = slices.DeleteFunc(c.Changes, func(c schema.Change) bool {
					drop, ok := c.(*schema.DropIndex)
					return ok && slices.Contains(HandWrittenIndexes, drop.I.Name)
				})
				return len(c.Changes) == 0
			}
			return false
		}), nil
	})
}

// replayHandWritten runs every hand-written file of files in tx, in order.
// Ent's auto-migration makes only what ent/schema declares, so a database
// it made lacks what hand-written files make; they are written to be safe
// to run again.
func (d *DB) replayHandWritten(ctx context.Context, tx *sql.Tx, files []migrate.File) error {
	drv, err := d.atlasDriver(tx)
	if err != nil {
		return err
	}
	for _, f := range files {
		if !bytes.HasPrefix(f.Bytes(), handWrittenMark) {
			continue
		}
		// The engine's own statement splitting, as the executor's: SQLite's
		// trigger bodies hold semicolons.
		stmts, err := migrate.FileStmts(drv, f)
		if err != nil {
			return fmt.Errorf("reading %s: %w", f.Name(), err)
		}
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("replaying %s: %w", f.Name(), err)
			}
		}
	}
	return nil
}
