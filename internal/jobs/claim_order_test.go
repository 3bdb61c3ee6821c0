package jobs

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// A claim takes the first pending message of each conversation and nothing
// queued behind one: behind a message in flight (claimed, its lease
// running), behind an earlier due one, behind one waiting for a retry. An
// earlier message made due again (a manual retry) behind a later one that
// waits for a retry beyond a lease goes at once, as the ordering check
// alone would let it; behind a later one in flight, it waits for it.
func TestAClaimTakesOnlyWhatIsFirstInItsConversation(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		convs := seedDueMessages(t, ctx, c, 6, 3)
		r := New(database, ops.New(c), nil, Options{})
		now := r.now()
		set := func(id int, at time.Time) {
			t.Helper()
			c.Message.UpdateOneID(id).SetNextDeliveryAt(at).ExecX(ctx)
		}
		// 0: its first message in flight, the two after it due.
		set(convs[0][0], r.leaseFrom(now).Add(-time.Second))
		// 1: all three due: the first goes.
		// 2: its first waits for a retry in five seconds.
		set(convs[2][0], now.Add(5*time.Second))
		// 3: its first failed for good and was retried by hand (due), its
		// second waits for a retry in an hour, its third is due.
		set(convs[3][1], now.Add(time.Hour))
		// 4: its first delivered, the two after it due: the second goes.
		c.Message.UpdateOneID(convs[4][0]).ClearNextDeliveryAt().ExecX(ctx)
		// 5: its first due again (retried by hand) while its second is in
		// flight: the first waits for it.
		set(convs[5][1], r.leaseFrom(now).Add(-time.Second))

		ids := claimedMessages(t, ctx, r)
		want := []int{convs[1][0], convs[3][0], convs[4][1]}
		if !slices.Equal(ids, want) {
			t.Errorf("claimed %v, want %v (conversations: %v)", ids, want, convs)
		}
	})
}

// A conversation's first message is claimed however many messages of
// others wait before it: here a conversation whose first is in flight has
// more due messages queued behind it than the first statement of a claim
// reads, and another's first comes after them all.
func TestAClaimFindsTheFirstMessageBehindALongQueueOfAnother(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		convs := seedDueMessages(t, ctx, c, 3, orderWindow+8)
		r := New(database, ops.New(c), nil, Options{})
		now := r.now()
		// 0: its first in flight, orderWindow+7 due behind it, all due
		// before any of the others'.
		c.Message.Update().Where(message.IDIn(convs[0][1:]...)).SetNextDeliveryAt(now.Add(-time.Minute)).ExecX(ctx)
		c.Message.UpdateOneID(convs[0][0]).SetNextDeliveryAt(r.leaseFrom(now).Add(-time.Second)).ExecX(ctx)
		// 1: all due: the first goes. 2: its first waits for a retry.
		c.Message.UpdateOneID(convs[2][0]).SetNextDeliveryAt(now.Add(time.Hour)).ExecX(ctx)

		if ids, want := claimedMessages(t, ctx, r), []int{convs[1][0]}; !slices.Equal(ids, want) {
			t.Errorf("claimed %v, want %v", ids, want)
		}
	})
}

// A claim reads its window's bound once, and walks the conversations'
// first messages only when at least orderWindow messages are due: with
// fewer, its first statement has read them all. The rows it takes are the
// same either way: each conversation's first pending one.
func TestAClaimWalksConversationsOnlyPastAFullWindow(t *testing.T) {
	cases := []struct {
		name string
		// queued: due messages behind conversation 0's first, in flight.
		queued        int
		bounds, walks int64
	}{
		{name: "a few due", queued: 2, bounds: 1, walks: 0},
		{name: "a full window due", queued: orderWindow + 7, bounds: 1, walks: 1},
	}
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				var bounds, walks atomic.Int64
				database := watchedDB(t, e.New(t), countingConnector{seen: func(q string) {
					switch {
					case strings.HasPrefix(q, "SELECT w.next_delivery_at FROM messages w"):
						bounds.Add(1)
					case strings.Contains(q, "WITH RECURSIVE"):
						walks.Add(1)
					}
				}})
				ctx := viewer.SystemContext(context.Background())
				c := database.Client
				convs := seedDueMessages(t, ctx, c, 3, tc.queued+1)
				r := New(database, ops.New(c), nil, Options{})
				now := r.now()
				// 0: its first in flight, the rest due before any other's.
				c.Message.Update().Where(message.IDIn(convs[0][1:]...)).SetNextDeliveryAt(now.Add(-time.Minute)).ExecX(ctx)
				c.Message.UpdateOneID(convs[0][0]).SetNextDeliveryAt(r.leaseFrom(now).Add(-time.Second)).ExecX(ctx)

				// The bound, passed back, takes in at least the window.
				bound, full, err := r.windowBound(ctx, messageKind(r), now)
				if err != nil || full != (tc.walks == 1) {
					t.Fatalf("windowBound: full %v, %v", full, err)
				}
				var within int
				q := "SELECT count(*) FROM messages WHERE next_delivery_at <= " + placeholders(database.Dialect)(1)
				if err := database.SQL.QueryRowContext(ctx, q, bound).Scan(&within); err != nil || full && within < orderWindow {
					t.Errorf("%d messages due by the bound %v, want at least %d (%v)", within, bound, orderWindow, err)
				}
				bounds.Store(0)

				ids := claimedMessages(t, ctx, r)
				if want := []int{convs[1][0], convs[2][0]}; !slices.Equal(ids, want) {
					t.Errorf("claimed %v, want %v", ids, want)
				}
				if bounds.Load() != tc.bounds || walks.Load() != tc.walks {
					t.Errorf("%d reads of the window's bound and %d walks, want %d and %d", bounds.Load(), walks.Load(), tc.bounds, tc.walks)
				}
			})
		}
	})
}

// claimedMessages makes one claim of messages and answers the ids it took,
// in order.
func claimedMessages(t *testing.T, ctx context.Context, r *Runner) []int {
	t.Helper()
	got, err := r.claim(ctx, messageKind(r), batchSize, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, j := range got {
		ids = append(ids, j.id)
	}
	slices.Sort(ids)
	return ids
}
