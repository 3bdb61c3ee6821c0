package conversations_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/stmtcount"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// deliveredFixture is an account with an API inbox and a conversation, on a
// client whose statements are counted.
type deliveredFixture struct {
	svc   *ops.Service
	hub   *events.Hub
	sys   context.Context
	n     *atomic.Int64
	cv    *ent.Conversation
	inbox int
}

func newDeliveredFixture(t *testing.T, e testdb.Engine) deliveredFixture {
	t.Helper()
	raw := e.New(t)
	n := &atomic.Int64{}
	hub := events.NewHub()
	svc := ops.New(stmtcount.Counted(raw, n, false).Client, ops.WithEvents(hub))
	b, err := svc.Bootstrap(context.Background(), accounts.BootstrapInput{AccountName: "Acme", Email: "admin@acme.test", Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	admin := viewer.NewContext(context.Background(), viewer.Viewer{UserID: b.UserID, AccountID: b.AccountID, Role: viewer.RoleAdministrator})
	ib, err := svc.CreateInbox(admin, inboxes.InboxInput{Name: ptr("API"), Channel: &inboxes.ChannelInput{Type: "api"}})
	if err != nil {
		t.Fatal(err)
	}
	sys := core.AsBackgroundWork(context.Background())
	ct := svc.DB.Contact.Create().SetAccountID(b.AccountID).SetName("Ann").SaveX(sys)
	ci := svc.DB.ContactInbox.Create().SetAccountID(b.AccountID).SetContactID(ct.ID).SetInboxID(ib.ID).SetSourceID("ann").SaveX(sys)
	cv := svc.DB.Conversation.Create().SetAccountID(b.AccountID).SetInboxID(ib.ID).SetContactID(ct.ID).
		SetContactInboxID(ci.ID).SetDisplayID(1).SetUUID("delivered-1").SaveX(sys)
	return deliveredFixture{svc: svc, hub: hub, sys: sys, n: n, cv: cv, inbox: ib.ID}
}

// outgoing writes n outgoing messages due for delivery, each posted by a
// schedule.
func (f deliveredFixture) outgoing(t *testing.T, n int) []*ent.Message {
	t.Helper()
	var ms []*ent.Message
	for i := range n {
		m := f.svc.DB.Message.Create().SetAccountID(f.cv.AccountID).SetConversationID(f.cv.ID).SetInboxID(f.inbox).
			SetContent(fmt.Sprint("reply ", i)).SetMessageType(message.MessageTypeOutgoing).SetNextDeliveryAt(time.Now()).SaveX(f.sys)
		f.svc.DB.ScheduledMessage.Create().SetAccountID(f.cv.AccountID).SetInboxID(f.inbox).SetContactID(f.cv.ContactID).
			SetConversationID(f.cv.ID).SetContent(*m.Content).SetScheduledAt(time.Now()).SetMessageID(m.ID).SaveX(f.sys)
		ms = append(ms, m)
	}
	return ms
}

// record records ds as one group, and answers the statements it took.
func (f deliveredFixture) record(t *testing.T, ds []conversations.Delivered) (int64, error) {
	t.Helper()
	before := f.n.Load()
	err := f.svc.InTx(f.sys, func(ctx context.Context, c *ent.Client) error { return f.svc.RecordDelivered(ctx, c, ds) })
	return f.n.Load() - before, err
}

// A group of deliveries is recorded set-based: each message delivered with
// one more attempt and nothing due, the channel's id kept by the first that
// names it (in the group or before it), the schedules that posted them
// sent, a message_updated each after the commit; and in as many statements
// for 4 messages as for 30.
func TestRecordDeliveredRecordsAGroupAsEachAlone(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newDeliveredFixture(t, e)
		holder := f.outgoing(t, 1)[0]
		f.svc.DB.Message.UpdateOne(holder).SetSourceID("ch-held").ClearNextDeliveryAt().ExecX(f.sys)
		ms := f.outgoing(t, 4)
		live := f.hub.Subscribe(f.cv.AccountID)
		defer live.Cancel()

		small, err := f.record(t, []conversations.Delivered{
			{Message: ms[0], SourceID: "ch-1"},
			{Message: ms[1], SourceID: "ch-held"}, // given to another message before
			{Message: ms[2], SourceID: "ch-1"},    // twice in one group
			{Message: ms[3]},
		})
		if err != nil {
			t.Fatal(err)
		}
		wantSource := []string{"ch-1", "", "", ""}
		for i, m := range ms {
			got := f.svc.DB.Message.GetX(f.sys, m.ID)
			source := ""
			if got.SourceID != nil {
				source = *got.SourceID
			}
			if got.Status != message.StatusDelivered || got.NextDeliveryAt != nil || got.DeliveryAttempts != 1 || source != wantSource[i] {
				t.Errorf("message %d: %s, next %v, %d attempts, source %q; want delivered, none, 1, %q",
					i, got.Status, got.NextDeliveryAt, got.DeliveryAttempts, source, wantSource[i])
			}
			sm := f.svc.DB.ScheduledMessage.Query().Where(scheduledmessage.MessageID(m.ID)).OnlyX(f.sys)
			if sm.Status != scheduledmessage.StatusSent || sm.SentAt == nil {
				t.Errorf("message %d's schedule is %s (sent at %v), want sent", i, sm.Status, sm.SentAt)
			}
		}
		updated := map[int]bool{}
		for len(updated) < len(ms) {
			select {
			case ev := <-live.Events:
				if ev.Kind == events.MessageUpdated {
					updated[ev.MessageID] = true
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("message_updated for %d of %d messages", len(updated), len(ms))
			}
		}

		var many []conversations.Delivered
		for i, m := range f.outgoing(t, 30) {
			many = append(many, conversations.Delivered{Message: m, SourceID: fmt.Sprint("ch-many-", i)})
		}
		large, err := f.record(t, many)
		if err != nil {
			t.Fatal(err)
		}
		// Set-based throughout: the messages, their read back, their
		// schedules' read and update, and for the first group the account's
		// webhook subscriptions (none: no payload, and the account is then
		// remembered to have none).
		if large != small-1 || small > 6 {
			t.Errorf("%d statements for 30 deliveries and %d for 4, want one fewer (the subscriptions read once), at most 6", large, small)
		}
	})
}

// A message gone since its delivery read it fails the group's record, and
// nothing of the group is recorded (the runner then records each alone).
func TestRecordDeliveredOfAMessageGoneChangesNothing(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newDeliveredFixture(t, e)
		ms := f.outgoing(t, 2)
		f.svc.DB.ScheduledMessage.Delete().Where(scheduledmessage.MessageID(ms[1].ID)).ExecX(f.sys)
		f.svc.DB.Message.DeleteOneID(ms[1].ID).ExecX(f.sys)
		if _, err := f.record(t, []conversations.Delivered{{Message: ms[0]}, {Message: ms[1]}}); err == nil {
			t.Fatal("recorded a group with a message gone")
		}
		if got := f.svc.DB.Message.GetX(f.sys, ms[0].ID); got.Status == message.StatusDelivered || got.NextDeliveryAt == nil {
			t.Errorf("the other message is %s, next %v: recorded anyway", got.Status, got.NextDeliveryAt)
		}
	})
}

