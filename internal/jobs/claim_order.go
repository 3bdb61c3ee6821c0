package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
)

// orderWindow is how many due rows, in due order, the first statement of an
// ordered claim reads at most.
const orderWindow = 4 * batchSize

// claimInOrder claims rows of a kind with an order column (a message's
// conversation): a row is not claimed while an earlier row of its value is
// pending. Two ways of finding such rows each cost what the other saves:
//
//   - Reading due rows in due order and checking each stops after n rows
//     when most due rows are first in their conversation (a campaign to many
//     customers), but reads every due row when most wait behind an earlier
//     one (a burst into few conversations): with 10,000 messages of 100
//     conversations due, each claim read about 10,000 rows, 11.5 ms, the
//     costliest statement of a schedule burst (docs/performance.md).
//   - Reading each conversation's first pending row through the pending
//     rows' index costs one index step per conversation with a pending row,
//     however deep its queue, and no more than that.
//
// So the first statement reads at most orderWindow due rows in due order;
// when it fills the claim, that is all. When it does not and the window was
// full (at least orderWindow rows due), the rest are asked of the
// conversations' first rows. Rows without an order value are claimed by the
// first statement alone.
//
// The walk is not bounded: a bound would leave conversations past it
// waiting for as long as the window stays full of messages queued behind
// ones waiting for a retry, which may be days. It visits every conversation
// with a pending message, due or not: after a long outage of a channel with
// many conversations, many steps, each about the cost of a due row the old
// claim read; but then each such conversation has its later messages due
// and queued, every one of which the old claim read.
func (r *Runner) claimInOrder(ctx context.Context, k kind, n int, busy []int, now, lease time.Time) ([]job, error) {
	bound, full, err := r.windowBound(ctx, k, now)
	if err != nil {
		return nil, err
	}
	jobs, err := r.claimRows(ctx, k, n, lease, func(q *claimSQL) string {
		return q.due(bound) + q.notBusy(busy) + q.notInFlight(now, lease) + q.firstPending()
	})
	if err != nil || len(jobs) == n || !full {
		return jobs, err
	}
	more, err := r.claimRows(ctx, k, n-len(jobs), lease, func(q *claimSQL) string {
		return q.firstOfEachValue(r.db.Dialect) + " AND " + q.due(now) + q.notBusy(busy) + q.notInFlight(now, lease)
	})
	return append(jobs, more...), err
}

// windowBound reads the due time of the orderWindow-th due row of k: the
// first statement of a claim reads due rows up to it. full is false when
// fewer are due (the bound is then now): that statement sees them all, and
// the walk is not needed. It is read once for both statements, in one of
// its own: inside each, it was read again, and under a stream of changes
// the due rows' index holds many entries of rows since moved, each a heap
// fetch (8 of a claim's 13 ms in a two-instance burst, docs/performance.md).
func (r *Runner) windowBound(ctx context.Context, k kind, now time.Time) (time.Time, bool, error) {
	q := fmt.Sprintf("SELECT w.%[2]s FROM %[1]s w WHERE w.%[2]s <= %[3]s ORDER BY w.%[2]s LIMIT 1 OFFSET %[4]d",
		k.table, k.dueColumn, placeholders(r.db.Dialect)(1), orderWindow-1)
	var raw any
	err := r.db.SQL.QueryRowContext(ctx, q, now).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return now, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	bound, err := asTime(raw)
	return bound, err == nil, err
}

// firstOfEachValue is the condition of a candidate that is its value's
// first pending row. The values with a pending row are walked through the
// pending rows' index one step each (a recursive skip scan), and each
// value's first row looked up there. On PostgreSQL the ids are an array the
// candidates are read by through their primary key: asked as IN, the
// planner estimated a hash join over every due row cheaper.
func (q *claimSQL) firstOfEachValue(d string) string {
	firsts := fmt.Sprintf(`WITH RECURSIVE v(x) AS (
		SELECT MIN(h.%[2]s) FROM %[1]s h WHERE h.%[3]s IS NOT NULL
		UNION ALL
		SELECT (SELECT MIN(h.%[2]s) FROM %[1]s h WHERE h.%[3]s IS NOT NULL AND h.%[2]s > v.x) FROM v WHERE v.x IS NOT NULL)
		SELECT (SELECT MIN(e.id) FROM %[1]s e WHERE e.%[2]s = v.x AND e.%[3]s IS NOT NULL) FROM v WHERE v.x IS NOT NULL`,
		q.k.table, q.k.orderColumn, q.k.dueColumn)
	if d == dialect.Postgres {
		return "c.id = ANY(ARRAY(" + firsts + "))"
	}
	return "c.id IN (" + firsts + ")"
}

// notInFlight leaves out the rows of values with a row in flight: claimed,
// its due column between now and the end of a lease taken now (lease), so
// every due row of such a value waits behind it. The values in flight are
// read once, through the due column's index, and looked up by hash. A row
// waiting for a retry that falls within a lease counts too: an earlier row
// made due again behind it (a manual retry) waits at most that long, where
// the ordering check alone would let it go at once.
func (q *claimSQL) notInFlight(now, lease time.Time) string {
	return fmt.Sprintf(` AND (c.%[2]s IS NULL OR c.%[2]s NOT IN (SELECT w.%[2]s FROM %[1]s w WHERE w.%[3]s > %[4]s AND w.%[3]s <= %[5]s AND w.%[2]s IS NOT NULL))`,
		q.k.table, q.k.orderColumn, q.k.dueColumn, q.arg(now), q.arg(lease))
}

// firstPending leaves out a row while an earlier row of its value is
// pending.
//
// It asks for the value's first pending row by a scalar subquery, not NOT
// EXISTS over its earlier rows: PostgreSQL may flatten a NOT EXISTS into an
// anti-join, and with the statistics of a table whose pending rows usually
// drain (the planner expects next to none) it chose a nested loop that read
// every pending row for every due one. With 992 messages of 30
// conversations waiting, that claim's prepared plan took 47.6 ms; asked for
// the first pending id of each due row's conversation through the pending
// rows' index, it takes 2.9 ms (docs/performance.md).
func (q *claimSQL) firstPending() string {
	return fmt.Sprintf(` AND (c.%[2]s IS NULL OR c.id = (SELECT MIN(e.id) FROM %[1]s e WHERE e.%[2]s = c.%[2]s AND e.%[3]s IS NOT NULL))`,
		q.k.table, q.k.orderColumn, q.k.dueColumn)
}
