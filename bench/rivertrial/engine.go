package main

// The two engines the trial runs on, each with River's driver for it and the
// app table the workers write their outcome to.

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/lib/pq"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	_ "modernc.org/sqlite"
)

type engine struct {
	name string
	db   *sql.DB
	// newClient and completeTx hide River's driver type, which differs per
	// engine while the transaction type (*sql.Tx) is the same.
	newClient  func(*river.Config) (*river.Client[*sql.Tx], error)
	completeTx func(context.Context, *sql.Tx, *river.Job[deliverArgs]) error
	ph         func(int) string // the engine's bind placeholder
	serverCPU  func() time.Duration
	close      func()
}

// openEngine opens "sqlite" (a new file in a temp dir, WAL, with the app's
// own connection settings) or "postgres" (pgURL, or a throwaway cluster).
func openEngine(ctx context.Context, name, pgURL string, fsync bool) (*engine, error) {
	var (
		e   *engine
		err error
	)
	switch name {
	case "sqlite":
		e, err = openSQLite()
	case "postgres":
		e, err = openPostgres(pgURL, fsync)
	default:
		return nil, fmt.Errorf("engine %q: want sqlite or postgres", name)
	}
	if err != nil {
		return nil, err
	}
	if err := e.migrate(ctx); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// openSQLite uses the DSN and pool size of the main module's internal/db:
// WAL, busy_timeout 15 s, immediate transactions, 8 connections.
func openSQLite() (*engine, error) {
	dir, err := os.MkdirTemp("", "rivertrial-sqlite-")
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	for _, p := range []string{"foreign_keys(1)", "busy_timeout(15000)", "journal_mode(WAL)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "trial.db")+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	driver := riversqlite.New(db)
	return &engine{
		name:      "sqlite",
		db:        db,
		newClient: func(c *river.Config) (*river.Client[*sql.Tx], error) { return river.NewClient(driver, c) },
		completeTx: func(ctx context.Context, tx *sql.Tx, j *river.Job[deliverArgs]) error {
			_, err := river.JobCompleteTx[*riversqlite.Driver](ctx, tx, j)
			return err
		},
		ph:        func(int) string { return "?" },
		serverCPU: func() time.Duration { return 0 }, // in process: counted in the trial's own CPU
		close:     func() { db.Close(); os.RemoveAll(dir) },
	}, nil
}

func openPostgres(pgURL string, fsync bool) (*engine, error) {
	var cl *cluster
	if pgURL == "" {
		var err error
		if cl, err = startCluster(fsync); err != nil {
			return nil, err
		}
		pgURL = cl.url
	}
	db, err := sql.Open("postgres", pgURL)
	if err != nil {
		return nil, err
	}
	// The main module's pool size on PostgreSQL. All of it may idle, unlike
	// the main module's 16, so backends live through a run and their CPU
	// time, read from /proc, is not lost when one exits.
	db.SetMaxOpenConns(32)
	db.SetMaxIdleConns(32)
	driver := riverdatabasesql.New(db)
	e := &engine{
		name:      "postgres",
		db:        db,
		newClient: func(c *river.Config) (*river.Client[*sql.Tx], error) { return river.NewClient(driver, c) },
		completeTx: func(ctx context.Context, tx *sql.Tx, j *river.Job[deliverArgs]) error {
			_, err := river.JobCompleteTx[*riverdatabasesql.Driver](ctx, tx, j)
			return err
		},
		ph:        func(i int) string { return "$" + strconv.Itoa(i) },
		serverCPU: func() time.Duration { return 0 },
		close: func() {
			db.Close()
			if cl != nil {
				cl.stop()
			}
		},
	}
	if cl != nil {
		if pid, err := cl.postmasterPID(); err == nil {
			e.serverCPU = func() time.Duration { return treeCPU(pid) }
		}
	}
	return e, nil
}

func (e *engine) migrate(ctx context.Context) error {
	var drv riverdriver.Driver[*sql.Tx]
	if e.name == "sqlite" {
		drv = riversqlite.New(e.db)
	} else {
		drv = riverdatabasesql.New(e.db)
	}
	m, err := rivermigrate.New(drv, nil)
	if err != nil {
		return err
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	idCol := "integer PRIMARY KEY AUTOINCREMENT"
	if e.name == "postgres" {
		idCol = "bigserial PRIMARY KEY"
	}
	for _, stmt := range []string{
		// One row per delivered job, written in the transaction that completes
		// the job: the primary key would refuse a second completion.
		`CREATE TABLE deliveries (job_id bigint PRIMARY KEY, conv int NOT NULL, seq int NOT NULL, status int NOT NULL)`,
		`CREATE TABLE app_writes (id ` + idCol + `, note text NOT NULL)`,
	} {
		if _, err := e.db.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

func (e *engine) resetAppTables(ctx context.Context) error {
	for _, stmt := range []string{`DELETE FROM deliveries`, `DELETE FROM app_writes`, `DELETE FROM river_job`} {
		if _, err := e.db.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

func (e *engine) count(ctx context.Context, table string) (int, error) {
	var n int
	err := e.db.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n)
	return n, err
}

// treeCPU sums user+system time of pid and its direct children (the
// postmaster's backends and background workers), from /proc.
func treeCPU(pid int) time.Duration {
	total := procCPU(pid)
	entries, _ := os.ReadDir("/proc")
	for _, d := range entries {
		child, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if ppid, ok := procPPID(child); ok && ppid == pid {
			total += procCPU(child)
		}
	}
	return total
}

// procStatFields returns /proc/pid/stat's fields after the command name.
func procStatFields(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

func procPPID(pid int) (int, bool) {
	f := procStatFields(pid)
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// procCPU is utime+stime (fields 14 and 15 of stat; 11 and 12 after the
// name), in clock ticks of 10 ms (CLK_TCK is 100 on Linux/amd64).
func procCPU(pid int) time.Duration {
	f := procStatFields(pid)
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * 10 * time.Millisecond
}
