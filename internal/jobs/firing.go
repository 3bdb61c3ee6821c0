package jobs

// Firings: a kind with fireDue (the schedules) claims its rows in the
// transaction that does their work, instead of moving them a lease ahead
// first. Its workers each take a batch of due rows at a time, locked, and
// go on while the batches come back full; the rows a batch leaves are
// claimed with a lease, as any kind's, and run alone by the same worker.

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/switchboard/switchboard/internal/core"
)

// startFirings starts k's workers (see inflight.firingsToStart) when k's
// earliest row is due at due. On PostgreSQL an instance without the firing
// turn (firing_turn.go) fires only the rows late past the backstop. It
// returns how long the loop may wait before it looks again.
func (r *Runner) startFirings(ctx, jobCtx context.Context, k kind, due, now time.Time) time.Duration {
	var lag time.Duration
	if !r.turn.holds(ctx, now) {
		lag = r.backstop
		if late := due.Add(lag); late.After(now) {
			return min(firingRetry, late.Sub(now))
		}
	}
	for range r.inflight.firingsToStart(k) {
		r.inflight.firingStarted(k)
		r.jobs.Add(1)
		go func() {
			defer r.jobs.Done()
			took := r.fireWhileFull(jobCtx, k, lag)
			r.inflight.firingEnded(k, took == 0)
			r.reportAlive()
			if took > 0 {
				// Rows due behind the ones it took may wait for this.
				r.Wake()
			}
		}()
	}
	return r.idleCheck
}

// fireWhileFull runs k's batches, of the rows due lag ago, until one
// comes back short, and returns how many rows they took.
func (r *Runner) fireWhileFull(ctx context.Context, k kind, lag time.Duration) int {
	total := 0
	for ctx.Err() == nil {
		took := r.fireBatch(ctx, k, r.now().Add(-lag))
		total += took
		r.reportAlive()
		if took < k.batch {
			break
		}
	}
	return total
}

// fireBatch runs one batch of k's rows due by dueBy, starts the jobs it
// handed over, and then runs, alone, the rows it left.
func (r *Runner) fireBatch(ctx context.Context, k kind, dueBy time.Time) int {
	var took int
	var alone []int
	h := r.newHandoff()
	err := r.write(func() error {
		var err error
		took, alone, err = k.fireDue(core.WithHandoff(ctx, h), k.batch, dueBy)
		return err
	})
	r.takeOver(ctx, h)
	if ctx.Err() != nil {
		return took
	}
	if err != nil {
		r.ranJobs(k, 0, err, true) // logged and counted as an error
		return 0
	}
	r.ranJobs(k, took-len(alone), nil, true)
	if len(alone) > 0 {
		r.runAlone(ctx, k, alone)
	}
	return took
}

// runAlone claims the rows ids of k that are still due (another runner may
// have taken some meanwhile) and runs each with k.run: a row that fails
// again waits for its lease to run out, rather than coming back in every
// batch.
func (r *Runner) runAlone(ctx context.Context, k kind, ids []int) {
	now := r.now()
	claimed, err := r.claimRows(ctx, k, len(ids), r.leaseFrom(now), func(q *claimSQL) string {
		return fmt.Sprintf("%s AND c.id IN (%s)", q.due(now), joinInts(ids))
	})
	if err != nil {
		if ctx.Err() == nil {
			slog.Error("claiming jobs", "table", k.table, "err", err)
		}
		return
	}
	r.inflight.hold(k, claimed)
	for _, j := range claimed {
		if ctx.Err() != nil {
			break
		}
		r.runOne(ctx, k, j)
	}
	r.inflight.drop(k, claimed, ctx.Err() == nil)
}
