package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
	"entgo.io/ent/dialect"
)

// RevisionTable records the applied migrations, one row per file, under
// the name and with the columns Atlas's own tool uses.
const RevisionTable = "atlas_schema_revisions"

// revisions is Atlas's RevisionReadWriter over our table. Atlas's library
// leaves the storage of revisions to its caller (its command-line tool keeps
// them with a private ent schema), so this is the small part we write.
type revisions struct {
	q       schema.ExecQuerier // the migration's transaction
	dialect string
	schema  string // "main" on SQLite, the current schema on PostgreSQL
}

var _ migrate.RevisionReadWriter = (*revisions)(nil)

const revisionColumns = `version, description, type, applied, total, executed_at, execution_time,
	error, error_stmt, hash, partial_hashes, operator_version`

func (r *revisions) create(ctx context.Context) error {
	executedAt := "datetime"
	if r.dialect == dialect.Postgres {
		executedAt = "timestamptz"
	}
	_, err := r.q.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+RevisionTable+` (
	version varchar(255) NOT NULL PRIMARY KEY,
	description text NOT NULL,
	type bigint NOT NULL,
	applied bigint NOT NULL,
	total bigint NOT NULL,
	executed_at `+executedAt+` NOT NULL,
	execution_time bigint NOT NULL,
	error text NOT NULL,
	error_stmt text NOT NULL,
	hash text NOT NULL,
	partial_hashes text NOT NULL,
	operator_version text NOT NULL
)`)
	if err != nil {
		return fmt.Errorf("creating %s: %w", RevisionTable, err)
	}
	return nil
}

// Ident names the table, so that Atlas does not count it as a schema object.
func (r *revisions) Ident() *migrate.TableIdent {
	return &migrate.TableIdent{Name: RevisionTable, Schema: r.schema}
}

// ReadRevisions returns every revision, by version.
func (r *revisions) ReadRevisions(ctx context.Context) ([]*migrate.Revision, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+revisionColumns+` FROM `+RevisionTable+` ORDER BY version`)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", RevisionTable, err)
	}
	defer rows.Close()
	var revs []*migrate.Revision
	for rows.Next() {
		rev, err := scanRevision(rows)
		if err != nil {
			return nil, err
		}
		revs = append(revs, rev)
	}
	return revs, rows.Err()
}

// ReadRevision returns the revision of one version, or
// migrate.ErrRevisionNotExist.
func (r *revisions) ReadRevision(ctx context.Context, version string) (*migrate.Revision, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT `+revisionColumns+` FROM `+RevisionTable+` WHERE version = `+r.arg(1), version)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", RevisionTable, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, migrate.ErrRevisionNotExist
	}
	return scanRevision(rows)
}

// WriteRevision inserts or updates a revision (Atlas writes one as it starts
// a file, after each statement and at the end).
func (r *revisions) WriteRevision(ctx context.Context, rev *migrate.Revision) error {
	hashes, err := json.Marshal(rev.PartialHashes)
	if err != nil {
		return err
	}
	args := make([]string, 12)
	for i := range args {
		args[i] = r.arg(i + 1)
	}
	cols := strings.Split(strings.Join(strings.Fields(revisionColumns), ""), ",")
	set := make([]string, 0, len(cols)-1)
	for _, c := range cols[1:] {
		set = append(set, c+" = excluded."+c)
	}
	_, err = r.q.ExecContext(ctx, `INSERT INTO `+RevisionTable+` (`+revisionColumns+`) VALUES (`+strings.Join(args, ", ")+`)
	ON CONFLICT (version) DO UPDATE SET `+strings.Join(set, ", "),
		rev.Version, rev.Description, int64(rev.Type), rev.Applied, rev.Total, rev.ExecutedAt.UTC(),
		int64(rev.ExecutionTime), rev.Error, rev.ErrorStmt, rev.Hash, string(hashes), rev.OperatorVersion)
	if err != nil {
		return fmt.Errorf("writing %s: %w", RevisionTable, err)
	}
	return nil
}

// DeleteRevision removes the revision of one version.
func (r *revisions) DeleteRevision(ctx context.Context, version string) error {
	_, err := r.q.ExecContext(ctx, `DELETE FROM `+RevisionTable+` WHERE version = `+r.arg(1), version)
	return err
}

// arg is the n-th placeholder in the dialect.
func (r *revisions) arg(n int) string {
	if r.dialect == dialect.Postgres {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}

func scanRevision(rows *sql.Rows) (*migrate.Revision, error) {
	var (
		rev                 migrate.Revision
		typ, execution      int64
		executedAt          time.Time
		hashes              string
		errText, errStmtTxt sql.NullString
	)
	err := rows.Scan(&rev.Version, &rev.Description, &typ, &rev.Applied, &rev.Total, &executedAt, &execution,
		&errText, &errStmtTxt, &rev.Hash, &hashes, &rev.OperatorVersion)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", RevisionTable, err)
	}
	rev.Type, rev.ExecutedAt, rev.ExecutionTime = migrate.RevisionType(typ), executedAt, time.Duration(execution)
	rev.Error, rev.ErrorStmt = errText.String, errStmtTxt.String
	if hashes != "" && hashes != "null" {
		if err := json.Unmarshal([]byte(hashes), &rev.PartialHashes); err != nil {
			return nil, errors.Join(fmt.Errorf("reading %s: partial hashes of %s", RevisionTable, rev.Version), err)
		}
	}
	return &rev, nil
}
