package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
	"ariga.io/atlas/sql/sqlite"
	"entgo.io/ent/dialect"

	entmigrate "github.com/switchboard/switchboard/ent/migrate"
	"github.com/switchboard/switchboard/internal/db/migrations"
)

// MigrationState is how a database stands against the binary's migrations.
type MigrationState int

const (
	// UpToDate: every migration is applied.
	UpToDate MigrationState = iota
	// Fresh: none of the schema's tables and no revisions; migrating it
	// cannot lose anything.
	Fresh
	// Behind: some migrations are not applied yet.
	Behind
	// Legacy: the schema's tables without revisions, made by ent's
	// auto-migration before there were versioned migrations.
	Legacy
	// Ahead: revisions of migrations this binary does not have; a newer
	// version migrated it.
	Ahead
)

func (s MigrationState) String() string {
	return [...]string{"up to date", "empty", "behind", "made before versioned migrations", "ahead"}[s]
}

// MigrationStatus compares a database's revisions with the migration files.
type MigrationStatus struct {
	State   MigrationState
	Files   []migrate.File
	Applied []*migrate.Revision // recorded revisions, by version
	Pending []migrate.File      // files not applied, by version
	Unknown []*migrate.Revision // recorded, but no file has their version
	Edited  []string            // applied files whose content changed since
}

// Err refuses what no command can repair: a database ahead of the binary,
// or migration files edited after they were applied.
func (s *MigrationStatus) Err() error {
	if len(s.Unknown) > 0 {
		versions := make([]string, len(s.Unknown))
		for i, r := range s.Unknown {
			versions[i] = r.Version
		}
		return fmt.Errorf("the database has migrations this binary does not know (%s): a newer version migrated it; run that version",
			strings.Join(versions, ", "))
	}
	if len(s.Edited) > 0 {
		return fmt.Errorf("migration files changed after they were applied to this database: %s", strings.Join(s.Edited, ", "))
	}
	return nil
}

// operatorVersion marks the revisions this program writes.
const operatorVersion = "switchboard"

// Migrations is the binary's embedded migration directory for this engine.
func (d *DB) Migrations() (migrate.Dir, error) { return migrations.Dir(d.Dialect) }

// MigrationStatus reads where the database stands against dir. It changes
// nothing.
func (d *DB) MigrationStatus(ctx context.Context, dir migrate.Dir) (*MigrationStatus, error) {
	return d.readStatus(ctx, d.SQL, dir)
}

func (d *DB) readStatus(ctx context.Context, q schema.ExecQuerier, dir migrate.Dir) (*MigrationStatus, error) {
	if err := migrate.Validate(dir); err != nil {
		return nil, fmt.Errorf("migration files: %w", err)
	}
	files, err := dir.Files()
	if err != nil {
		return nil, err
	}
	sums, err := dir.Checksum()
	if err != nil {
		return nil, err
	}
	tables, err := d.tableNames(ctx, q)
	if err != nil {
		return nil, err
	}
	st := &MigrationStatus{Files: files}
	if tables[RevisionTable] {
		if st.Applied, err = (&revisions{q: q, dialect: d.Dialect}).ReadRevisions(ctx); err != nil {
			return nil, err
		}
	}
	done := st.classify(sums)
	for _, f := range files {
		if !done[f.Version()] {
			st.Pending = append(st.Pending, f)
		}
	}
	switch {
	case len(st.Unknown) > 0:
		st.State = Ahead
	case len(st.Applied) == 0 && hasSchemaTables(tables):
		st.State = Legacy
	case len(st.Applied) == 0:
		st.State = Fresh
	case len(st.Pending) > 0:
		st.State = Behind
	}
	return st, nil
}

// classify sorts the revisions against the files and returns the versions
// that are applied (a baseline revision stands for every version up to it).
func (st *MigrationStatus) classify(sums migrate.HashFile) map[string]bool {
	byVersion := make(map[string]migrate.File, len(st.Files))
	for _, f := range st.Files {
		byVersion[f.Version()] = f
	}
	done := map[string]bool{}
	for _, rev := range st.Applied {
		f, ok := byVersion[rev.Version]
		switch {
		case !ok:
			st.Unknown = append(st.Unknown, rev)
		case rev.Type.Has(migrate.RevisionTypeBaseline):
			for _, g := range st.Files {
				done[g.Version()] = done[g.Version()] || g.Version() <= rev.Version
			}
		case rev.Applied == rev.Total:
			done[rev.Version] = true
			if sum, err := sums.SumByName(f.Name()); err == nil && rev.Hash != "" && sum != rev.Hash {
				st.Edited = append(st.Edited, f.Name())
			}
		}
	}
	return done
}

