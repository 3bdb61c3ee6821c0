package jobs

import (
	"context"

	"github.com/switchboard/switchboard/internal/delivery"
)

// Channels sends a message through its inbox's channel.
type Channels interface {
	Deliver(ctx context.Context, job delivery.Job) (sourceID string, err error)
}

// messageKind delivers messages through their channels: one inbox's
// channel holds at most perKey workers (a hanging receiver stalls only
// its own inbox), and one conversation's messages go out in the order they
// were written, across instances and retries.
func messageKind(r *Runner) kind {
	return kind{table: "messages", dueColumn: "next_delivery_at", keyExpr: "inbox_id", perKey: 4,
		orderColumn: "conversation_id", run: r.deliverMessage, reportsOutcome: true, postgresWorkers: 16, sqliteWorkers: 8}
}

// deliverMessage makes one attempt at sending a message and records it.
func (r *Runner) deliverMessage(ctx context.Context, id int) error {
	job, err := r.svc.DeliveryJob(ctx, id)
	if err != nil {
		return err
	}
	sourceID, sendErr := r.channels.Deliver(ctx, *job)
	if sendErr != nil && ctx.Err() != nil {
		return ctx.Err() // shutting down: the claim is released, the message due again
	}
	return r.write(func() error { return r.recordMessageAttempt(ctx, job, sourceID, sendErr) })
}

// recordMessageAttempt records an attempt's outcome: delivered, failed
// (permanent error or retry budget spent), or due again later.
func (r *Runner) recordMessageAttempt(ctx context.Context, job *delivery.Job, sourceID string, sendErr error) error {
	id := job.Message.ID
	if sendErr == nil {
		r.outcome("messages", outcomeDone)
		return r.svc.MarkDelivered(ctx, id, sourceID)
	}
	wait, retry := r.retries.Messages.next(job.Message.DeliveryAttempts + 1)
	if delivery.IsPermanent(sendErr) || !retry {
		r.outcome("messages", outcomeFailed)
		return r.svc.MarkFailed(ctx, id, sendErr.Error())
	}
	r.outcome("messages", outcomeRetrying)
	_, err := r.svc.RetryDelivery(ctx, id, wait, sendErr.Error())
	return err
}
