package jobs

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/messagedeliveryattempt"
	"github.com/switchboard/switchboard/ent/webhookdeliveryattempt"
	"github.com/switchboard/switchboard/internal/core"
)

// attempt is what the runner logs of one delivery attempt: the attempt log
// keeps each (time, duration, outcome, the receiver's status, the error),
// where the delivery itself keeps only the last error.
type attempt struct {
	// number counts the attempts since the delivery began or was last
	// retried by hand (the retry budget); the log adds the attempts before
	// that (the offset), so its numbers never repeat.
	number  int
	started time.Time
	elapsed time.Duration
	status  int // the receiver's HTTP status; 0: none
	err     error
	outcome string // outcomeDone, outcomeRetrying or outcomeFailed
}

// attemptOutcomes names the runner's outcomes as the log stores them.
var attemptOutcomes = map[string]string{outcomeDone: "delivered", outcomeRetrying: "retrying", outcomeFailed: "failed"}

func (a attempt) errorText() string {
	if a.err == nil {
		return ""
	}
	return core.Truncate(a.err.Error(), 2000)
}

// logWebhookAttempt adds an attempt at delivery d to the log.
func (r *Runner) logWebhookAttempt(ctx context.Context, c *ent.Client, d *ent.WebhookDelivery, a attempt) error {
	create := c.WebhookDeliveryAttempt.Create().SetAccountID(d.AccountID).SetDeliveryID(d.ID).
		SetAttempt(d.AttemptOffset + a.number).SetStartedAt(a.started).SetDurationMs(int(a.elapsed.Milliseconds())).
		SetOutcome(webhookdeliveryattempt.Outcome(attemptOutcomes[a.outcome])).SetError(a.errorText())
	if a.status != 0 {
		create.SetResponseStatus(a.status)
	}
	if w := groupWritesOf(ctx); w != nil {
		w.webhookAttempts = append(w.webhookAttempts, create)
		return nil
	}
	return create.Exec(ctx)
}

// logMessageAttempt adds an attempt at sending message m to the log.
func (r *Runner) logMessageAttempt(ctx context.Context, c *ent.Client, m *ent.Message, a attempt) error {
	create := c.MessageDeliveryAttempt.Create().SetAccountID(m.AccountID).SetMessageID(m.ID).
		SetAttempt(m.DeliveryAttemptOffset + a.number).SetStartedAt(a.started).SetDurationMs(int(a.elapsed.Milliseconds())).
		SetOutcome(messagedeliveryattempt.Outcome(attemptOutcomes[a.outcome])).SetError(a.errorText())
	if a.status != 0 {
		create.SetResponseStatus(a.status)
	}
	if w := groupWritesOf(ctx); w != nil {
		w.messageAttempts = append(w.messageAttempts, create)
		return nil
	}
	return create.Exec(ctx)
}