// hasSchemaTables reports whether any of ent's tables exists.
func hasSchemaTables(tables map[string]bool) bool {
	for _, t := range entmigrate.Tables {
		if tables[t.Name] {
			return true
		}
	}
	return false
}

func (d *DB) tableNames(ctx context.Context, q schema.ExecQuerier) (map[string]bool, error) {
	query := `SELECT name FROM sqlite_master WHERE type = 'table'`
	if d.Dialect == dialect.Postgres {
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("listing tables: %w", err)
	}
	defer rows.Close()
	names := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		names[name] = true
	}
	return names, rows.Err()
}

// MigrateUp applies dir's pending migrations in version order, each file in
// one transaction, and returns what it did, one line per file. A database
// made by auto-migration (Legacy) is first brought to the schema and
// recorded as migrated. Several instances may run it at once: on PostgreSQL
// an advisory lock makes them take turns; on SQLite the transaction's write
// lock does, and a file another process applied meanwhile is skipped.
func (d *DB) MigrateUp(ctx context.Context, dir migrate.Dir) (done []string, err error) {
	return d.MigrateUpIf(ctx, dir, func(*MigrationStatus) error { return nil })
}

// MigrateUpIf is MigrateUp when admit accepts where the database stands, as
// read under the migration lock: a starting server decides whether to
// migrate there, since an instance migrating an empty database beside it
// makes it look half done (behind) until it has finished.
func (d *DB) MigrateUpIf(ctx context.Context, dir migrate.Dir, admit func(*MigrationStatus) error) (done []string, err error) {
	migrateMu.Lock()
	defer migrateMu.Unlock()
	conn, err := d.SQL.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	unlock, err := d.lockMigrations(ctx, conn)
	if err != nil {
		return nil, err
	}
	defer unlock()
	for first := true; ; first = false {
		st, err := d.readStatus(ctx, conn, dir)
		if err != nil {
			return done, err
		}
		if err := st.Err(); err != nil {
			return done, err
		}
		if first {
			if err := admit(st); err != nil {
				return done, err
			}
		}
		if st.State == Legacy {
			last, err := d.adopt(ctx, conn, st.Files)
			if err != nil {
				return done, err
			}
			done = append(done, "auto-migrated a database made before versioned migrations; recorded it as at "+last)
			continue
		}
		if len(st.Pending) == 0 {
			return done, nil
		}
		f := st.Pending[0]
		applied, err := d.apply(ctx, conn, dir, f)
		if err != nil {
			return done, err
		}
		if applied {
			done = append(done, "applied "+f.Name())
		} else {
			done = append(done, "skipped "+f.Name()+": another process applied it meanwhile")
		}
	}
}

// lockMigrations takes PostgreSQL's session advisory lock for migrations.
func (d *DB) lockMigrations(ctx context.Context, conn *sql.Conn) (unlock func(), err error) {
	if d.Dialect != dialect.Postgres {
		return func() {}, nil
	}
	const key = 7_316_415_200_184 // any constant, the same in every instance
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		return nil, fmt.Errorf("locking migrations: %w", err)
	}
	return func() { _, _ = conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, key) }, nil
}

// apply runs one file in one transaction with Atlas's executor, which
// records the revision in the same transaction. It reports false when
// another process had applied the file meanwhile.
func (d *DB) apply(ctx context.Context, conn *sql.Conn, dir migrate.Dir, f migrate.File) (bool, error) {
	tx, commit, rollback, err := d.begin(ctx, conn)
	if err != nil {
		return false, err
	}
	applied, err := d.execute(ctx, tx, dir, f)
	if err != nil {
		return false, errors.Join(fmt.Errorf("applying migration %s: %w", f.Name(), err), rollback())
	}
	return applied, commit()
}

