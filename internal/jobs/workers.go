package jobs

// Workers: each claimed job runs on its own goroutine; a worker that
// finishes takes the next job waiting for its key (inflight.go). A kind that
// claims in its own transactions has workers of its own (firing.go).

import (
	"context"
	"fmt"
	"log/slog"
)

// startClaimed starts the jobs claimed of k, one worker each.
func (r *Runner) startClaimed(jobCtx context.Context, k kind, claimed []job) {
	for _, j := range claimed {
		if r.inflight.add(k, j) {
			r.start(jobCtx, k, j)
		}
	}
}

// start runs j on its own goroutine; when it ends, the next job queued
// behind its key (if any) runs on the same worker.
func (r *Runner) start(ctx context.Context, k kind, j job) {
	r.jobs.Add(1)
	go func() {
		defer r.jobs.Done()
		for {
			r.runOne(ctx, k, j)
			next, ok := r.inflight.done(k, j, ctx.Err() == nil)
			if !ok {
				break
			}
			if r.inflight.justDrained(k, next.key) {
				r.Wake() // claims held back for this key may go on
			}
			j = next
		}
		r.wakeIfDue(k)
	}()
}

// wakeIfDue wakes the loop for a worker of k that came free, when the
// last pass found rows of k due: they may wait for a worker. Otherwise
// the loop already sleeps until k's next due row or a commit's nudge. In a
// burst every delivery's end woke it, a due-time read for each few
// deliveries, where its hand-offs had left nothing due to claim.
func (r *Runner) wakeIfDue(k kind) {
	if due, ok := r.dueAtPass[k.table]; !ok || due.Load() {
		r.Wake()
	}
}

func (r *Runner) runOne(ctx context.Context, k kind, j job) {
	err := k.run(ctx, j.id)
	if err != nil {
		err = fmt.Errorf("id %d: %w", j.id, err)
	}
	r.ranJobs(k, 1, err, ctx.Err() == nil)
	r.reportAlive()
}

// ranJobs counts n jobs of k that ran (unless shutdown stopped them) and
// logs err.
func (r *Runner) ranJobs(k kind, n int, err error, finished bool) {
	if !finished {
		return
	}
	if err != nil {
		slog.Error("running job", "table", k.table, "err", err)
		r.outcome(k.table, outcomeError)
	}
	for range n {
		r.count(k.table)
	}
	if err == nil && !k.reportsOutcome {
		for range n {
			r.outcome(k.table, outcomeDone)
		}
	}
}
