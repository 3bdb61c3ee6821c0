package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"ariga.io/atlas/sql/migrate"

	"github.com/switchboard/switchboard/internal/config"
	"github.com/switchboard/switchboard/internal/db"
)

// Schema migrations: the versioned files of internal/db/migrations.
//
//	switchboard migrate up       apply the pending migrations
//	switchboard migrate status   where the database stands; changes nothing

const migrateHint = "run `switchboard migrate up`, or start with AUTO_MIGRATE=1"

// prepareSchema decides at start what to do with the database's schema:
// nothing when it is up to date; every migration on an empty database
// (nothing can be lost, and a first start needs no setup); pending ones on
// a database behind the binary, or made before versioned migrations, only
// with AUTO_MIGRATE=1 (else it refuses, naming the command); and never
// anything on a database ahead of the binary.
func prepareSchema(ctx context.Context, database *db.DB, dir migrate.Dir, auto bool) error {
	done, err := database.MigrateUpIf(ctx, dir, func(st *db.MigrationStatus) error {
		switch {
		case st.State == db.Behind && !auto:
			return fmt.Errorf("the database schema is behind this binary (pending: %s): %s", fileNames(st.Pending), migrateHint)
		case st.State == db.Legacy && !auto:
			return fmt.Errorf("the database was made before versioned migrations: %s", migrateHint)
		}
		return nil
	})
	for _, line := range done {
		slog.Info("schema migration", "did", line)
	}
	return err
}

func fileNames(files []migrate.File) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name()
	}
	return strings.Join(names, ", ")
}

// withMigrations opens DATABASE_URL without touching its schema and runs
// fn with the binary's migrations.
func withMigrations(cfg config.Config, fn func(context.Context, *db.DB, migrate.Dir) error) error {
	ctx := context.Background()
	database, err := waitForDatabase(ctx, cfg.DatabaseURL, cfg.DatabaseWait, db.Open)
	if err != nil {
		return err
	}
	defer database.Close()
	dir, err := database.Migrations()
	if err != nil {
		return err
	}
	return fn(ctx, database, dir)
}

func noArguments(name string, args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("usage: switchboard %s (no arguments)", name)
	}
	return nil
}

// migrateUpCommand applies the pending migrations and prints what it did.
func migrateUpCommand(cfg config.Config, args []string, out io.Writer) error {
	if err := noArguments("migrate up", args); err != nil {
		return err
	}
	return withMigrations(cfg, func(ctx context.Context, database *db.DB, dir migrate.Dir) error {
		return migrateUp(ctx, database, dir, out)
	})
}

func migrateUp(ctx context.Context, database *db.DB, dir migrate.Dir, out io.Writer) error {
	done, err := database.MigrateUp(ctx, dir)
	for _, line := range done {
		fmt.Fprintln(out, line)
	}
	if err != nil {
		return err
	}
	if len(done) == 0 {
		_, err = fmt.Fprintln(out, "the database is up to date; nothing to apply")
	}
	return err
}

// migrateStatusCommand prints where the database stands.
func migrateStatusCommand(cfg config.Config, args []string, out io.Writer) error {
	if err := noArguments("migrate status", args); err != nil {
		return err
	}
	if err := db.MustExist(cfg.DatabaseURL); err != nil {
		return err // it changes nothing: not even an empty file at a mistyped path
	}
	return withMigrations(cfg, func(ctx context.Context, database *db.DB, dir migrate.Dir) error {
		return migrateStatus(ctx, database, dir, out)
	})
}

func migrateStatus(ctx context.Context, database *db.DB, dir migrate.Dir, out io.Writer) error {
	st, err := database.MigrationStatus(ctx, dir)
	if err != nil {
		return err
	}
	applied := len(st.Files) - len(st.Pending)
	fmt.Fprintf(out, "database:    %s\n", database.Dialect)
	fmt.Fprintf(out, "migrations:  %d of %d applied%s\n", applied, len(st.Files), lastApplied(st))
	if len(st.Pending) > 0 {
		fmt.Fprintf(out, "pending:     %s\n", fileNames(st.Pending))
	}
	fmt.Fprintf(out, "state:       %s\n", stateAdvice(st))
	return nil
}

func lastApplied(st *db.MigrationStatus) string {
	if n := len(st.Applied); n > 0 {
		return " (last: " + st.Applied[n-1].Version + ")"
	}
	return ""
}

func stateAdvice(st *db.MigrationStatus) string {
	if err := st.Err(); err != nil {
		return err.Error()
	}
	switch st.State {
	case db.Fresh:
		return "empty: the server migrates it at its first start (or run `switchboard migrate up`)"
	case db.Behind, db.Legacy:
		return st.State.String() + ": " + migrateHint
	}
	return st.State.String()
}
