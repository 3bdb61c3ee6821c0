package db

import (
	"context"
	"errors"
	"strings"

	"ariga.io/atlas/sql/migrate"
	entschema "entgo.io/ent/dialect/sql/schema"
)

// diffOptions compare ent/schema with a state in Atlas's file format, with
// every kind of change: unlike auto-migration, a versioned migration drops
// columns and indexes too (its file is read before it is committed).
func (d *DB) diffOptions(dir migrate.Dir, mode entschema.Mode) []entschema.MigrateOption {
	return []entschema.MigrateOption{
		entschema.WithDir(dir),
		entschema.WithMigrationMode(mode),
		entschema.WithDialect(d.Dialect),
		entschema.WithFormatter(migrate.DefaultFormatter),
		entschema.WithForeignKeys(true),
		entschema.WithDropColumn(true),
		entschema.WithDropIndex(true),
		entschema.WithErrNoPlan(true),
		entschema.WithDiffHook(keepHandWritten),
	}
}

// PlanMigration writes to dir a migration named name that takes the schema
// of dir's files to ent/schema's, and reports whether there was anything to
// write. The files are replayed on this database, which must be an empty
// scratch one (Atlas's "dev database").
func (d *DB) PlanMigration(ctx context.Context, dir migrate.Dir, name string) (bool, error) {
	migrateMu.Lock()
	defer migrateMu.Unlock()
	err := d.Client.Schema.NamedDiff(ctx, name, d.diffOptions(dir, entschema.ModeReplay)...)
	if errors.Is(err, migrate.ErrNoPlan) {
		return false, nil
	}
	return err == nil, err
}

// SchemaDrift returns the statements that would take this database's tables
// to ent/schema's ("" when they agree). Tables ent does not know are not
// looked at.
func (d *DB) SchemaDrift(ctx context.Context) (string, error) {
	migrateMu.Lock()
	defer migrateMu.Unlock()
	dir := &migrate.MemDir{}
	err := d.Client.Schema.NamedDiff(ctx, "drift", d.diffOptions(dir, entschema.ModeInspect)...)
	if errors.Is(err, migrate.ErrNoPlan) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	files, err := dir.Files()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range files {
		b.Write(f.Bytes())
	}
	return b.String(), nil
}
