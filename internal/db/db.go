// Package db opens the configured database (embedded SQLite or PostgreSQL)
// as an ent client and migrates its schema with the versioned migrations of
// package migrations.
package db

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	_ "github.com/lib/pq" // PostgreSQL driver "postgres"

	"github.com/switchboard/switchboard/ent"
	_ "github.com/switchboard/switchboard/ent/runtime" // registers hooks and privacy policies
)

// DefaultURL is the embedded database used when DATABASE_URL is unset.
const DefaultURL = "sqlite://switchboard.db"

// maxIdleTime is how long a connection may stay idle in the pool before it
// is closed.
const maxIdleTime = 5 * time.Minute

// DB is an open database: the ent client plus what callers need to know of it.
type DB struct {
	Client  *ent.Client
	SQL     *sql.DB
	Dialect string
	// DSN is what the driver was opened with (a PostgreSQL listener opens
	// its own connection with it).
	DSN string
}

// Close releases the connections.
func (d *DB) Close() error { return d.Client.Close() }

// Open connects to databaseURL: postgres://... (or postgresql://...) for
// PostgreSQL, sqlite:///abs/path.db or sqlite://rel.db for SQLite; empty means
// DefaultURL.
func Open(databaseURL string) (*DB, error) {
	if databaseURL == "" {
		databaseURL = DefaultURL
	}
	driver, dsn, dia, err := parseURL(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL %q: %w", databaseURL, err)
	}
	sqlDB, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s database: %w", dia, err)
	}
	drv := sqlDB.Driver()
	sqlDB.Close() // no connection opened yet: the statement cache's connector opens them
	connector := cachingConnector{drv: drv, dsn: dsn, arrays: dia == dialect.Postgres}
	if dia == dialect.SQLite {
		connector.gate = newWriteGate()
	}
	sqlDB = sql.OpenDB(connector)
	// Every connection the pool may open stays open while it is idle: a
	// connection closed and opened again loses its prepared statements, and
	// a new SQLite connection parses the whole schema before its first
	// statement (in a schedule burst, with database/sql's default of two
	// idle connections, reconnecting took a third of the server's CPU).
	// Idle ones beyond the few a quiet server uses go after maxIdleTime.
	open := 32
	if dia == dialect.SQLite {
		// WAL lets readers run beside the one writer; immediate transactions
		// take the write lock up front so they never fail on upgrade.
		open = 8
	}
	sqlDB.SetMaxOpenConns(open)
	sqlDB.SetMaxIdleConns(open)
	sqlDB.SetConnMaxIdleTime(maxIdleTime)
	if err := sqlDB.Ping(); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("connecting to %s database: %w", dia, err)
	}
	client := ent.NewClient(ent.Driver(entsql.OpenDB(dia, sqlDB)))
	return &DB{Client: client, SQL: sqlDB, Dialect: dia, DSN: dsn}, nil
}

// CheckURL reports what is wrong with a DATABASE_URL, if anything.
func CheckURL(raw string) error {
	_, _, _, err := parseURL(raw)
	return err
}

// MustExist refuses a SQLite DATABASE_URL whose file does not exist. The
// commands that work on an existing database (backup, migrate status,
// users, tokens) would otherwise create an empty one at a mistyped path,
// and its backup would succeed: the default path is relative to the
// working directory, so a command run from elsewhere finds none.
func MustExist(databaseURL string) error {
	if databaseURL == "" {
		databaseURL = DefaultURL
	}
	path, ok := sqlitePath(databaseURL)
	if !ok || path == "" {
		return nil
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		abs, _ := filepath.Abs(path)
		return fmt.Errorf("DATABASE_URL %q: there is no database at %s (a relative path is read from the working directory)", databaseURL, abs)
	}
	return nil
}

// sqlitePath is a sqlite:// URL's file path.
func sqlitePath(raw string) (string, bool) {
	path, ok := strings.CutPrefix(raw, "sqlite://")
	if !ok {
		return "", false
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return path, true
}

func parseURL(raw string) (driver, dsn, dia string, err error) {
	switch {
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		return "postgres", raw, dialect.Postgres, nil
	case strings.HasPrefix(raw, "sqlite://"):
		path, _ := sqlitePath(raw)
		if path == "" {
			return "", "", "", errors.New("want sqlite://path with a file name")
		}
		return "sqlite", sqliteDSN(filepath.Clean(path)), dialect.SQLite, nil
	default:
		return "", "", "", errors.New("want postgres://... or sqlite://path")
	}
}

func sqliteDSN(path string) string {
	q := url.Values{}
	for _, p := range []string{"foreign_keys(1)", "busy_timeout(15000)", "journal_mode(WAL)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	return "file:" + path + "?" + q.Encode()
}

// migrateMu serializes migrations and schema diffs in a process: ent's
// migrate package keeps its table list in package state, and two at once
// race on it.
var migrateMu sync.Mutex
