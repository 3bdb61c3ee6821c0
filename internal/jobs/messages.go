package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/delivery"
)

// Channels sends a message through its inbox's channel.
type Channels interface {
	Deliver(ctx context.Context, job delivery.Job) (sourceID string, err error)
}

// Deliveries wait on the network, not on the CPU: a worker is a goroutine
// and each record commits with others (commits.go). A key (an inbox's
// channel, a webhook subscription) may take half of the workers, so a burst
// to one healthy receiver keeps many requests in flight, while a receiver
// that hangs holds at most that half and every other key still has
// deliveriesPerKey workers. A worker is held until its delivery's record
// commits, which a burst's load makes slow: with 32 a key one receiver took
// fewer deliveries a second than a 10,000-schedule burst fires, and its
// webhooks fell 3-4 s behind (with 96, 0.3-0.5 s, and the burst is sent
// sooner; docs/performance.md, tenth session).
const (
	deliveryWorkers  = 192
	deliveriesPerKey = deliveryWorkers / 2
)

// messageKind delivers messages through their channels: one inbox's
// channel holds at most perKey workers (a hanging receiver stalls only
// its own inbox), and one conversation's messages go out in the order they
// were written, across instances and retries.
func messageKind(r *Runner) kind {
	return kind{table: "messages", dueColumn: "next_delivery_at", keyExpr: "inbox_id", perKey: deliveriesPerKey,
		orderColumn: "conversation_id", run: r.deliverMessage, reportsOutcome: true,
		postgresWorkers: deliveryWorkers, sqliteWorkers: deliveryWorkers}
}

// deliverMessage makes one attempt at sending a message and records it.
func (r *Runner) deliverMessage(ctx context.Context, id int) (err error) {
	pending := true
	defer func() { r.afterDelivery(ctx, id, pending) }()
	job, found, err := r.messageLoads.get(ctx, id)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("message %d: it, its conversation or its inbox is gone", id)
	}
	a := attempt{number: job.Message.DeliveryAttempts + 1, started: r.now()}
	t0 := time.Now()
	sourceID, sendErr := r.channels.Deliver(ctx, *job)
	a.elapsed, a.err, a.status = time.Since(t0), sendErr, delivery.StatusOf(sendErr)
	if sendErr != nil && ctx.Err() != nil {
		return ctx.Err() // shutting down: the claim is released, the message due again
	}
	if a.err == nil {
		a.outcome = outcomeDone
		err = r.record(ctx, func(ctx context.Context, c *ent.Client) error {
			w := groupWritesOf(ctx)
			w.delivered = append(w.delivered, conversations.Delivered{Message: job.Message, SourceID: sourceID,
				AwaitsReceipt: delivery.AwaitsReceipt(job.Inbox)})
			return r.logMessageAttempt(ctx, c, job.Message, a)
		})
	} else {
		err = r.record(ctx, func(ctx context.Context, c *ent.Client) error {
			if err := r.recordFailedAttempt(ctx, job, &a); err != nil {
				return err
			}
			return r.logMessageAttempt(ctx, c, job.Message, a)
		})
	}
	if err == nil {
		// Counted once committed: a group that rolls back runs its records again.
		r.outcome("messages", a.outcome)
		pending = a.outcome == outcomeRetrying
	}
	return err
}

// recordFailedAttempt records a failed attempt's outcome (and sets it in
// a): failed (permanent error or retry budget spent), or due again later.
// (Delivered messages are recorded together: groupWrites.)
func (r *Runner) recordFailedAttempt(ctx context.Context, job *delivery.Job, a *attempt) error {
	wait, retry := r.retries.Messages.next(a.number)
	if delivery.IsPermanent(a.err) || !retry {
		a.outcome = outcomeFailed
		return r.svc.MarkFailed(ctx, job.Message, a.err.Error())
	}
	a.outcome = outcomeRetrying
	_, err := r.svc.RetryDelivery(ctx, job.Message, wait, a.err.Error())
	return err
}
