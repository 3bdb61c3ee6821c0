package jobs

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestABurstFiresManySchedulesToATransaction: fired one by one, each
// schedule takes its own transaction and reads; fired as a batch (as the
// runner's workers take a burst), the ordinary ones share one transaction,
// which claims them as it reads them, and the reads of their conversations
// and authors, post their messages set-based, and each still posts its one
// message.
func TestABurstFiresManySchedulesToATransaction(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		database, n, begins := countedDBWithTx(t, e.New(t))
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		w := seedConversations(t, ctx, c, 4)
		author := c.User.Create().SetName("Ada").SetEmail("ada@example.com").SaveX(ctx)
		c.AccountUser.Create().SetAccountID(w.account).SetUserID(author.ID).SetRole("administrator").SaveX(ctx)
		contact := c.Contact.Query().FirstX(ctx)
		c.WebhookSubscription.Create().SetAccountID(w.account).SetURL("http://127.0.0.1:9/hook").SetSecret("s").
			SetSubscriptions([]string{"message_created"}).SaveX(ctx)
		seed := func(count int) []int {
			at := time.Now().UTC().Add(-time.Second)
			var ids []int
			for i := range count {
				ids = append(ids, c.ScheduledMessage.Create().SetAccountID(w.account).SetInboxID(w.inbox).SetContactID(contact.ID).
					SetConversationID(w.convs[i%len(w.convs)]).SetAuthorID(author.ID).SetContent(fmt.Sprint("burst ", i)).
					SetScheduledAt(at).SetNextOccurrenceAt(at).SaveX(ctx).ID)
			}
			return ids
		}
		svc := ops.New(c)
		const count = 20
		cost := func(fire func(ids []int) error) (statements, transactions int64) {
			ids := seed(count)
			s0, b0 := n.Load(), begins.Load()
			if err := fire(ids); err != nil {
				t.Fatal(err)
			}
			if fired := c.ScheduledMessage.Query().Where(scheduledmessage.IDIn(ids...), scheduledmessage.MessageIDNotNil()).CountX(ctx); fired != count {
				t.Fatalf("%d of %d schedules fired", fired, count)
			}
			return n.Load() - s0, begins.Load() - b0
		}
		aloneStmts, aloneTx := cost(func(ids []int) error {
			for _, id := range ids {
				if err := svc.FireSchedule(context.Background(), id); err != nil {
					return err
				}
			}
			return nil
		})
		batchStmts, batchTx := cost(func(ids []int) error { return fireDue(svc, len(ids)) })
		t.Logf("%s: %d schedules alone: %d statements in %d transactions; as a batch: %d in %d",
			e.Name, count, aloneStmts, aloneTx, batchStmts, batchTx)
		if aloneTx != count || batchTx != 1 {
			t.Errorf("transactions: %d alone and %d as a batch, want %d and 1", aloneTx, batchTx, count)
		}
		// As a batch, a schedule costs only its own row's writes (recorded,
		// then sent: the inbox has nothing to deliver); the messages, their
		// conversations, contacts, reads and webhook rows are set-based, a
		// constant.
		if limit := 2*int64(count) + 16; batchStmts > limit {
			t.Errorf("a batch of %d took %d statements, want at most %d (2 a schedule and 16)", count, batchStmts, limit)
		}

		// With a channel to deliver through, the one-off schedules are
		// recorded set-based too: a batch costs the same for 5 as for 20,
		// and each is left pending with its message, until the delivery.
		ib := c.Inbox.GetX(ctx, w.inbox)
		ib.Channel.WebhookURL = "http://127.0.0.1:9/api"
		c.Inbox.UpdateOne(ib).SetChannel(ib.Channel).ExecX(ctx)
		batchOf := func(size int) int64 {
			ids := seed(size)
			s0 := n.Load()
			if err := fireDue(svc, len(ids)); err != nil {
				t.Fatal(err)
			}
			took := n.Load() - s0
			for _, sm := range c.ScheduledMessage.Query().Where(scheduledmessage.IDIn(ids...)).AllX(ctx) {
				if sm.MessageID == nil || sm.ConversationID == nil || sm.NextOccurrenceAt != nil || sm.OccurrencesCount != 1 ||
					sm.Status != scheduledmessage.StatusPending {
					t.Fatalf("schedule %d after firing: message %v, conversation %v, next %v, %d occurrences, %s",
						sm.ID, sm.MessageID, sm.ConversationID, sm.NextOccurrenceAt, sm.OccurrencesCount, sm.Status)
				}
				if m := c.Message.GetX(ctx, *sm.MessageID); m.NextDeliveryAt == nil || *m.Content != sm.Content {
					t.Fatalf("schedule %d posted %v (next delivery %v)", sm.ID, m.Content, m.NextDeliveryAt)
				}
			}
			return took
		}
		if five, twenty := batchOf(5), batchOf(20); five != twenty {
			t.Errorf("deliverable batches: %d statements for 5, %d for 20; want the same", five, twenty)
		}
	})
}

// fireDue fires the n due schedules as one batch, as a runner's worker
// does, and fails unless it took them all and fired them together.
func fireDue(svc *ops.Service, n int) error {
	took, alone, err := svc.FireDue(context.Background(), n, time.Now())
	if err != nil {
		return err
	}
	if took != n || len(alone) > 0 {
		return fmt.Errorf("a batch of %d took %d and left %v alone", n, took, alone)
	}
	return nil
}