// accountPage is a cache key of one account's (core.Scoped).
type accountPage int

func (a accountPage) Scope() int { return int(a) }

// TestDeliveryRecordsForgetOnlyTheirAccount: what the job runner records
// of a delivery (delivered with others, due again, failed) is a write of
// the message's account, so a cache of pages keeps the other accounts'
// entries and forgets that account's.
func TestDeliveryRecordsForgetOnlyTheirAccount(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newDeliveredFixture(t, e)
		cache := core.NewScopedCache[accountPage, int](f.svc.Core, core.CacheOptions{Kind: "test_pages", TTL: time.Minute, Size: 10,
			Changes: func(m ent.Mutation) bool { return m.Type() == ent.TypeMessage }})
		mine, other := accountPage(f.cv.AccountID), accountPage(f.cv.AccountID+1)
		ms := f.outgoing(t, 3)
		records := []struct {
			name   string
			record func() error
		}{
			{"delivered with others", func() error {
				return f.svc.InTx(f.sys, func(ctx context.Context, c *ent.Client) error {
					return f.svc.RecordDelivered(ctx, c, []conversations.Delivered{{Message: ms[0]}})
				})
			}},
			{"due again", func() error { _, err := f.svc.RetryDelivery(f.sys, ms[1], time.Minute, "busy"); return err }},
			{"failed", func() error { return f.svc.MarkFailed(f.sys, ms[2], "refused") }},
		}
		for _, r := range records {
			for _, k := range []accountPage{mine, other} {
				_, gen, _ := cache.Get(k)
				cache.Put(k, 1, gen)
			}
			if err := r.record(); err != nil {
				t.Fatalf("%s: %v", r.name, err)
			}
			if _, _, ok := cache.Get(mine); ok {
				t.Errorf("%s: the message's account's entry was kept", r.name)
			}
			if _, _, ok := cache.Get(other); !ok {
				t.Errorf("%s: another account's entry was forgotten", r.name)
			}
		}
	})
}
