package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
)

// kind is one table of jobs: rows whose dueColumn is set and past are due.
type kind struct {
	table, dueColumn string
	// keyExpr is what a job holds while it runs (an inbox's channel, a
	// subscription; empty: the row itself); at most perKey jobs of one key
	// run at once on a runner (0: no cap).
	keyExpr string
	perKey  int
	// orderColumn, when set, keeps rows of one value in id order across
	// instances: a row is not claimed while an earlier one of its value is
	// still pending (due, claimed or waiting for a retry).
	orderColumn string
	// workers bound how many jobs of the kind run at once; SQLite has one
	// writer, so kinds that only write to the database gain nothing from
	// more than one there.
	workers, postgresWorkers, sqliteWorkers int
	// reportsOutcome: run counts its own outcome (deliveries tell
	// delivered, retrying and failed apart).
	reportsOutcome bool
	run            func(ctx context.Context, id int) error
	// fireDue, when set, makes a kind that claims its rows in the
	// transaction that does their work: a worker calls it for up to batch
	// rows due by dueBy at a time, and gets back how many it took and those
	// it left to run alone, which the runner claims and runs with run
	// (firing.go). Such a kind has no keys.
	fireDue func(ctx context.Context, n int, dueBy time.Time) (took int, alone []int, err error)
	batch   int
}

// claim moves the due column of up to n due rows a lease ahead and returns
// them, skipping rows of the keys in busy. One statement does both, so two
// runners never claim the same row: PostgreSQL skips rows another claim
// holds, SQLite runs one writer at a time. A kind with an order column
// claims in up to two statements (claimInOrder).
func (r *Runner) claim(ctx context.Context, k kind, n int, busy []int) ([]job, error) {
	now := r.now()
	lease := r.leaseFrom(now)
	if k.orderColumn != "" {
		return r.claimInOrder(ctx, k, n, busy, now, lease)
	}
	return r.claimRows(ctx, k, n, lease, func(q *claimSQL) string {
		return q.due(now) + q.notBusy(busy)
	})
}

// claimSQL writes a claim statement and its arguments in the order they
// appear in its text (SQLite's placeholders are positional).
type claimSQL struct {
	k    kind
	ph   func(int) string
	args []any
}

// arg adds v and returns its placeholder.
func (q *claimSQL) arg(v any) string {
	q.args = append(q.args, v)
	return q.ph(len(q.args))
}

// due is the condition of a due row of the candidates c.
func (q *claimSQL) due(now time.Time) string {
	return fmt.Sprintf("c.%s <= %s", q.k.dueColumn, q.arg(now))
}

// notBusy leaves out the rows of the busy keys.
func (q *claimSQL) notBusy(busy []int) string {
	if len(busy) == 0 {
		return ""
	}
	return fmt.Sprintf(" AND %s NOT IN (%s)", q.key(), joinInts(busy))
}

// key is what a claimed row holds while it runs.
func (q *claimSQL) key() string {
	if q.k.keyExpr != "" {
		return q.k.keyExpr
	}
	return "id"
}

// claimRows claims, in due order, up to n rows of the candidates c that
// where (written by it in the order of the statement's text) lets through.
func (r *Runner) claimRows(ctx context.Context, k kind, n int, lease time.Time, where func(*claimSQL) string) ([]job, error) {
	q := &claimSQL{k: k, ph: placeholders(r.db.Dialect)}
	lock := ""
	if r.db.Dialect == dialect.Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	set := q.arg(lease)
	stmt := fmt.Sprintf(`UPDATE %[1]s SET %[2]s = %[3]s WHERE id IN (
		SELECT c.id FROM %[1]s c WHERE %[4]s ORDER BY c.%[2]s, c.id LIMIT %[5]d%[6]s) RETURNING id, %[7]s`,
		k.table, k.dueColumn, set, where(q), n, lock, q.key())
	var jobs []job
	err := r.write(func() error {
		rows, err := r.db.SQL.QueryContext(ctx, stmt, q.args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			j := job{lease: lease}
			if err := rows.Scan(&j.id, &j.key); err != nil {
				return err
			}
			jobs = append(jobs, j)
		}
		return rows.Err()
	})
	return jobs, err
}

// leaseFrom is the end of a lease taken at now, at the microsecond
// PostgreSQL keeps: renewals and releases find a claim by this value.
func (r *Runner) leaseFrom(now time.Time) time.Time {
	return now.Add(r.lease).Truncate(time.Microsecond)
}

