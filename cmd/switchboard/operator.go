package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/internal/config"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/ops"
)

// Operator commands: recovery and backup from the server's command line.
//
//	switchboard users reset-password --email E [--password P]
//	switchboard tokens rotate --email E
//	switchboard backup FILE

// command runs with the configuration and its own arguments, printing its
// result to out.
type command func(cfg config.Config, args []string, out io.Writer) error

// subcommands maps the first arguments to their command.
var subcommands = map[string]command{
	"bootstrap":            bootstrap,
	"users reset-password": resetPassword,
	"tokens rotate":        rotateToken,
	"backup":               backup,
	"migrate up":           migrateUpCommand,
	"migrate status":       migrateStatusCommand,
}

// findSubcommand picks the command named by the first one or two arguments.
func findSubcommand(args []string) (command, []string, bool) {
	if len(args) >= 2 {
		if cmd, ok := subcommands[args[0]+" "+args[1]]; ok {
			return cmd, args[2:], true
		}
	}
	if len(args) >= 1 {
		if cmd, ok := subcommands[args[0]]; ok {
			return cmd, args[1:], true
		}
	}
	return nil, nil, false
}

// commandNames lists the commands, for an error message.
func commandNames() string {
	names := slices.Sorted(maps.Keys(subcommands))
	return strings.Join(names, ", ")
}

// withService opens DATABASE_URL as serving does and runs fn on it.
func withService(cfg config.Config, fn func(ctx context.Context, svc *ops.Service) error) error {
	if err := db.MustExist(cfg.DatabaseURL); err != nil {
		return err
	}
	ctx := context.Background()
	database, err := openDatabase(ctx, cfg)
	if err != nil {
		return err
	}
	defer database.Close()
	if err := fn(ctx, ops.New(database.Client)); err != nil {
		return err
	}
	// The servers running on the database remember verified tokens (and
	// inboxes, subscribers, pages) for a while: on PostgreSQL they are told
	// to forget them now, so a rotated token stops working at once. SQLite
	// has no channel between processes; there the caches' lifetime (15 s)
	// bounds it.
	if database.Dialect == dialect.Postgres {
		return events.AnnounceThroughPostgres(ctx, database.SQL, events.ForgetEverything...)
	}
	return nil
}

func emailFlag(name string) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	return fs, fs.String("email", "", "the user's e-mail (required)")
}

// resetPassword sets a user's console password and prints one line of JSON
// {"email","password"}: the password is shown this once.
func resetPassword(cfg config.Config, args []string, out io.Writer) error {
	fs, email := emailFlag("users reset-password")
	password := fs.String("password", "", "the new password (default: a random one)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *email == "" {
		fs.Usage()
		return errors.New("users reset-password needs --email")
	}
	return withService(cfg, func(ctx context.Context, svc *ops.Service) error {
		pw, err := svc.ResetPassword(ctx, *email, *password)
		if err != nil {
			return err
		}
		return json.NewEncoder(out).Encode(map[string]string{"email": *email, "password": pw})
	})
}

// rotateToken replaces a user's API access tokens and prints one line of
// JSON {"email","access_token"}: the token is shown this once.
func rotateToken(cfg config.Config, args []string, out io.Writer) error {
	fs, email := emailFlag("tokens rotate")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *email == "" {
		fs.Usage()
		return errors.New("tokens rotate needs --email")
	}
	return withService(cfg, func(ctx context.Context, svc *ops.Service) error {
		tok, err := svc.RotateAccessToken(ctx, *email)
		if err != nil {
			return err
		}
		return json.NewEncoder(out).Encode(map[string]string{"email": *email, "access_token": tok})
	})
}

// backup copies a SQLite database online to FILE (VACUUM INTO: a consistent
// snapshot while the server keeps running). For PostgreSQL it prints the
// pg_dump command instead, without the password, which pg_dump should get
// from PGPASSWORD or ~/.pgpass rather than from a command line others see.
func backup(cfg config.Config, args []string, out io.Writer) error {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return errors.New("usage: switchboard backup FILE")
	}
	file := args[0]
	if isPostgresURL(cfg.DatabaseURL) {
		cmd, err := pgDumpCommand(cfg.DatabaseURL, file)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(out, cmd)
		return err
	}
	if _, err := os.Stat(file); err == nil {
		return fmt.Errorf("backup: %s exists; choose a new file", file)
	}
	if err := db.MustExist(cfg.DatabaseURL); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	ctx := context.Background()
	database, err := waitForDatabase(ctx, cfg.DatabaseURL, cfg.DatabaseWait, db.Open)
	if err != nil {
		return err
	}
	defer database.Close()
	if database.Dialect != dialect.SQLite {
		return fmt.Errorf("backup: unsupported database %s", database.Dialect)
	}
	if _, err := database.SQL.ExecContext(ctx, "VACUUM INTO ?", file); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	_, err = fmt.Fprintf(out, "backed up to %s\n", file)
	return err
}

func isPostgresURL(raw string) bool {
	return strings.HasPrefix(raw, "postgres://") || strings.HasPrefix(raw, "postgresql://")
}

// pgDumpCommand is the pg_dump command line that backs DATABASE_URL up to
// file in pg_dump's custom format (restore with pg_restore).
func pgDumpCommand(raw, file string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("DATABASE_URL: %w", err)
	}
	db.WithoutPassword(u)
	return fmt.Sprintf("pg_dump --format=custom --no-owner --file=%s %s", shellQuote(file), shellQuote(u.String())), nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
