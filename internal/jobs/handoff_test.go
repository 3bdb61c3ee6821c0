package jobs

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// firingWorld is an account whose API inbox delivers, two conversations in
// it, an author who may post, and a webhook subscription to message_created
// at a local receiver.
type firingWorld struct {
	seededConversations
	author, contact int
	recv            *receiver
}

func seedFiringWorld(t *testing.T, ctx context.Context, c *ent.Client) firingWorld {
	t.Helper()
	w := firingWorld{seededConversations: seedConversations(t, ctx, c, 2)}
	ib := c.Inbox.GetX(ctx, w.inbox)
	ib.Channel.WebhookURL = "http://127.0.0.1:9/api" // the channels are the test's fakes
	c.Inbox.UpdateOne(ib).SetChannel(ib.Channel).ExecX(ctx)
	author := c.User.Create().SetName("Ada").SetEmail("ada@example.com").SaveX(ctx)
	c.AccountUser.Create().SetAccountID(w.account).SetUserID(author.ID).SetRole("administrator").SaveX(ctx)
	w.author, w.contact = author.ID, c.Contact.Query().FirstIDX(ctx)
	w.recv = newReceiver(t, 200, false)
	c.WebhookSubscription.Create().SetAccountID(w.account).SetURL(w.recv.URL).SetSecret("whsec_dGVzdA==").
		SetSubscriptions([]string{"message_created"}).SaveX(ctx)
	return w
}

// scheduleEach writes perConversation schedules for each conversation, due
// a second ago, their contents "c<conversation>-<n>".
func (w firingWorld) scheduleEach(ctx context.Context, c *ent.Client, perConversation int) {
	at := time.Now().UTC().Add(-time.Second)
	for n := range perConversation {
		for i, conv := range w.convs {
			c.ScheduledMessage.Create().SetAccountID(w.account).SetInboxID(w.inbox).SetContactID(w.contact).
				SetConversationID(conv).SetAuthorID(w.author).SetContent(fmt.Sprintf("c%d-%d", i, n)).
				SetScheduledAt(at).SetNextOccurrenceAt(at).ExecX(ctx)
		}
	}
}

// TestFiredMessagesAreHandedOverInTheirConversationsOrder: the runner
// starts the channel and webhook deliveries of the schedules it fires
// without claiming them. A conversation's messages still go out one at a
// time in order: when it has an earlier pending message (one waiting for a
// retry), or the first fired one fails and waits for its retry, the
// messages behind are released and the ordered claim takes them after it.
func TestFiredMessagesAreHandedOverInTheirConversationsOrder(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	const perConversation = 3
	cases := []struct {
		name string
		// earlier: conversation 0 has a message waiting for a retry.
		earlier bool
		// failFirst: conversation 0's first fired message fails once.
		failFirst bool
		// claimed: conversation 0's messages go out through claims.
		claimed bool
	}{
		{name: "handed over"},
		{name: "behind an earlier pending message", earlier: true, claimed: true},
		{name: "behind a first attempt that failed", failFirst: true, claimed: true},
	}
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				var messageClaims, webhookClaims, dueReads atomic.Int64
				database := watchedDB(t, e.New(t), countingConnector{seen: func(q string) {
					switch {
					case strings.Contains(q, "SELECT c.id FROM messages c"):
						messageClaims.Add(1)
					case strings.Contains(q, "SELECT c.id FROM webhook_deliveries c"):
						webhookClaims.Add(1)
					case strings.HasPrefix(q, "SELECT (SELECT min("):
						dueReads.Add(1)
					}
				}})
				ctx := viewer.SystemContext(context.Background())
				c := database.Client
				w := seedFiringWorld(t, ctx, c)
				want := map[int]int{w.convs[0]: perConversation, w.convs[1]: perConversation}
				earlier := 0
				if tc.earlier {
					earlier = c.Message.Create().SetAccountID(w.account).SetConversationID(w.convs[0]).SetInboxID(w.inbox).
						SetContent("earlier").SetDeliveryAttempts(1).SetNextDeliveryAt(time.Now().UTC().Add(300 * time.Millisecond)).
						SaveX(ctx).ID
					want[w.convs[0]]++
				}
				w.scheduleEach(ctx, c, perConversation)
				ch := newChannels()
				if tc.failFirst {
					ch.failOnce = map[string]bool{"c0-0": true}
				}
				fast := Backoff{First: 10 * time.Millisecond, Max: 10 * time.Millisecond, Budget: time.Second}
				startRunner(t, database, ch, Options{Retries: Retries{Messages: fast, Webhooks: fast}})

				apitest.Eventually(t, 20*time.Second, "every message and webhook", func() bool {
					sent, _ := ch.snapshot()
					got, _ := w.recv.received()
					return len(sent) == want[w.convs[0]]+want[w.convs[1]] && len(got) == 2*perConversation
				})
				sent, calls := ch.snapshot()
				byConv := map[int][]int{}
				for _, s := range sent {
					byConv[s.conversation] = append(byConv[s.conversation], s.id)
				}
				for conv, ids := range byConv {
					for i := 1; i < len(ids); i++ {
						if ids[i] < ids[i-1] {
							t.Errorf("conversation %d's messages went out as %v, want in id order", conv, ids)
						}
					}
					if len(ids) != want[conv] {
						t.Errorf("conversation %d: %d messages sent, want %d", conv, len(ids), want[conv])
					}
				}
				if tc.earlier && byConv[w.convs[0]][0] != earlier {
					t.Errorf("conversation 0 sent %v, want the earlier message %d first", byConv[w.convs[0]], earlier)
				}
				if tc.failFirst {
					first := c.Message.Query().Where(message.ContentEQ("c0-0")).OnlyX(ctx)
					if calls[first.ID] != 2 || byConv[w.convs[0]][0] != first.ID {
						t.Errorf("the failing first message: %d attempts, conversation 0 sent %v; want 2, it first", calls[first.ID], byConv[w.convs[0]])
					}
				}
				t.Logf("claim statements: %d of messages, %d of webhook deliveries; %d due-time reads", messageClaims.Load(), webhookClaims.Load(), dueReads.Load())
				if webhookClaims.Load() != 0 {
					t.Errorf("%d claims of webhook deliveries, want none: they are handed over", webhookClaims.Load())
				}
				if claimed := messageClaims.Load() > 0; claimed != tc.claimed {
					t.Errorf("%d claims of messages, want claims: %v", messageClaims.Load(), tc.claimed)
				}
				// Nothing is due once the schedules have fired: the ends of the
				// 12 deliveries wake no pass (8-14 due-time reads when each did).
				if most := int64(4); !tc.claimed && dueReads.Load() > most {
					t.Errorf("%d due-time reads, want at most %d: a delivery's end reads none when nothing is due", dueReads.Load(), most)
				}
			})
		}
	})
}

