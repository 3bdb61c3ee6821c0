package jobs

// Workers: each claimed job (or batch) runs on its own goroutine; a worker
// that finishes takes the next job waiting for its key (inflight.go).

import (
	"context"
	"fmt"
	"log/slog"
)

// startClaimed starts the jobs claimed of k: one worker each, or for a
// batch kind one worker per batch.
func (r *Runner) startClaimed(jobCtx context.Context, k kind, claimed []job) {
	if k.batch <= 1 {
		for _, j := range claimed {
			if r.inflight.add(k, j) {
				r.start(jobCtx, k, j)
			}
		}
		return
	}
	for len(claimed) > 0 {
		n := min(k.batch, len(claimed))
		r.inflight.addBatch(k, claimed[:n])
		r.startBatch(jobCtx, k, claimed[:n])
		claimed = claimed[n:]
	}
}

// startBatch runs the jobs js of a batch kind together on one goroutine.
func (r *Runner) startBatch(ctx context.Context, k kind, js []job) {
	r.jobs.Add(1)
	go func() {
		defer r.jobs.Done()
		ids := make([]int, len(js))
		for i, j := range js {
			ids[i] = j.id
		}
		err := k.runBatch(ctx, ids)
		r.ranJobs(k, len(js), err, ctx.Err() == nil)
		r.inflight.doneBatch(k, js, ctx.Err() == nil)
		r.reportAlive()
		r.Wake()
	}()
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
		r.Wake()
	}()
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
