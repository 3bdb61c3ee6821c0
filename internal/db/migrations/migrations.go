// Package migrations holds the versioned schema migrations, one directory
// per engine, with Atlas's atlas.sum guarding each against edits. They are
// generated from ent/schema by `go run ./internal/db/migrategen -name NAME`
// (hand-written ones: -blank NAME, then -hash) and embedded in the binary.
// A hand-written file keeps the header -blank writes ("-- Hand-written") and
// is safe to run again; what it makes that ent/schema does not declare is
// named in internal/db/handwritten.go.
package migrations

import (
	"embed"
	"fmt"
	"io/fs"
	"path"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
)

//go:embed sqlite postgres
var files embed.FS

// DirName is the directory of an ent dialect's migrations, under this
// package's directory.
func DirName(dia string) (string, error) {
	switch dia {
	case dialect.SQLite:
		return "sqlite", nil
	case dialect.Postgres:
		return "postgres", nil
	}
	return "", fmt.Errorf("no migrations for dialect %q", dia)
}

// Dir returns the embedded migration directory of an ent dialect, as an
// Atlas directory.
func Dir(dia string) (migrate.Dir, error) {
	name, err := DirName(dia)
	if err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(files, name)
	if err != nil {
		return nil, err
	}
	dir := &migrate.MemDir{}
	for _, e := range entries {
		b, err := fs.ReadFile(files, path.Join(name, e.Name()))
		if err != nil {
			return nil, err
		}
		if err := dir.WriteFile(e.Name(), b); err != nil {
			return nil, err
		}
	}
	return dir, nil
}
