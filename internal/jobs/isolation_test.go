package jobs

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// world is one account with two API inboxes and two webhook subscriptions:
// one of each has a receiver that hangs.
type world struct {
	acc                *ent.Account
	hangInbox, okInbox *ent.Inbox
	hangSub, okSub     *ent.WebhookSubscription
	hangRecv, okRecv   *receiver
	hangConvs, okConvs [][]int // message ids per conversation
	hangHooks, okHooks []*ent.WebhookDelivery
	due                time.Time
}

func seedWorld(t *testing.T, ctx context.Context, c *ent.Client) *world {
	w := &world{due: time.Now().UTC()}
	w.acc = c.Account.Create().SetName("Acme").SaveX(ctx)
	w.hangInbox = c.Inbox.Create().SetAccountID(w.acc.ID).SetName("Down").SetChannelType("api").SaveX(ctx)
	w.okInbox = c.Inbox.Create().SetAccountID(w.acc.ID).SetName("Up").SetChannelType("api").SaveX(ctx)
	ct := c.Contact.Create().SetAccountID(w.acc.ID).SetName("Ann").SaveX(ctx)
	conv := 0
	messages := func(ib *ent.Inbox, convs, per int) [][]int {
		out := make([][]int, convs)
		for i := range out {
			conv++
			cv := c.Conversation.Create().SetAccountID(w.acc.ID).SetDisplayID(conv).SetUUID(fmt.Sprint("u", conv)).
				SetInboxID(ib.ID).SetContactID(ct.ID).SaveX(ctx)
			for range per {
				m := c.Message.Create().SetAccountID(w.acc.ID).SetConversationID(cv.ID).SetInboxID(ib.ID).
					SetContent("x").SetNextDeliveryAt(w.due).SaveX(ctx)
				out[i] = append(out[i], m.ID)
			}
		}
		return out
	}
	w.hangConvs = messages(w.hangInbox, 8, 2)
	w.okConvs = messages(w.okInbox, 20, 3)
	w.hangRecv, w.okRecv = newReceiver(t, 200, true), newReceiver(t, 200, false)
	sub := func(rc *receiver) *ent.WebhookSubscription {
		return c.WebhookSubscription.Create().SetAccountID(w.acc.ID).SetURL(rc.URL).SetSecret("whsec_dGVzdA==").SaveX(ctx)
	}
	w.hangSub, w.okSub = sub(w.hangRecv), sub(w.okRecv)
	w.hangHooks = seedDeliveries(ctx, c, w.hangSub, 10, w.due, "d")
	w.okHooks = seedDeliveries(ctx, c, w.okSub, 30, w.due, "d")
	return w
}

// TestHangingReceiverHoldsOnlyItsOwnKey: with an inbox's channel and a
// webhook subscription whose receivers hang, the messages of the other
// inbox and the deliveries to the other subscription all go out, one
// conversation's messages in order, and each new one within a second of
// being due (the race detector makes SQLite too slow to judge the first
// burst by its lateness); at shutdown the hanging
// jobs are cancelled after the grace time and their claims released at
// once, with no attempt counted.
func TestHangingReceiverHoldsOnlyItsOwnKey(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		outboundtest.AllowPrivate(t, true)
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		w := seedWorld(t, ctx, c)
		ch := newChannels(w.hangInbox.ID)
		r := New(database, ops.New(c), ch, Options{Grace: 200 * time.Millisecond})
		runCtx, stop := context.WithCancel(context.Background())
		r.Start(runCtx)
		t.Cleanup(func() { stop(); r.Wait() })

		okMessages := 0
		for _, ids := range w.okConvs {
			okMessages += len(ids)
		}
		apitest.Eventually(t, 30*time.Second, "the healthy keys' deliveries", func() bool {
			got, _ := w.okRecv.received()
			sent, _ := ch.snapshot()
			return len(got) == len(w.okHooks) && len(sent) == okMessages
		})
		sent, _ := ch.snapshot()
		last := map[int]int{}
		for _, s := range sent {
			if s.id < last[s.conversation] {
				t.Errorf("conversation %d: message %d went out after %d", s.conversation, s.id, last[s.conversation])
			}
			last[s.conversation] = s.id
		}

		// With the hanging receivers still holding their keys, each new
		// message and webhook delivery of the healthy keys goes out at once.
		var delays []time.Duration
		cv := c.Message.GetX(ctx, w.okConvs[0][0]).ConversationID
		for i := range 10 {
			created := time.Now()
			m := c.Message.Create().SetAccountID(w.acc.ID).SetConversationID(cv).SetInboxID(w.okInbox.ID).
				SetContent("x").SetNextDeliveryAt(created.UTC()).SaveX(ctx)
			d := seedDeliveries(ctx, c, w.okSub, 1, created.UTC(), fmt.Sprint("late-", i))[0]
			r.Wake()
			var sentAt, gotAt time.Time
			apitest.Eventually(t, 10*time.Second, "a healthy delivery", func() bool {
				sent, _ := ch.snapshot()
				got, _ := w.okRecv.received()
				sentAt, gotAt = sentTime(sent, m.ID), got[d.DeliveryID]
				return !sentAt.IsZero() && !gotAt.IsZero()
			})
			delays = append(delays, sentAt.Sub(created), gotAt.Sub(created))
		}
		slices.Sort(delays)
		_, hangHits := w.hangRecv.received()
		t.Logf("%s: healthy keys' added delay p50 %v max %v; the hanging receiver holds %d requests",
			e.Name, delays[len(delays)/2], delays[len(delays)-1], hangHits)
		if worst := delays[len(delays)-1]; worst > time.Second {
			t.Errorf("a healthy key waited %v behind a hanging one", worst)
		}

		stop()
		r.Wait()
		stopped := time.Now().UTC()
		for _, m := range c.Message.Query().Where(message.InboxID(w.hangInbox.ID)).AllX(ctx) {
			if m.NextDeliveryAt == nil || m.NextDeliveryAt.After(stopped) || m.DeliveryAttempts != 0 || m.Status != message.StatusSent {
				t.Errorf("message %d of the hanging inbox after shutdown: due %v (stopped %v), %d attempts, %s",
					m.ID, m.NextDeliveryAt, stopped, m.DeliveryAttempts, m.Status)
			}
		}
		for _, d := range c.WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(w.hangSub.ID)).AllX(ctx) {
			if d.NextAttemptAt == nil || d.NextAttemptAt.After(stopped) || d.Attempts != 0 || d.Status != webhookdelivery.StatusPending {
				t.Errorf("delivery %d to the hanging receiver after shutdown: due %v (stopped %v), %d attempts, %s",
					d.ID, d.NextAttemptAt, stopped, d.Attempts, d.Status)
			}
		}
	})
}

func sentTime(sent []sent, id int) time.Time {
	for _, s := range sent {
		if s.id == id {
			return s.at
		}
	}
	return time.Time{}
}
