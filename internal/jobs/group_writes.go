package jobs

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/ops"
)

// groupWrites gathers what the records of one commit write alike, to write
// it set-based once they have all run: a group of 64 deliveries wrote
// their rows a statement each, several each, one round trip apiece on
// PostgreSQL. Records that end otherwise (a retry, a failure) still write
// their own rows.
type groupWrites struct {
	// delivered are the messages their channels accepted.
	delivered []conversations.Delivered
	// webhooksDelivered are the webhook deliveries a receiver accepted, by
	// their attempt count and the receiver's status.
	webhooksDelivered map[webhookOutcome][]int
	messageAttempts   []*ent.MessageDeliveryAttemptCreate
	webhookAttempts   []*ent.WebhookDeliveryAttemptCreate
}

// webhookOutcome is what a delivered webhook's row records besides its
// status: which attempt it was, and what the receiver answered.
type webhookOutcome struct{ attempts, status int }

type groupWritesKey struct{}

// withGroupWrites is ctx gathering a commit's writes in w.
func withGroupWrites(ctx context.Context, w *groupWrites) context.Context {
	return context.WithValue(ctx, groupWritesKey{}, w)
}

// groupWritesOf is the writes ctx's commit gathers (nil outside one).
func groupWritesOf(ctx context.Context) *groupWrites {
	w, _ := ctx.Value(groupWritesKey{}).(*groupWrites)
	return w
}

// webhookDelivered gathers that delivery id was accepted at attempt
// attempts with the receiver's status.
func (w *groupWrites) webhookDelivered(id, attempts, status int) {
	if w.webhooksDelivered == nil {
		w.webhooksDelivered = map[webhookOutcome][]int{}
	}
	k := webhookOutcome{attempts, status}
	w.webhooksDelivered[k] = append(w.webhooksDelivered[k], id)
}

// write writes what was gathered, in c's transaction.
func (w *groupWrites) write(ctx context.Context, c *ent.Client, svc *ops.Service, now time.Time) error {
	if len(w.delivered) > 0 {
		if err := svc.RecordDelivered(ctx, c, w.delivered); err != nil {
			return err
		}
	}
	for k, ids := range w.webhooksDelivered {
		if err := c.WebhookDelivery.Update().Where(webhookdelivery.IDIn(ids...)).SetAttempts(k.attempts).
			SetResponseStatus(k.status).SetStatus(webhookdelivery.StatusDelivered).SetDeliveredAt(now).
			ClearNextAttemptAt().SetLastError("").Exec(ctx); err != nil {
			return err
		}
	}
	if len(w.messageAttempts) > 0 {
		if err := c.MessageDeliveryAttempt.CreateBulk(w.messageAttempts...).Exec(ctx); err != nil {
			return err
		}
	}
	if len(w.webhookAttempts) > 0 {
		return c.WebhookDeliveryAttempt.CreateBulk(w.webhookAttempts...).Exec(ctx)
	}
	return nil
}
