package jobs

import (
	"context"
	"fmt"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestLeasesAreRenewedAndTakenOverAfterACrash: a job that runs for many
// leases keeps its row (its runner renews the lease, so a second runner
// never starts it too), and a row claimed by a runner that then died (a
// claim with nobody renewing it, as after kill -9) is taken over by
// another runner once its lease runs out.
func TestLeasesAreRenewedAndTakenOverAfterACrash(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		w := seedConversations(t, ctx, c, 2)
		ch := newChannels(w.inbox)
		ch.started = make(chan int, 10)
		// Renewals have a third of the lease to commit: under the race
		// detector on a loaded machine 100 ms (a 300 ms lease) was too
		// little.
		const lease = 900 * time.Millisecond
		svc := ops.New(c)
		runners := []*Runner{New(database, svc, ch, Options{Lease: lease}), New(database, svc, ch, Options{Lease: lease})}
		runCtx, stop := context.WithCancel(context.Background())
		for _, r := range runners {
			r.Start(runCtx)
		}
		t.Cleanup(func() {
			stop()
			for _, r := range runners {
				r.Wait()
			}
		})

		slow := c.Message.Create().SetAccountID(w.account).SetConversationID(w.convs[0]).SetInboxID(w.inbox).
			SetContent("slow").SetNextDeliveryAt(time.Now().UTC()).SaveX(ctx)
		runners[0].Wake()
		<-ch.started
		leases := map[time.Time]bool{}
		apitest.Eventually(t, 10*time.Second, "four renewals of the slow job's lease", func() bool {
			if m := c.Message.GetX(ctx, slow.ID); m.NextDeliveryAt != nil {
				leases[*m.NextDeliveryAt] = true
			}
			return len(leases) >= 5
		})
		close(ch.release)
		apitest.Eventually(t, 10*time.Second, "the slow message delivered", func() bool {
			return c.Message.GetX(ctx, slow.ID).Status == message.StatusDelivered
		})
		if _, calls := ch.snapshot(); calls[slow.ID] != 1 {
			t.Errorf("the slow message was sent %d times across %d leases, want once", calls[slow.ID], len(leases))
		}

		// The two runners stop (or one of them could claim the next row
		// first); a third claims a row and dies at once: nobody renews it,
		// and a fourth takes it over once the lease runs out.
		stop()
		for _, r := range runners {
			r.Wait()
		}
		dead := New(database, svc, ch, Options{Lease: lease})
		orphan := c.Message.Create().SetAccountID(w.account).SetConversationID(w.convs[1]).SetInboxID(w.inbox).
			SetContent("orphan").SetNextDeliveryAt(time.Now().UTC()).SaveX(ctx)
		// Before the claim: its lease runs from a moment inside it.
		claimedAt := time.Now()
		claimed, err := dead.claim(ctx, messageKind(dead), 1, nil)
		if err != nil || len(claimed) != 1 || claimed[0].id != orphan.ID {
			t.Fatalf("the dying runner claimed %v, %v", claimed, err)
		}
		heirCtx, stopHeir := context.WithCancel(context.Background())
		heir := New(database, svc, ch, Options{Lease: lease})
		heir.Start(heirCtx)
		t.Cleanup(func() { stopHeir(); heir.Wait() })
		apitest.Eventually(t, 10*time.Second, "the orphan taken over", func() bool {
			return c.Message.GetX(ctx, orphan.ID).Status == message.StatusDelivered
		})
		if took := time.Since(claimedAt); took < lease {
			t.Errorf("the orphan was taken over after %v, before its lease of %v ran out", took, lease)
		}
	})
}

// seededConversations is an account with an API inbox and some conversations.
type seededConversations struct {
	account, inbox int
	convs          []int
}

func seedConversations(t *testing.T, ctx context.Context, c *ent.Client, n int) seededConversations {
	t.Helper()
	acc := c.Account.Create().SetName("Acme").SaveX(ctx)
	ib := c.Inbox.Create().SetAccountID(acc.ID).SetName("API").SetChannelType("api").SaveX(ctx)
	ct := c.Contact.Create().SetAccountID(acc.ID).SetName("Ann").SaveX(ctx)
	out := seededConversations{account: acc.ID, inbox: ib.ID}
	for i := range n {
		cv := c.Conversation.Create().SetAccountID(acc.ID).SetDisplayID(i + 1).SetUUID(fmt.Sprint("c", i)).
			SetInboxID(ib.ID).SetContactID(ct.ID).SaveX(ctx)
		out.convs = append(out.convs, cv.ID)
	}
	return out
}

// TestARenewalPassesOverARowBeingSettled (PostgreSQL): a renewal does not
// wait for a claimed row another transaction holds (a group of records
// settling it), so the two cannot deadlock; the claim keeps its lease, and
// the next renewal moves it once the row is free.
func TestARenewalPassesOverARowBeingSettled(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		if e.Name != dialect.Postgres {
			t.Skip("SQLite has one writer: a renewal waits for it as for any write")
		}
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		w := seedConversations(t, ctx, c, 2)
		r := New(database, ops.New(c), newChannels(w.inbox), Options{Lease: time.Minute})
		k := messageKind(r)
		var ids []int
		for i, conv := range w.convs {
			m := c.Message.Create().SetAccountID(w.account).SetConversationID(conv).SetInboxID(w.inbox).
				SetContent(fmt.Sprint("m", i)).SetNextDeliveryAt(time.Now().UTC()).SaveX(ctx)
			ids = append(ids, m.ID)
		}
		claimed, err := r.claim(ctx, k, 2, nil)
		if err != nil || len(claimed) != 2 {
			t.Fatalf("claimed %v, %v", claimed, err)
		}
		for _, j := range claimed {
			r.inflight.add(k, j)
		}
		lease := claimed[0].lease

		held, err := database.SQL.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer held.Rollback()
		if _, err := held.ExecContext(ctx, `UPDATE messages SET status = 'delivered' WHERE id = $1`, ids[0]); err != nil {
			t.Fatal(err)
		}
		renewal, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		first := r.leaseFrom(time.Now().Add(time.Second))
		r.moveClaims(renewal, k, first, true)
		if renewal.Err() != nil {
			t.Fatal("the renewal waited for the row the other transaction holds")
		}
		dueOf := func(id int) time.Time { return *c.Message.GetX(ctx, id).NextDeliveryAt }
		if got := r.inflight.claimsByLease(k); len(got[first]) != 1 || got[first][0] != ids[1] || len(got[lease]) != 1 {
			t.Errorf("leases after the first renewal: %v, want %d at the new lease and %d at the old", got, ids[1], ids[0])
		}
		if !dueOf(ids[1]).Equal(first) {
			t.Errorf("the free claim's lease is %v, want %v", dueOf(ids[1]), first)
		}

		if err := held.Rollback(); err != nil {
			t.Fatal(err)
		}
		second := r.leaseFrom(time.Now().Add(2 * time.Second))
		r.moveClaims(ctx, k, second, true)
		for _, id := range ids {
			if !dueOf(id).Equal(second) {
				t.Errorf("message %d's lease after the second renewal is %v, want %v", id, dueOf(id), second)
			}
		}
	})
}