// renewLeases moves the leases of the held claims ahead every third of a
// lease, until stop is closed.
func (r *Runner) renewLeases(stop <-chan struct{}) {
	t := time.NewTicker(r.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), r.lease/3)
		for _, k := range r.kinds {
			r.renewClaims(ctx, k)
		}
		cancel()
	}
}

// moveClaims sets the due column of k's held claims to to. A claim whose
// row no longer holds its lease was settled by its job (or taken over by
// another runner after it lapsed) and is left alone. keep says whether the
// claims stay held (a renewal) or are let go (a release).
func (r *Runner) moveClaims(ctx context.Context, k kind, to time.Time, keep bool) {
	r.moveLeases(ctx, k, r.inflight.claimsByLease(k), to, keep)
}

// renewClaims renews k's claims whose renewal is due (renewalDue).
func (r *Runner) renewClaims(ctx context.Context, k kind) {
	claims := r.inflight.claimsByLease(k)
	for lease := range claims {
		if !r.renewalDue(lease) {
			delete(claims, lease)
		}
	}
	r.moveLeases(ctx, k, claims, r.leaseFrom(r.now()), true)
}

// moveLeases moves claims (ids by lease) of k to to (see moveClaims).
func (r *Runner) moveLeases(ctx context.Context, k kind, claims map[time.Time][]int, to time.Time, keep bool) {
	for lease, ids := range claims {
		moved, err := r.queryIDs(ctx, r.moveClaimsSQL(k, ids, keep), to, lease)
		if err != nil {
			slog.Error("moving job leases", "table", k.table, "err", err)
			continue
		}
		if keep {
			r.inflight.renewed(k, moved, to)
		}
	}
}

// renewalDue says whether a claim held until lease is renewed now. One
// taken within the last sixth of a lease is not: renewals come every third
// of one, so the next renews it with more than half its lease left. A
// burst's hand-offs hold many claims a few seconds each, and renewing every
// claim at every renewal wrote each row once more.
func (r *Runner) renewalDue(lease time.Time) bool {
	return lease.Sub(r.now()) <= r.lease-r.lease/6
}

// moveClaimsSQL moves the claims ids of k holding the lease $2 to $1. On
// PostgreSQL a renewal skips the rows another transaction holds: such a row
// is being settled by its job's record, and waiting for it locked the claims
// in another order than the record's UPDATE did, a deadlock that rolled back
// a whole group of records in a burst. A claim skipped keeps its lease, a
// third of which is left when the next renewal comes. A release waits: it
// is the last chance to let the claims go before their lease runs out.
func (r *Runner) moveClaimsSQL(k kind, ids []int, keep bool) string {
	ph := placeholders(r.db.Dialect)
	held := fmt.Sprintf("%s = %s AND id IN (%s)", k.dueColumn, ph(2), joinInts(ids))
	if keep && r.db.Dialect == dialect.Postgres {
		held = fmt.Sprintf("id IN (SELECT id FROM %s WHERE %s FOR UPDATE SKIP LOCKED)", k.table, held)
	}
	return fmt.Sprintf("UPDATE %s SET %s = %s WHERE %s RETURNING id", k.table, k.dueColumn, ph(1), held)
}

// drain ends the runner: running jobs get the grace time, then the rest are
// cancelled and their claims released, so another runner takes them now
// rather than when the lease would have run out.
func (r *Runner) drain(cancelJobs context.CancelFunc, stopCommits chan struct{}) {
	r.turn.release() // another instance fires from its next try
	finished := make(chan struct{})
	go func() { r.jobs.Wait(); close(finished) }()
	t := time.NewTimer(r.grace)
	select {
	case <-finished:
	case <-t.C:
	}
	t.Stop()
	cancelJobs()
	<-finished
	close(stopCommits)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	now := r.now()
	for _, k := range r.kinds {
		if r.inflight.count(k) > 0 {
			r.moveClaims(ctx, k, now, false)
		}
	}
}

// queryIDs runs a writing statement that returns ids.
func (r *Runner) queryIDs(ctx context.Context, q string, args ...any) ([]int, error) {
	var ids []int
	err := r.write(func() error {
		rows, err := r.db.SQL.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	return ids, err
}

func placeholders(d string) func(int) string {
	if d == dialect.Postgres {
		return func(i int) string { return "$" + strconv.Itoa(i) }
	}
	return func(int) string { return "?" }
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
