package jobs

import (
	"context"
	"time"
)

// idleCheckInterval is how often idle kanban automations are looked at:
// their thresholds are in hours, so a minute late is on time.
const idleCheckInterval = time.Minute

// runIdleAutomations runs the idle kanban automations when a check is due.
// Each automation claims its run in the database, so several runners never
// fire one twice.
func (r *Runner) runIdleAutomations(ctx context.Context) {
	if now := r.now(); now.Sub(r.lastIdleCheck) >= idleCheckInterval {
		r.lastIdleCheck = now
		r.svc.RunIdleAutomations(ctx)
	}
}
