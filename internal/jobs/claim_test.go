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
// and together all that may go: the first pending message of each
// conversation.
func TestConcurrentClaimsNeverShareARow(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		convs := seedDueMessages(t, ctx, database.Client, 500, 2)
		svc := ops.New(database.Client)

		const runners = 4
		claimed := make([][]int, runners)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range runners {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := New(database, svc, nil, Options{})
				<-start // all claim at once, as instances woken by one commit would
				for {
					got, err := r.claim(ctx, messageKind(r), batchSize, nil)
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
		for _, ids := range convs {
			if _, ok := seen[ids[0]]; !ok {
				t.Fatalf("message %d, first of its conversation, was not claimed", ids[0])
			}
			if _, ok := seen[ids[1]]; ok {
				t.Fatalf("message %d was claimed while an earlier one of its conversation was pending", ids[1])
			}
		}
		t.Logf("%s: %d rows split %v", e.Name, len(seen), lens(claimed))
	})
}

func lens(xs [][]int) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = len(x)
	}
	return out
}

// seedDueMessages makes perConversation outgoing messages due for delivery
// now in each of conversations conversations, and returns their ids by
// conversation, in the order they were written.
func seedDueMessages(t *testing.T, ctx context.Context, c *ent.Client, conversations, perConversation int) [][]int {
	t.Helper()
	acc := c.Account.Create().SetName("Acme").SaveX(ctx)
	ib := c.Inbox.Create().SetAccountID(acc.ID).SetName("API").SetChannelType("api").SaveX(ctx)
	ct := c.Contact.Create().SetAccountID(acc.ID).SetName("Ann").SaveX(ctx)
	due := time.Now().UTC().Add(-time.Second)
	out := make([][]int, conversations)
	for i := range out {
		cv := c.Conversation.Create().SetAccountID(acc.ID).SetDisplayID(i + 1).SetUUID(fmt.Sprint("u", i)).
			SetInboxID(ib.ID).SetContactID(ct.ID).SaveX(ctx)
		ms := c.Message.MapCreateBulk(make([]struct{}, perConversation), func(b *ent.MessageCreate, _ int) {
			b.SetAccountID(acc.ID).SetConversationID(cv.ID).SetInboxID(ib.ID).SetContent("x").SetNextDeliveryAt(due)
		}).SaveX(ctx)
		for _, m := range ms {
			out[i] = append(out[i], m.ID)
		}
	}
	return out
}
