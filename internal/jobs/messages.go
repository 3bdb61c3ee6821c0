package jobs

import (
	"context"

	"github.com/switchboard/switchboard/internal/delivery"
)

// Channels sends a message through its inbox's channel.
type Channels interface {
	Deliver(ctx context.Context, job delivery.Job) (sourceID string, err error)
}

func messageKind(r *Runner) kind {
	return kind{table: "messages", dueColumn: "next_delivery_at", groupColumn: "conversation_id", run: r.deliverMessage}
}

// deliverMessage makes one attempt at sending a message and records it:
// delivered, failed (permanent error or retries spent), or due again later.
func (r *Runner) deliverMessage(ctx context.Context, id int) error {
	job, err := r.svc.DeliveryJob(ctx, id)
	if err != nil {
		return err
	}
	sourceID, sendErr := r.channels.Deliver(ctx, *job)
	if sendErr == nil {
		return r.svc.MarkDelivered(ctx, id, sourceID)
	}
	if ctx.Err() != nil {
		return ctx.Err() // shutting down: the lease runs out and the message is due again
	}
	wait, retry := backoff(r.retries.Messages, job.Message.DeliveryAttempts+1)
	if delivery.IsPermanent(sendErr) || !retry {
		return r.svc.MarkFailed(ctx, id, sendErr.Error())
	}
	_, err = r.svc.RetryDelivery(ctx, id, wait)
	return err
}
