package conversations_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestWarmInboundLeavesNothingBehind: the start's warm-up stores a first
// message on several connections at once and keeps nothing: no contact,
// contact inbox, conversation, message or webhook delivery, no event, and no
// display id (the next conversation gets the next number). PostgreSQL only,
// as the server runs it.
func TestWarmInboundLeavesNothingBehind(t *testing.T) {
	for _, e := range testdb.Engines(t) {
		if e.Name != "postgres" {
			continue
		}
		f := newInbound(t, e, false)
		ctx := core.AsBackgroundWork(context.Background())
		// A subscription to every kind: the warm-up's events would write
		// its outbox rows.
		f.svc.DB.WebhookSubscription.Create().SetAccountID(f.inbox.AccountID).SetURL("http://127.0.0.1:9/hook").
			SetSecret("s").SetSubscriptions(kindNames()).SaveX(ctx)
		first, _ := f.receive(t, "wamid.before", "Hello")
		before := rowCounts(t, ctx, f.svc.DB)
		heard := apitest.Listen(t, f.hub, f.inbox.AccountID)
		warmCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := f.svc.WarmInbound(warmCtx, 6); err != nil {
			t.Fatalf("WarmInbound: %v", err)
		}
		heard.Expect(t, []events.Kind{})
		if after := rowCounts(t, ctx, f.svc.DB); after != before {
			t.Errorf("after the warm-up: %s; want as before: %s", after, before)
		}
		m, _, err := f.svc.Receive(context.Background(), conversations.Inbound{Inbox: f.inbox, SourceID: "wamid.after",
			Content: "Hi", From: contacts.Sender{SourceID: "4915199999999", Name: "Bea", Phone: "+4915199999999"}})
		if err != nil {
			t.Fatal(err)
		}
		// The warm-up did store its six messages (then rolled them back):
		// their ids were drawn from the sequence.
		if m.ID < first.ID+1+6 {
			t.Errorf("the message after the warm-up has id %d, want past the six warm-up ones after %d", m.ID, first.ID)
		}
		prev := f.svc.DB.Conversation.GetX(ctx, first.ConversationID)
		next := f.svc.DB.Conversation.GetX(ctx, m.ConversationID)
		if next.DisplayID != prev.DisplayID+1 {
			t.Errorf("the conversation after the warm-up is #%d, want #%d", next.DisplayID, prev.DisplayID+1)
		}
	}
}

// rowCounts are the counts of the rows an inbound message writes.
func rowCounts(t *testing.T, ctx context.Context, c *ent.Client) string {
	t.Helper()
	return fmt.Sprintf("%d contacts, %d contact inboxes, %d conversations, %d messages, %d webhook deliveries",
		c.Contact.Query().CountX(ctx), c.ContactInbox.Query().CountX(ctx), c.Conversation.Query().CountX(ctx),
		c.Message.Query().CountX(ctx), c.WebhookDelivery.Query().CountX(ctx))
}

// kindNames are the names of every kind a subscription may ask for.
func kindNames() []string {
	out := make([]string, len(events.Kinds))
	for i, k := range events.Kinds {
		out[i] = string(k)
	}
	return out
}
