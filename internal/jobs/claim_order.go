package jobs

import (
	"context"
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
	jobs, err := r.claimRows(ctx, k, n, lease, func(q *claimSQL) string {
		return q.due(now) + q.withinWindow(now) + q.notBusy(busy) + q.notInFlight(now, lease) + q.firstPending()
	})
	if err != nil || len(jobs) == n {
		return jobs, err
	}
	more, err := r.claimRows(ctx, k, n-len(jobs), lease, func(q *claimSQL) string {
		return q.firstOfEachValue(r.db.Dialect) + " AND " + q.due(now) + q.windowFull(now) + q.notBusy(busy) + q.notInFlight(now, lease)
	})
	return append(jobs, more...), err
}

// firstDue is the due time of the orderWindow-th due row (NULL when fewer
// are due).
func (q *claimSQL) firstDue(now time.Time) string {
	return fmt.Sprintf("(SELECT w.%[2]s FROM %[1]s w WHERE w.%[2]s <= %[3]s ORDER BY w.%[2]s LIMIT 1 OFFSET %[4]d)",
		q.k.table, q.k.dueColumn, q.arg(now), orderWindow-1)
}

// withinWindow bounds the candidates' due column by the orderWindow-th due
// row's, so the scan in due order stops there.
func (q *claimSQL) withinWindow(now time.Time) string {
	return fmt.Sprintf(" AND c.%s <= COALESCE(%s, %s)", q.k.dueColumn, q.firstDue(now), q.arg(now))
}

// windowFull holds when at least orderWindow rows are due: below that, the
// first statement saw them all.
func (q *claimSQL) windowFull(now time.Time) string {
	return fmt.Sprintf(" AND %s IS NOT NULL", q.firstDue(now))
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
