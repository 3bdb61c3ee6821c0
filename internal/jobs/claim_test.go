package jobs

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// TestConcurrentClaimsNeverShareARow: several runners claiming the same due
// rows at once (as instances on one database do) each get disjoint rows,
// and together all of them.
func TestConcurrentClaimsNeverShareARow(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		ids := seedDueMessages(t, ctx, database.Client, 2000)
		svc := ops.New(database.Client)

		const runners = 4
		claimed := make([][]int, runners)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range runners {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := New(database, svc, nil, DefaultRetries)
				<-start // all claim at once, as instances woken by one commit would
				for {
					got, err := r.claim(ctx, messageKind(r))
					if err != nil {
						t.Errorf("runner %d: %v", i, err)
						return
					}
					if len(got) == 0 {
						return
					}
					for _, j := range got {
						claimed[i] = append(claimed[i], j.id)
					}
				}
			}()
		}
		close(start)
		wg.Wait()

		seen := map[int]int{}
		for i, c := range claimed {
			for _, id := range c {
				if prev, dup := seen[id]; dup {
					t.Fatalf("message %d claimed by runners %d and %d", id, prev, i)
				}
				seen[id] = i
			}
		}
		if len(seen) != len(ids) {
			t.Fatalf("claimed %d of %d due messages", len(seen), len(ids))
		}
		t.Logf("%s: %d rows split %v", e.Name, len(ids), lens(claimed))
	})
}

func lens(xs [][]int) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = len(x)
	}
	return out
}

// seedDueMessages makes n outgoing messages due for delivery now.
func seedDueMessages(t *testing.T, ctx context.Context, c *ent.Client, n int) []int {
	t.Helper()
	acc := c.Account.Create().SetName("Acme").SaveX(ctx)
	ib := c.Inbox.Create().SetAccountID(acc.ID).SetName("API").SetChannelType("api").SaveX(ctx)
	ct := c.Contact.Create().SetAccountID(acc.ID).SetName("Ann").SaveX(ctx)
	cv := c.Conversation.Create().SetAccountID(acc.ID).SetDisplayID(1).SetUUID("u").
		SetInboxID(ib.ID).SetContactID(ct.ID).SaveX(ctx)
	due := time.Now().UTC().Add(-time.Second)
	ms := c.Message.MapCreateBulk(make([]struct{}, n), func(b *ent.MessageCreate, _ int) {
		b.SetAccountID(acc.ID).SetConversationID(cv.ID).SetInboxID(ib.ID).SetContent("x").SetNextDeliveryAt(due)
	}).SaveX(ctx)
	ids := make([]int, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

func TestGroupJobsKeepsEachGroupInOrder(t *testing.T) {
	got := groupJobs([]job{{1, 10}, {2, 20}, {3, 10}, {4, 30}, {5, 20}})
	want := [][]int{{1, 3}, {2, 5}, {4}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("groupJobs = %v, want %v", got, want)
	}
}
