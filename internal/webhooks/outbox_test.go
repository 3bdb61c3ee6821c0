package webhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/internal/webhooks"
)

var clock = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func adminOf(t *testing.T, s *ops.Service, account, email string) (context.Context, int) {
	t.Helper()
	b, err := s.Bootstrap(context.Background(), accounts.BootstrapInput{AccountName: account, Email: email, Name: "Admin"})
	if err != nil {
		t.Fatal(err)
	}
	return viewer.NewContext(context.Background(), viewer.Viewer{UserID: b.UserID, AccountID: b.AccountID, Role: viewer.RoleAdministrator}), b.AccountID
}

func subscribe(t *testing.T, s *ops.Service, ctx context.Context, url string, kinds ...events.Kind) int {
	t.Helper()
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	w, err := s.CreateWebhook(ctx, webhooks.WebhookInput{URL: &url, Subscriptions: names})
	if err != nil {
		t.Fatal(err)
	}
	return w.ID
}

// The outbox listener writes, inside the change's transaction, one pending
// delivery per subscription of the change's account that wants its kind,
// and none for the others (another kind, another account); the body is
// built only when someone subscribes. A change that rolls back leaves no
// delivery; a change without a body (no Payload) is not a webhook.
func TestOutboxWritesOneDeliveryPerSubscription(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		s := ops.New(e.New(t).Client, ops.WithClock(func() time.Time { return clock }))
		acme, acmeID := adminOf(t, s, "Acme", "admin@acme.test")
		globex, _ := adminOf(t, s, "Globex", "admin@globex.test")
		contacts := subscribe(t, s, acme, "https://hooks.acme.test/contacts", events.ContactCreated, events.ContactUpdated)
		everything := subscribe(t, s, acme, "https://hooks.acme.test/all", events.ContactCreated, events.MessageCreated)
		subscribe(t, s, acme, "https://hooks.acme.test/messages", events.MessageCreated)
		subscribe(t, s, globex, "https://hooks.globex.test/contacts", events.ContactCreated)

		builds := 0
		change := func(kind events.Kind, withBody bool) core.Change {
			ch := core.Change{Event: events.Event{AccountID: acmeID, Kind: kind, ContactID: 9}}
			if withBody {
				ch.Payload = func() (map[string]any, error) {
					builds++
					return map[string]any{"id": 9, "name": "Ada"}, nil
				}
			}
			return ch
		}
		notify := func(ch core.Change, fail error) error {
			return s.InTx(acme, func(ctx context.Context, c *ent.Client) error {
				if err := s.Notify(ctx, c, ch); err != nil {
					return err
				}
				return fail
			})
		}
		deliveries := func() []*ent.WebhookDelivery {
			t.Helper()
			ds, err := s.DB.WebhookDelivery.Query().Order(ent.Asc(webhookdelivery.FieldSubscriptionID)).All(core.AsBackgroundWork(context.Background()))
			if err != nil {
				t.Fatal(err)
			}
			return ds
		}

		if err := notify(change(events.ConversationCreated, true), nil); err != nil {
			t.Fatal(err)
		}
		if builds != 0 || len(deliveries()) != 0 {
			t.Fatalf("a kind nobody subscribes to built %d bodies and left %d deliveries", builds, len(deliveries()))
		}
		if err := notify(change(events.ContactCreated, false), nil); err != nil {
			t.Fatal(err)
		}
		if got := deliveries(); len(got) != 0 {
			t.Fatalf("a change without a body left %d deliveries", len(got))
		}
		errAbort := errors.New("abort")
		if err := notify(change(events.ContactCreated, true), errAbort); !errors.Is(err, errAbort) {
			t.Fatalf("InTx returned %v", err)
		}
		if got := deliveries(); len(got) != 0 {
			t.Fatalf("a change that rolled back left %d deliveries", len(got))
		}

		builds = 0
		if err := notify(change(events.ContactCreated, true), nil); err != nil {
			t.Fatal(err)
		}
		if builds != 1 {
			t.Errorf("the body was built %d times for two subscriptions, want 1", builds)
		}
		got := deliveries()
		if len(got) != 2 || core.Deref(got[0].SubscriptionID) != contacts || core.Deref(got[1].SubscriptionID) != everything {
			t.Fatalf("deliveries %v, want one for subscription %d and one for %d", got, contacts, everything)
		}
		wantURLs := []string{"https://hooks.acme.test/contacts", "https://hooks.acme.test/all"}
		for i, d := range got {
			if d.AccountID != acmeID || d.URL != wantURLs[i] || d.Event != "contact_created" ||
				d.Status != webhookdelivery.StatusPending || d.NextAttemptAt == nil || !d.NextAttemptAt.Equal(clock) {
				t.Errorf("delivery %d: account %d, url %s, event %s, status %s, next attempt %v",
					i, d.AccountID, d.URL, d.Event, d.Status, d.NextAttemptAt)
			}
			var body map[string]any
			if err := json.Unmarshal([]byte(d.Payload), &body); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{"event": "contact_created", "occurred_at": "2030-01-02T03:04:05.000Z", "id": 9.0, "name": "Ada"}
			if len(body) != len(want) {
				t.Errorf("delivery %d body %v, want %v", i, body, want)
			}
			for k, v := range want {
				if body[k] != v {
					t.Errorf("delivery %d body[%s] = %v, want %v", i, k, body[k], v)
				}
			}
		}
		if got[0].DeliveryID == got[1].DeliveryID {
			t.Errorf("two deliveries share the webhook-id %s", got[0].DeliveryID)
		}
	})
}
