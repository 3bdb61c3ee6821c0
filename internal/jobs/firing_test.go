package jobs

import (
	"context"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestAFiringThatDiesLeavesItsSchedulesDueAtOnce: a firing claims its
// schedules in its own transaction, so another firing passes over the rows
// it holds and takes the rest; and when that transaction dies (its
// instance killed mid-firing), its rows are due again at once, where a
// claim written before the firing left them waiting for the lease (15 s).
func TestAFiringThatDiesLeavesItsSchedulesDueAtOnce(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		if e.Name != dialect.Postgres {
			t.Skip("SQLite has one writer: a firing waits for another one")
		}
		t.Parallel()
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		w := seedConversations(t, ctx, c, 3)
		contact := c.Contact.Query().FirstX(ctx)
		due := time.Now().UTC().Add(-time.Second)
		var ids []int
		for i, conv := range w.convs {
			ids = append(ids, c.ScheduledMessage.Create().SetAccountID(w.account).SetInboxID(w.inbox).SetContactID(contact.ID).
				SetConversationID(conv).SetContent("campaign").SetScheduledAt(due).
				SetNextOccurrenceAt(due.Add(time.Duration(i)*time.Millisecond)).SaveX(ctx).ID)
		}
		// Another instance's firing holds the first schedule, as FireDue
		// holds the rows it read.
		other, err := database.SQL.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Rollback()
		if _, err := other.ExecContext(ctx, "SELECT id FROM scheduled_messages WHERE id = $1 FOR UPDATE", ids[0]); err != nil {
			t.Fatal(err)
		}
		svc := ops.New(c)
		fire := func() (int, []int) {
			t.Helper()
			took, alone, err := svc.FireDue(context.Background(), scheduleBatch, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			return took, alone
		}
		fired := func(id int) bool {
			return c.ScheduledMessage.Query().Where(scheduledmessage.ID(id), scheduledmessage.MessageIDNotNil()).ExistX(ctx)
		}
		if took, alone := fire(); took != 2 || len(alone) != 0 || fired(ids[0]) || !fired(ids[1]) || !fired(ids[2]) {
			t.Fatalf("beside a firing holding schedule %d: took %d, left %v alone; fired: %v %v %v, want 2, none, false true true",
				ids[0], took, alone, fired(ids[0]), fired(ids[1]), fired(ids[2]))
		}
		if err := other.Rollback(); err != nil { // the instance died mid-firing
			t.Fatal(err)
		}
		if took, alone := fire(); took != 1 || len(alone) != 0 || !fired(ids[0]) {
			t.Fatalf("after the other firing died: took %d, left %v alone, schedule %d fired: %v; want 1, none, true",
				took, alone, ids[0], fired(ids[0]))
		}
		if took, _ := fire(); took != 0 {
			t.Errorf("a third firing took %d schedules, want none left", took)
		}
	})
}
