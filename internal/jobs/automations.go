package jobs

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// idleCheckInterval is how often idle kanban automations are looked at:
// their thresholds are in hours, so a minute late is on time.
const idleCheckInterval = time.Minute

// automationKind runs the automations a card change fired; the runs of one
// card go in order, across instances too.
func automationKind(r *Runner) kind {
	return kind{table: "automation_runs", dueColumn: "run_at", orderColumn: "kanban_item_id", run: r.runAutomations,
		reportsOutcome: true, postgresWorkers: 4, sqliteWorkers: 1}
}

// runAutomations runs automation run id. One that fails (on the database:
// failing actions are skipped) is due again after a wait that grows with
// its attempts, rather than at every lease's end for ever, and is dropped
// once its retry budget is spent.
func (r *Runner) runAutomations(ctx context.Context, id int) error {
	err := r.write(func() error { return r.svc.RunAutomations(ctx, id) })
	if err == nil {
		r.outcome("automation_runs", outcomeDone)
		return nil
	}
	if ctx.Err() != nil {
		return err // shutting down: the claim is released, the run due again
	}
	var dropped bool
	if recErr := r.write(func() error {
		var err error
		dropped, err = r.svc.RetryAutomations(ctx, id, r.retries.Automations.next)
		return err
	}); recErr != nil {
		return errors.Join(err, recErr) // due again when its lease ends
	}
	if dropped {
		slog.Error("kanban automation run dropped: its retry budget is spent", "run", id, "err", err)
		r.outcome("automation_runs", outcomeFailed)
		return nil
	}
	slog.Warn("kanban automation run failed; it will be retried", "run", id, "err", err)
	r.outcome("automation_runs", outcomeRetrying)
	return nil
}

// minutely runs, at most once a minute, the work that is due by the clock
// rather than by a row: the idle kanban automations (each claims its run in
// the database, so several runners never fire one twice), the snoozed
// conversations whose time has come (each reopened by a conditional
// update, so by one runner) and the delivery logs' retention sweep
// (sweep.go).
func (r *Runner) minutely(ctx context.Context) {
	if now := r.now(); now.Sub(r.lastIdleCheck) >= idleCheckInterval {
		r.lastIdleCheck = now
		r.svc.RunIdleAutomations(ctx)
		if _, err := r.svc.WakeSnoozed(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("reopening snoozed conversations", "error", err)
		}
		if err := r.sweepLogs(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("sweeping the delivery logs", "error", err)
		}
	}
}
