package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/ent/webhookdeliveryattempt"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// A commit group writes its accepted webhook deliveries and its attempt log
// set-based: each accepted delivery is delivered with its attempt count, the
// receiver's status and no error or next attempt, each attempt is logged,
// a refused one (500) is due again with its error; and 12 accepted cost the
// statements 3 do.
func TestAGroupRecordsItsWebhookDeliveriesTogether(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database, n, _ := countedDBWithTx(t, e.New(t))
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		r := New(database, ops.New(c), newChannels(), Options{})
		w := seedConversations(t, ctx, c, 1)
		sub := c.WebhookSubscription.Create().SetAccountID(w.account).SetURL("http://127.0.0.1:9/hook").SetSecret("s").
			SetSubscriptions([]string{"message_created"}).SaveX(ctx)
		commit := func(ds []*ent.WebhookDelivery, status func(i int) int) int64 {
			var group []commitRequest
			for i, d := range ds {
				a := attempt{number: d.Attempts + 1, started: r.now(), elapsed: 3 * time.Millisecond, status: status(i)}
				group = append(group, commitRequest{ctx: context.Background(), done: make(chan error, 1),
					f: func(ctx context.Context, c *ent.Client) error {
						recorded := a
						if err := r.recordWebhookAttempt(ctx, c, d, &recorded); err != nil {
							return err
						}
						return r.logWebhookAttempt(ctx, c, d, recorded)
					}})
			}
			before := n.Load()
			r.commitGroup(group)
			for i, req := range group {
				if err := <-req.done; err != nil {
					t.Fatalf("record %d: %v", i, err)
				}
			}
			return n.Load() - before
		}

		ds := seedDeliveries(ctx, c, sub, 4, time.Now(), "few")
		few := commit(ds, func(i int) int {
			if i == 3 {
				return 500
			}
			return 200
		})
		for i, d := range ds {
			got := c.WebhookDelivery.GetX(ctx, d.ID)
			logged := c.WebhookDeliveryAttempt.Query().Where(webhookdeliveryattempt.DeliveryID(d.ID)).OnlyX(ctx)
			if got.Attempts != 1 || logged.Attempt != 1 || logged.DurationMs != 3 {
				t.Errorf("delivery %d: %d attempts, logged attempt %d of %d ms; want 1, 1, 3", i, got.Attempts, logged.Attempt, logged.DurationMs)
			}
			switch {
			case i < 3 && (got.Status != webhookdelivery.StatusDelivered || got.DeliveredAt == nil || got.NextAttemptAt != nil ||
				got.ResponseStatus == nil || *got.ResponseStatus != 200 || got.LastError != ""):
				t.Errorf("accepted delivery %d: %s at %v, next %v, status %v, error %q", i, got.Status, got.DeliveredAt, got.NextAttemptAt, got.ResponseStatus, got.LastError)
			case i == 3 && (got.Status != webhookdelivery.StatusPending || got.NextAttemptAt == nil || got.LastError == ""):
				t.Errorf("refused delivery: %s, next %v, error %q; want pending, due again, with the error", got.Status, got.NextAttemptAt, got.LastError)
			}
		}

		accepted := func(int) int { return 200 }
		three := commit(seedDeliveries(ctx, c, sub, 3, time.Now(), "three"), accepted)
		twelve := commit(seedDeliveries(ctx, c, sub, 12, time.Now(), "twelve"), accepted)
		if three != twelve || few <= three {
			t.Errorf("statements: %d for 3 accepted, %d for 12, %d for 3 and a refused one; want 12 = 3 < 3 and a refused", three, twelve, few)
		}
	})
}
