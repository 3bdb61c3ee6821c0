package ops_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
)

// ---- query plans ----

// recorder is a driver that remembers the SQL it runs, so the plan can be
// asked for exactly what the search sends.
type recorder struct {
	dialect.Driver
	mu      sync.Mutex
	queries []recorded
}

type recorded struct {
	query string
	args  []any
}

func (r *recorder) Query(ctx context.Context, query string, args, v any) error {
	r.mu.Lock()
	a, _ := args.([]any)
	r.queries = append(r.queries, recorded{query, slices.Clone(a)})
	r.mu.Unlock()
	return r.Driver.Query(ctx, query, args, v)
}

// explainSearch runs searches through a recording driver and logs the plan
// of their SQL: on PostgreSQL EXPLAIN ANALYZE, on SQLite EXPLAIN QUERY PLAN
// (the FTS5 trigram table, or for a common term the walk of the recent
// activity index). It returns how many of the PostgreSQL plans read most of
// the contacts table sequentially: a Seq Scan that stops early, under the
// LIMIT of the count window, is how a common term is best counted. The
// verdict is logged before the plans: without -v the testing package keeps
// only the first lines of a benchmark's log.
func explainSearch(b *testing.B, fx *searchFixture, e testdb.Engine) (seqScanPlans int) {
	b.Helper()
	rec := &recorder{Driver: entsql.OpenDB(fx.db.Dialect, fx.db.SQL)}
	svc := ops.New(ent.NewClient(ent.Driver(rec)))
	postgres := fx.db.Dialect == dialect.Postgres
	var logs, seqScans, paths []string
	if postgres {
		logs = append(logs, indexList(b, fx.db.SQL))
	}
	// A selective name fragment, a common e-mail domain and phone digits.
	queries := []string{"kowal", "gmail", "98765"}
	for _, q := range queries {
		rec.mu.Lock()
		rec.queries = nil
		rec.mu.Unlock()
		page, err := svc.SearchContacts(fx.ctx, q, "", 1)
		if err != nil {
			b.Fatalf("search %q: %v", q, err)
		}
		var out strings.Builder
		fmt.Fprintf(&out, "%s: plan of search %q (%d matches counted):", e.Name, q, page.Total)
		for _, r := range rec.queries {
			if !strings.Contains(r.query, "LIKE") && !strings.Contains(r.query, "MATCH") {
				continue // the eager load of contact inboxes
			}
			kind := "page query"
			if !strings.Contains(r.query, "ORDER BY") {
				kind = "count query"
			}
			plan := explain(b, fx.db, r)
			fmt.Fprintf(&out, "\n-- %s\n-- args %v\n%s", r.query, r.args, plan)
			if postgres {
				if read := seqScanRows(plan); read > *searchContacts/2 {
					seqScans = append(seqScans, fmt.Sprintf("%q (%s, %d rows read)", q, kind, read))
				}
			} else {
				paths = append(paths, fmt.Sprintf("%q %s: %s", q, kind, sqlitePath(plan)))
			}
		}
		logs = append(logs, out.String())
	}
	switch {
	case !postgres:
		b.Logf("PLAN %s: %s (plans below)", e.Name, strings.Join(paths, "; "))
	case len(seqScans) > 0:
		b.Logf("VERDICT %s: a Seq Scan reads most of contacts in %d of %d plans: %s. Searches must use the trigram index, or stop early (plans below).",
			e.Name, len(seqScans), 2*len(queries), strings.Join(seqScans, ", "))
	default:
		b.Logf("VERDICT %s: no plan reads most of contacts; the searches use indexes or stop early (plans below)", e.Name)
	}
	for _, l := range logs {
		b.Log(l)
	}
	return len(seqScans)
}

// seqScanRows is how many rows a PostgreSQL plan's Seq Scan on contacts
// read (returned plus removed by its filter), 0 without one.
func seqScanRows(plan string) int {
	lines := strings.Split(plan, "\n")
	read := 0
	for i, l := range lines {
		if !strings.Contains(l, "Seq Scan on contacts") {
			continue
		}
		read += planNumber(l, "rows=")
		for _, next := range lines[i+1:] {
			if strings.Contains(next, "->") {
				break
			}
			read += planNumber(next, "Rows Removed by Filter: ")
		}
	}
	return read
}

// planNumber is the last number after key in line, 0 without one.
func planNumber(line, key string) int {
	i := strings.LastIndex(line, key)
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range line[i+len(key):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// sqlitePath names what a SQLite plan reads.
func sqlitePath(plan string) string {
	switch {
	case strings.Contains(plan, "VIRTUAL TABLE"):
		return "the FTS5 trigram table"
	case strings.Contains(plan, "USING INDEX contact_account_id_last_activity_at") && !strings.Contains(plan, "TEMP B-TREE"):
		return "the account's contacts in recent-activity order"
	default:
		return "a scan of the account's contacts"
	}
}

func explain(b *testing.B, database *db.DB, r recorded) string {
	b.Helper()
	prefix := "EXPLAIN QUERY PLAN "
	if database.Dialect == dialect.Postgres {
		prefix = "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) "
	}
	rows, err := database.SQL.Query(prefix+r.query, r.args...)
	if err != nil {
		b.Fatalf("explain: %v", err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			b.Fatalf("explain: %v", err)
		}
		if len(cols) == 1 { // PostgreSQL: one line of text a row
			lines = append(lines, fmt.Sprint(asString(vals[0])))
		} else { // SQLite: id, parent, notused, detail
			lines = append(lines, fmt.Sprint(asString(vals[len(vals)-1])))
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatalf("explain: %v", err)
	}
	return strings.Join(lines, "\n")
}

func asString(v any) string {
	if raw, ok := v.([]byte); ok {
		return string(raw)
	}
	return fmt.Sprint(v)
}

func indexList(b *testing.B, sqlDB *sql.DB) string {
	b.Helper()
	rows, err := sqlDB.Query(`SELECT indexdef FROM pg_indexes WHERE tablename = 'contacts' ORDER BY indexname`)
	if err != nil {
		b.Fatalf("listing indexes: %v", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var def string
		if err := rows.Scan(&def); err != nil {
			b.Fatalf("listing indexes: %v", err)
		}
		out = append(out, "  "+def)
	}
	return "indexes of contacts:\n" + strings.Join(out, "\n")
}
