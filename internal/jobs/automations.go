package jobs

import (
	"context"
	"log/slog"
	"time"
)

// idleCheckInterval is how often idle kanban automations are looked at:
// their thresholds are in hours, so a minute late is on time.
const idleCheckInterval = time.Minute

// automationKind runs the automations a card change fired; the runs of one
// card go in order, across instances too.
func automationKind(r *Runner) kind {
	return kind{table: "automation_runs", dueColumn: "run_at", orderColumn: "kanban_item_id", run: r.writing(r.svc.RunAutomations),
		postgresWorkers: 4, sqliteWorkers: 1}
}

// minutely runs, at most once a minute, the work that is due by the clock
// rather than by a row: the idle kanban automations (each claims its run in
// the database, so several runners never fire one twice) and the
// delivery logs' retention sweep (sweep.go).
func (r *Runner) minutely(ctx context.Context) {
	if now := r.now(); now.Sub(r.lastIdleCheck) >= idleCheckInterval {
		r.lastIdleCheck = now
		r.svc.RunIdleAutomations(ctx)
		if err := r.sweepLogs(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("sweeping the delivery logs", "error", err)
		}
	}
}
