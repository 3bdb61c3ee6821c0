package jobs

import (
	"context"
	"testing"
	"time"

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
		acc := c.Account.Create().SetName("Acme").SaveX(ctx)
		rc := newReceiver(t, 200, false)
		sub := c.WebhookSubscription.Create().SetAccountID(acc.ID).SetURL(rc.URL).SetSecret("whsec_dGVzdA==").SaveX(ctx)
		d := seedDeliveries(ctx, c, sub, 1, time.Now().UTC(), "sweep")[0]
		now := time.Now().UTC()
		for i, age := range []time.Duration{50 * time.Hour, 47 * time.Hour, time.Minute} {
			c.WebhookDeliveryAttempt.Create().SetAccountID(acc.ID).SetDeliveryID(d.ID).SetAttempt(i + 1).
				SetStartedAt(now.Add(-age)).SetCreatedAt(now.Add(-age)).SetDurationMs(3).
				SetOutcome(webhookdeliveryattempt.OutcomeRetrying).SaveX(ctx)
		}
		kept := func() []int {
			return c.WebhookDeliveryAttempt.Query().Order(webhookdeliveryattempt.ByAttempt()).
				Select(webhookdeliveryattempt.FieldAttempt).IntsX(ctx)
		}
		forever := New(database, ops.New(c), newChannels(), Options{AttemptRetention: -1})
		if err := forever.sweepAttempts(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := kept(); len(got) != 3 {
			t.Fatalf("a negative retention swept the log to %v", got)
		}
		r := New(database, ops.New(c), newChannels(), Options{AttemptRetention: 48 * time.Hour})
		if err := r.sweepAttempts(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := kept(); len(got) != 2 || got[0] != 2 || got[1] != 3 {
			t.Errorf("after a 48 h sweep the log keeps attempts %v, want [2 3]", got)
		}
	})
}