// TestHandedMessagesAreReleasedAtShutdown: a conversation's handed
// messages, one running on a channel that hangs and the others waiting
// behind it, are all due again once the runner has stopped, with no
// attempt counted.
func TestHandedMessagesAreReleasedAtShutdown(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		w := seedFiringWorld(t, ctx, c)
		w.scheduleEach(ctx, c, 3)
		ch := newChannels(w.inbox)
		ch.started = make(chan int, 16)
		r := New(database, ops.New(c), ch, Options{Grace: 100 * time.Millisecond})
		runCtx, stop := context.WithCancel(context.Background())
		r.Start(runCtx)
		t.Cleanup(func() { stop(); r.Wait() })
		for range w.convs {
			select {
			case <-ch.started:
			case <-time.After(10 * time.Second):
				t.Fatal("no delivery started")
			}
		}
		stop()
		r.Wait()
		stopped := time.Now().UTC()
		ms := c.Message.Query().Where(message.InboxID(w.inbox)).AllX(ctx)
		if len(ms) != 3*len(w.convs) {
			t.Fatalf("%d messages posted, want %d", len(ms), 3*len(w.convs))
		}
		for _, m := range ms {
			if m.NextDeliveryAt == nil || m.NextDeliveryAt.After(stopped) || m.DeliveryAttempts != 0 {
				t.Errorf("message %d after shutdown: due %v (stopped %v), %d attempts", m.ID, m.NextDeliveryAt, stopped, m.DeliveryAttempts)
			}
		}
	})
}

// TestHandOffsOutlastAChannelThatHangs: while a channel hangs, every
// conversation's fired messages wait in its chain, held by the runner; a
// burst of more of them than the runner held before (1,024) is still all
// handed over. Past that limit the rest were written due, outside every
// chain, and each later hand-off of their conversations went to the claims
// behind them. Two firing workers commit their batches in another order
// than their messages' ids: a batch taken over is not released for the
// messages of one that committed after it (about half the runs released
// 300-600 of the 1,200 messages before the runner told them apart).
func TestHandOffsOutlastAChannelThatHangs(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	const perConversation = 600
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		var claims atomic.Int64
		database := watchedDB(t, e.New(t), countingConnector{seen: func(q string) {
			if strings.Contains(q, "SELECT c.id FROM messages c") {
				claims.Add(1)
			}
		}})
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		w := seedFiringWorld(t, ctx, c)
		at := time.Now().UTC().Add(-time.Second)
		for _, conv := range w.convs {
			c.ScheduledMessage.MapCreateBulk(make([]struct{}, perConversation), func(b *ent.ScheduledMessageCreate, n int) {
				b.SetAccountID(w.account).SetInboxID(w.inbox).SetContactID(w.contact).SetConversationID(conv).
					SetAuthorID(w.author).SetContent(fmt.Sprintf("m%d", n)).SetScheduledAt(at).SetNextOccurrenceAt(at)
			}).ExecX(ctx)
		}
		r := startRunner(t, database, newChannels(w.inbox), Options{Grace: 100 * time.Millisecond})
		total := perConversation * len(w.convs)
		apitest.Eventually(t, 30*time.Second, "every schedule fired and its message held", func() bool {
			return r.inflight.count(messageKind(r)) == total
		})
		now := time.Now().UTC()
		if due := c.Message.Query().Where(message.NextDeliveryAtLTE(now)).CountX(ctx); due != 0 {
			t.Errorf("%d messages written due, want every one held by the runner", due)
		}
		if n := claims.Load(); n != 0 {
			t.Errorf("%d claim statements of messages, want none: all were handed over", n)
		}
	})
}
