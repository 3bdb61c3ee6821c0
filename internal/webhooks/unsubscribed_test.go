package webhooks_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/stmtcount"
	"github.com/switchboard/switchboard/internal/testdb"
)

// An account found without a subscription is not asked again: a second
// change costs one statement less than the first. A subscription made
// afterwards gets the very next change; deleting it in a transaction that
// rolls back (having written a change there, which found none) leaves it
// getting changes; deleting it for good stops them (and takes its
// deliveries).
func TestAnAccountWithoutSubscriptionsIsNotAskedAgain(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		raw := e.New(t)
		n := &atomic.Int64{}
		s := ops.New(stmtcount.Counted(raw, n, false).Client)
		acme, acmeID := adminOf(t, s, "Acme", "admin@acme.test")
		change := core.Change{Event: events.Event{AccountID: acmeID, Kind: events.ContactCreated, ContactID: 9},
			Payload: func() (map[string]any, error) { return map[string]any{"id": 9}, nil }}
		notify := func() (int64, error) {
			before := n.Load()
			err := s.InTx(acme, func(ctx context.Context, c *ent.Client) error { return s.Notify(ctx, c, change) })
			return n.Load() - before, err
		}
		deliveries := func() int {
			t.Helper()
			return s.DB.WebhookDelivery.Query().CountX(core.AsBackgroundWork(context.Background()))
		}

		first, err := notify()
		if err != nil {
			t.Fatal(err)
		}
		second, err := notify()
		if err != nil {
			t.Fatal(err)
		}
		if second != first-1 {
			t.Errorf("a change took %d statements after one that took %d, want one less", second, first)
		}

		id := subscribe(t, s, acme, "https://hooks.acme.test/contacts", events.ContactCreated)
		if _, err := notify(); err != nil || deliveries() != 1 {
			t.Fatalf("the change after a subscription was made: %v, %d deliveries, want 1", err, deliveries())
		}

		errAbort := errors.New("abort")
		err = s.InTx(acme, func(ctx context.Context, c *ent.Client) error {
			if err := c.WebhookSubscription.DeleteOneID(id).Exec(ctx); err != nil {
				return err
			}
			if err := s.Notify(ctx, c, change); err != nil { // finds none, in this transaction
				return err
			}
			return errAbort
		})
		if !errors.Is(err, errAbort) {
			t.Fatalf("the rolled back deletion: %v", err)
		}
		if _, err := notify(); err != nil || deliveries() != 2 {
			t.Fatalf("the change after a deletion rolled back: %v, %d deliveries, want 2", err, deliveries())
		}

		if err := s.DeleteWebhook(acme, id); err != nil { // its deliveries go with it
			t.Fatal(err)
		}
		if _, err := notify(); err != nil || deliveries() != 0 {
			t.Fatalf("the change after the deletion: %v, %d deliveries, want none", err, deliveries())
		}
	})
}
