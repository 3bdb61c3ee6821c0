package jobs

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/ent/webhookdeliveryattempt"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// The attempt log keeps an attempt for the retention and no longer: the
// sweep removes older attempts only, and a negative retention keeps all.
func TestTheAttemptLogIsSweptAfterItsRetention(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		sub := sweptSubscription(ctx, c)
		d := seedDeliveries(ctx, c, sub, 1, time.Now().UTC(), "sweep")[0]
		now := time.Now().UTC()
		for i, age := range []time.Duration{50 * time.Hour, 47 * time.Hour, time.Minute} {
			c.WebhookDeliveryAttempt.Create().SetAccountID(sub.AccountID).SetDeliveryID(d.ID).SetAttempt(i + 1).
				SetStartedAt(now.Add(-age)).SetCreatedAt(now.Add(-age)).SetDurationMs(3).
				SetOutcome(webhookdeliveryattempt.OutcomeRetrying).SaveX(ctx)
		}
		kept := func() []int {
			return c.WebhookDeliveryAttempt.Query().Order(webhookdeliveryattempt.ByAttempt()).
				Select(webhookdeliveryattempt.FieldAttempt).IntsX(ctx)
		}
		forever := New(database, ops.New(c), newChannels(), Options{AttemptRetention: -1})
		if err := forever.sweepLogs(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := kept(); len(got) != 3 {
			t.Fatalf("a negative retention swept the log to %v", got)
		}
		r := New(database, ops.New(c), newChannels(), Options{AttemptRetention: 48 * time.Hour})
		if err := r.sweepLogs(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := kept(); len(got) != 2 || got[0] != 2 || got[1] != 3 {
			t.Errorf("after a 48 h sweep the log keeps attempts %v, want [2 3]", got)
		}
	})
}

// A finished webhook delivery (delivered or failed) stays in its
// subscription's log for the delivery retention after it last changed, and
// then goes with its attempts. Pending ones stay, however old; the sweep
// walks the table a batch at a time and comes back for a delivery it passed
// over once that one is done.
func TestFinishedDeliveriesAreSweptAfterTheirRetention(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		sub := sweptSubscription(ctx, c)
		now := time.Now().UTC()
		rows := []struct {
			name             string
			status           webhookdelivery.Status
			created, changed time.Duration // ago
		}{
			{"old-delivered", webhookdelivery.StatusDelivered, 50 * time.Hour, 49 * time.Hour},
			{"old-pending", webhookdelivery.StatusPending, 50 * time.Hour, 49 * time.Hour},
			{"old-failed", webhookdelivery.StatusFailed, 49 * time.Hour, 49 * time.Hour},
			{"old-retried", webhookdelivery.StatusDelivered, 49 * time.Hour, time.Hour},
			{"young-delivered", webhookdelivery.StatusDelivered, time.Hour, time.Hour},
		}
		ids := map[string]int{}
		for _, row := range rows {
			d := c.WebhookDelivery.Create().SetAccountID(sub.AccountID).SetSubscriptionID(sub.ID).SetURL(sub.URL).
				SetEvent("message_created").SetPayload(`{}`).SetDeliveryID(row.name).SetStatus(row.status).
				SetCreatedAt(now.Add(-row.created)).SetUpdatedAt(now.Add(-row.changed)).SaveX(ctx)
			ids[row.name] = d.ID
			c.WebhookDeliveryAttempt.Create().SetAccountID(sub.AccountID).SetDeliveryID(d.ID).SetAttempt(1).
				SetStartedAt(now).SetDurationMs(3).SetOutcome(webhookdeliveryattempt.OutcomeDelivered).SaveX(ctx)
		}
		left := func() []string {
			ds := c.WebhookDelivery.Query().Order(webhookdelivery.ByID()).AllX(ctx)
			names := make([]string, len(ds))
			for i, d := range ds {
				names[i] = d.DeliveryID
			}
			return names
		}
		sweep := func(r *Runner) {
			t.Helper()
			if err := r.sweepLogs(context.Background()); err != nil {
				t.Fatal(err)
			}
		}

		sweep(New(database, ops.New(c), newChannels(), Options{AttemptRetention: -1, DeliveryRetention: -1}))
		if got := left(); len(got) != len(rows) {
			t.Fatalf("a negative retention swept the deliveries to %v", got)
		}

		r := New(database, ops.New(c), newChannels(), Options{AttemptRetention: -1, DeliveryRetention: 48 * time.Hour})
		r.sweep.batch = 2 // three batches: the walk goes on while they come back full
		sweep(r)
		want := []string{"old-pending", "old-retried", "young-delivered"}
		if got := left(); !slices.Equal(got, want) {
			t.Fatalf("after a 48 h sweep the log keeps %v, want %v", got, want)
		}
		attempts := c.WebhookDeliveryAttempt.Query().Order(webhookdeliveryattempt.ByDeliveryID()).
			Select(webhookdeliveryattempt.FieldDeliveryID).IntsX(ctx)
		if wantAttempts := []int{ids["old-pending"], ids["old-retried"], ids["young-delivered"]}; !slices.Equal(attempts, wantAttempts) {
			t.Errorf("attempts left of deliveries %v, want those of the deliveries kept %v", attempts, wantAttempts)
		}

		// The pending one fails for good; once it has not changed for the
		// retention, the next sweep finds it although its walk had passed it.
		c.WebhookDelivery.UpdateOneID(ids["old-pending"]).SetStatus(webhookdelivery.StatusFailed).
			SetUpdatedAt(now.Add(-49 * time.Hour)).ExecX(ctx)
		sweep(r)
		if got, want := left(), []string{"old-retried", "young-delivered"}; !slices.Equal(got, want) {
			t.Errorf("after the pending delivery failed long ago the log keeps %v, want %v", got, want)
		}
	})
}

// sweptSubscription is an account's subscription whose log the sweep
// tests fill (nothing is sent: its URL is never called).
func sweptSubscription(ctx context.Context, c *ent.Client) *ent.WebhookSubscription {
	acc := c.Account.Create().SetName("Acme").SaveX(ctx)
	return c.WebhookSubscription.Create().SetAccountID(acc.ID).SetURL("http://127.0.0.1:9/hook").SetSecret("s").SaveX(ctx)
}
