// Command migrategen writes the versioned migrations of
// internal/db/migrations from ent/schema, with ent's Atlas integration.
// Run it from the module:
//
//	go run ./internal/db/migrategen -name add_x   # a migration to ent/schema's current state, per engine
//	go run ./internal/db/migrategen -blank NAME   # an empty file for hand-written SQL; edit it, then:
//	go run ./internal/db/migrategen -hash         # recompute atlas.sum after editing a file
//
// -engine sqlite or -engine postgres limits it to one engine. The schema the
// existing files make is computed by replaying them on a scratch database
// (Atlas's "dev database"): SQLite in a temporary file; PostgreSQL in a new
// database on TEST_DATABASE_URL's server, or else in a throwaway cluster
// (initdb and pg_ctl on PATH), as the tests do.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/db/migrations"
	"github.com/switchboard/switchboard/internal/testdb"
)

var validName = regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`)

func main() {
	name := flag.String("name", "", "write the migration from the files to ent/schema, named NAME")
	blank := flag.String("blank", "", "write an empty migration file named NAME, for hand-written SQL")
	hash := flag.Bool("hash", false, "recompute atlas.sum after a file was edited")
	engine := flag.String("engine", "", "sqlite or postgres (default: both)")
	flag.Parse()
	if err := run(*name, *blank, *hash, *engine); err != nil {
		fmt.Fprintln(os.Stderr, "migrategen:", err)
		os.Exit(1)
	}
}

func run(name, blank string, hash bool, engine string) error {
	if n := countSet(name != "", blank != "", hash); n != 1 || flag.NArg() > 0 {
		flag.Usage()
		return errors.New("give one of -name NAME, -blank NAME or -hash")
	}
	if !validName.MatchString(name+blank) && !hash {
		return fmt.Errorf("name %q: want lower-case words joined by _ (add_contact_notes)", name+blank)
	}
	dialects := []string{dialect.SQLite, dialect.Postgres}
	if engine != "" {
		dialects = slices.DeleteFunc(dialects, func(d string) bool { return d != engineDialect(engine) })
		if len(dialects) == 0 {
			return fmt.Errorf("-engine %q: want sqlite or postgres", engine)
		}
	}
	for _, dia := range dialects {
		dir, err := localDir(dia)
		if err != nil {
			return err
		}
		switch {
		case hash:
			err = rehash(dir)
		case blank != "":
			err = writeBlank(dir, blank)
		default:
			err = plan(dia, dir, name)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", dia, err)
		}
	}
	return nil
}

func countSet(bs ...bool) (n int) {
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func engineDialect(engine string) string {
	if engine == "sqlite" {
		return dialect.SQLite
	}
	return engine
}

// localDir is the dialect's migration directory in this checkout.
func localDir(dia string) (*migrate.LocalDir, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	sub, err := migrations.DirName(dia)
	if err != nil {
		return nil, err
	}
	return migrate.NewLocalDir(filepath.Join(root, "internal", "db", "migrations", sub))
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: run it inside the module")
		}
		dir = parent
	}
}

func rehash(dir *migrate.LocalDir) error {
	sum, err := dir.Checksum()
	if err != nil {
		return err
	}
	if err := migrate.WriteSumFile(dir, sum); err != nil {
		return err
	}
	fmt.Println("rehashed", filepath.Join(dir.Path(), migrate.HashFileName))
	return nil
}

func writeBlank(dir *migrate.LocalDir, name string) error {
	file := migrate.NewVersion() + "_" + name + ".sql"
	body := "-- Hand-written migration: write its SQL here, then run\n-- go run ./internal/db/migrategen -hash\n"
	if err := dir.WriteFile(file, []byte(body)); err != nil {
		return err
	}
	fmt.Println("wrote", filepath.Join(dir.Path(), file))
	return rehash(dir)
}

// plan replays the files on a scratch database and writes the difference to
// ent/schema as a new file.
func plan(dia string, dir *migrate.LocalDir, name string) error {
	url, drop, err := scratch(dia)
	if err != nil {
		return err
	}
	defer func() {
		if err := drop(); err != nil {
			fmt.Fprintln(os.Stderr, "migrategen: removing the scratch database:", err)
		}
	}()
	database, err := db.Open(url)
	if err != nil {
		return err
	}
	defer database.Close()
	before, err := dir.Files()
	if err != nil {
		return err
	}
	wrote, err := database.PlanMigration(context.Background(), dir, name)
	if err != nil || !wrote {
		if err == nil {
			fmt.Printf("%s: the migration files already match ent/schema\n", dia)
		}
		return err
	}
	after, err := dir.Files()
	if err != nil {
		return err
	}
	for _, f := range after[len(before):] {
		fmt.Println("wrote", filepath.Join(dir.Path(), f.Name()))
	}
	return nil
}

// scratch creates an empty database of the dialect for the replay.
func scratch(dia string) (string, func() error, error) {
	if dia == dialect.Postgres {
		return testdb.ScratchPostgres()
	}
	tmp, err := os.MkdirTemp("", "migrategen-")
	if err != nil {
		return "", nil, err
	}
	return "sqlite://" + filepath.Join(tmp, "dev.db"), func() error { return os.RemoveAll(tmp) }, nil
}
