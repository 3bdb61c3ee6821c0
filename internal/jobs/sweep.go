package jobs

// The delivery logs' retention: attempts (of messages and webhook
// deliveries) older than the attempt retention, and finished webhook
// deliveries (their payloads, and their attempts with them) older than the
// delivery retention, are deleted by the runner's minutely sweep.

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent/messagedeliveryattempt"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/ent/webhookdeliveryattempt"
	"github.com/switchboard/switchboard/internal/core"
)

const (
	// sweepBatch is how many rows one of the sweep's DELETEs removes at
	// most: on SQLite each holds the one writer the deliveries' records
	// wait for.
	sweepBatch = 1000
	// sweepBudget is how long a pass's sweep goes on while batches come
	// back full: the loop that sweeps also claims, so a backlog (the first
	// sweep after an upgrade, an installation stopped for weeks) goes over
	// several passes instead of holding the claims up.
	sweepBudget = 250 * time.Millisecond
)

// sweeper is the sweep's settings and where its walk of the deliveries
// stands (only the loop's goroutine touches it).
type sweeper struct {
	attempts, deliveries time.Duration // retentions; negative: kept forever
	batch                int
	// deliveriesAfter is the id the deliveries' walk goes on after.
	deliveriesAfter int
}

// sweepStep deletes a batch of the rows older than before and says
// whether more may be left.
type sweepStep func(ctx context.Context, before time.Time) (more bool, err error)

// sweepLogs runs each retention sweep a batch at a time until it is done
// or the pass's budget is spent.
func (r *Runner) sweepLogs(ctx context.Context) error {
	ctx = core.AsBackgroundWork(ctx)
	deadline := time.Now().Add(sweepBudget)
	now := r.now()
	for _, s := range []struct {
		retention time.Duration
		step      sweepStep
	}{
		{r.sweep.attempts, r.sweepWebhookAttempts},
		{r.sweep.attempts, r.sweepMessageAttempts},
		{r.sweep.deliveries, r.sweepDeliveries},
	} {
		if s.retention < 0 {
			continue
		}
		for more := true; more && time.Now().Before(deadline); {
			var err error
			if more, err = s.step(ctx, now.Add(-s.retention)); err != nil {
				return err
			}
		}
	}
	return nil
}

// sweepWebhookAttempts deletes the oldest webhook delivery attempts older
// than before, a batch, through the index of their creation time.
func (r *Runner) sweepWebhookAttempts(ctx context.Context, before time.Time) (bool, error) {
	c := r.client()
	return r.sweepOldest(func() ([]int, error) {
		return c.WebhookDeliveryAttempt.Query().Where(webhookdeliveryattempt.CreatedAtLT(before)).
			Order(webhookdeliveryattempt.ByCreatedAt()).Limit(r.sweep.batch).IDs(ctx)
	}, func(ids []int) error {
		_, err := c.WebhookDeliveryAttempt.Delete().Where(webhookdeliveryattempt.IDIn(ids...)).Exec(ctx)
		return err
	})
}

// sweepMessageAttempts is sweepWebhookAttempts for messages' attempts.
func (r *Runner) sweepMessageAttempts(ctx context.Context, before time.Time) (bool, error) {
	c := r.client()
	return r.sweepOldest(func() ([]int, error) {
		return c.MessageDeliveryAttempt.Query().Where(messagedeliveryattempt.CreatedAtLT(before)).
			Order(messagedeliveryattempt.ByCreatedAt()).Limit(r.sweep.batch).IDs(ctx)
	}, func(ids []int) error {
		_, err := c.MessageDeliveryAttempt.Delete().Where(messagedeliveryattempt.IDIn(ids...)).Exec(ctx)
		return err
	})
}

// sweepOldest deletes, as a write, the batch of ids oldest reads, and says
// whether the batch came back full (more may be left).
func (r *Runner) sweepOldest(oldest func() ([]int, error), remove func(ids []int) error) (bool, error) {
	ids, err := oldest()
	if err != nil || len(ids) == 0 {
		return false, err
	}
	return len(ids) == r.sweep.batch, r.write(func() error { return remove(ids) })
}

// sweepDeliveries deletes finished webhook deliveries (delivered or
// failed) that have not changed since before; their attempts go with them
// (the foreign key cascades). It walks the deliveries in id order from
// where its last batch stopped, and ends at the first one created after
// before: ids grow with time, so a batch reads at most sweepBatch rows by
// the primary key, where asking for old finished rows by a filter would
// read the whole table at every sweep once none is left (no index serves
// their times). A pending delivery is passed over (it is being retried),
// and so is one retried by hand since before; once the walk reaches the
// young rows it starts from the first row again, so such a delivery goes
// when it is done and old enough.
func (r *Runner) sweepDeliveries(ctx context.Context, before time.Time) (bool, error) {
	c := r.client()
	rows, err := c.WebhookDelivery.Query().Where(webhookdelivery.IDGT(r.sweep.deliveriesAfter)).
		Order(webhookdelivery.ByID()).Limit(r.sweep.batch).
		Select(webhookdelivery.FieldStatus, webhookdelivery.FieldCreatedAt, webhookdelivery.FieldUpdatedAt).All(ctx)
	if err != nil {
		return false, err
	}
	caughtUp := len(rows) < r.sweep.batch
	var ids []int
	for _, d := range rows {
		if !d.CreatedAt.Before(before) {
			caughtUp = true
			break
		}
		r.sweep.deliveriesAfter = d.ID
		if d.Status != webhookdelivery.StatusPending && d.UpdatedAt.Before(before) {
			ids = append(ids, d.ID)
		}
	}
	if caughtUp {
		r.sweep.deliveriesAfter = 0
	}
	if len(ids) == 0 {
		return !caughtUp, nil
	}
	// Asked again as the rows are now: a delivery retried by hand since
	// it was read is pending, and stays.
	return !caughtUp, r.write(func() error {
		_, err := c.WebhookDelivery.Delete().Where(webhookdelivery.IDIn(ids...),
			webhookdelivery.StatusNEQ(webhookdelivery.StatusPending), webhookdelivery.UpdatedAtLT(before)).Exec(ctx)
		return err
	})
}