func (d *DB) execute(ctx context.Context, tx *sql.Tx, dir migrate.Dir, f migrate.File) (bool, error) {
	rrw, err := d.revisionsIn(ctx, tx)
	if err != nil {
		return false, err
	}
	if rev, err := rrw.ReadRevision(ctx, f.Version()); err == nil && rev.Applied == rev.Total {
		return false, nil // another process applied it while we waited for the lock
	}
	drv, err := d.atlasDriver(tx)
	if err != nil {
		return false, err
	}
	ex, err := migrate.NewExecutor(drv, dir, rrw, migrate.WithOperatorVersion(operatorVersion))
	if err != nil {
		return false, err
	}
	return true, ex.Execute(ctx, f)
}

// revisionsIn returns the revisions table of tx, creating it if need be.
func (d *DB) revisionsIn(ctx context.Context, tx *sql.Tx) (*revisions, error) {
	r := &revisions{q: tx, dialect: d.Dialect, schema: "main"}
	if d.Dialect == dialect.Postgres {
		if err := tx.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&r.schema); err != nil {
			return nil, err
		}
	}
	return r, r.create(ctx)
}

func (d *DB) atlasDriver(q schema.ExecQuerier) (migrate.Driver, error) {
	if d.Dialect == dialect.Postgres {
		return postgres.Open(q)
	}
	return sqlite.Open(q)
}

// begin starts a migration's transaction on conn. SQLite ignores switching
// foreign keys off inside a transaction, and Atlas rebuilds a changed table
// by copy, drop and rename, where enforced keys would cascade the drop into
// the child tables' rows. So, as Atlas's own sqlite.OpenTx does (on a pool,
// where the pragma could land on another connection than the transaction):
// keys off on this connection, the transaction, a check at commit that it
// added no violation, keys on again.
func (d *DB) begin(ctx context.Context, conn *sql.Conn) (tx *sql.Tx, commit, rollback func() error, err error) {
	if d.Dialect != dialect.SQLite {
		tx, err = conn.BeginTx(ctx, nil)
		if err != nil {
			return nil, nil, nil, err
		}
		return tx, tx.Commit, tx.Rollback, nil
	}
	var on bool
	if err := conn.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&on); err != nil {
		return nil, nil, nil, err
	}
	if on {
		if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = off`); err != nil {
			return nil, nil, nil, err
		}
	}
	if tx, err = conn.BeginTx(ctx, nil); err != nil {
		if on {
			_, _ = conn.ExecContext(ctx, `PRAGMA foreign_keys = on`)
		}
		return nil, nil, nil, err
	}
	rollback = sqlite.RollbackFunc(ctx, conn, tx, on)
	if commit, err = sqlite.CommitFunc(ctx, conn, tx, on); err != nil {
		return nil, nil, nil, errors.Join(err, rollback())
	}
	return tx, commit, rollback, nil
}

// adopt takes over a database made by ent's auto-migration, which every
// start ran before there were versioned migrations: it runs it one last
// time (with pg_trgm, as it did), so the database has the schema of ent's
// current code, which the migration files match (TestMigrationsMatchSchema),
// runs the hand-written files again for what ent cannot declare, and records
// a baseline revision at the last file. It returns that file's
// version.
func (d *DB) adopt(ctx context.Context, conn *sql.Conn, files []migrate.File) (string, error) {
	if len(files) == 0 {
		return "", errors.New("no migration files")
	}
	if d.Dialect == dialect.Postgres {
		if _, err := conn.ExecContext(ctx, `CREATE EXTENSION IF NOT EXISTS pg_trgm`); err != nil {
			return "", fmt.Errorf("enabling pg_trgm: %w", err)
		}
	}
	if err := d.Client.Schema.Create(ctx, entmigrate.WithForeignKeys(true)); err != nil {
		return "", fmt.Errorf("auto-migrating a database made before versioned migrations: %w", err)
	}
	last := files[len(files)-1]
	tx, commit, rollback, err := d.begin(ctx, conn)
	if err != nil {
		return "", err
	}
	err = d.replayHandWritten(ctx, tx, files)
	var rrw *revisions
	if err == nil {
		rrw, err = d.revisionsIn(ctx, tx)
	}
	if err == nil {
		err = rrw.WriteRevision(ctx, &migrate.Revision{Version: last.Version(), Description: last.Desc(),
			Type: migrate.RevisionTypeBaseline, ExecutedAt: time.Now(), OperatorVersion: operatorVersion})
	}
	if err != nil {
		return "", errors.Join(err, rollback())
	}
	return last.Version(), commit()
}
