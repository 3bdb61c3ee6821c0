package jobs

import (
	"context"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestOneInstanceAtATimeFiresSchedules (PostgreSQL): of two runners on one
// database, the one that takes the firing turn fires the due schedules (the
// next test shows a runner without it leaving them); when the holder stops,
// the other takes the turn and fires the next ones.
func TestOneInstanceAtATimeFiresSchedules(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database, ctx, w := postgresFiringWorld(t, e)
		c := database.Client
		ch := newChannels()
		runners := make([]*Runner, 2)
		stops := make([]context.CancelFunc, 2)
		for i := range runners {
			runners[i] = New(database, ops.New(c), ch, Options{})
			var runCtx context.Context
			runCtx, stops[i] = context.WithCancel(context.Background())
			runners[i].Start(runCtx)
		}
		t.Cleanup(func() {
			for i, r := range runners {
				stops[i]()
				r.Wait()
			}
		})
		sentAll := func(n int) func() bool {
			return func() bool { sent, _ := ch.snapshot(); return len(sent) == n }
		}
		fired := func(r *Runner) int64 { return r.Ran()["scheduled_messages"] }

		w.scheduleEach(ctx, c, 5)
		for _, r := range runners {
			r.Wake()
		}
		apitest.Eventually(t, 20*time.Second, "the first ten messages", sentAll(10))
		holder, other := runners[0], runners[1]
		if fired(other) > 0 {
			holder, other = other, holder
		}
		if fired(holder) != 10 || fired(other) != 0 || !holder.turn.held() || other.turn.held() {
			t.Fatalf("the runners fired %d and %d (turn held: %v, %v), want one to fire all ten with the turn",
				fired(holder), fired(other), holder.turn.held(), other.turn.held())
		}

		// The holder stops (SIGTERM): it gives the turn up, and the other
		// runner fires from its next try.
		for i, r := range runners {
			if r == holder {
				stops[i]()
			}
		}
		holder.Wait()
		w.scheduleEach(ctx, c, 5)
		other.Wake()
		apitest.Eventually(t, 20*time.Second, "the next ten messages, from the other runner", sentAll(20))
		if fired(holder) != 10 || fired(other) != 10 || !other.turn.held() {
			t.Errorf("the runners fired %d and %d (the other's turn held: %v), want 10 each, the other with the turn",
				fired(holder), fired(other), other.turn.held())
		}
	})
}

// TestSchedulesLatePastTheBackstopFireWithoutTheTurn (PostgreSQL): while
// another session holds the turn and fires nothing (an instance that
// hangs), a runner fires a due schedule once it is late past the backstop;
// when that session ends without a word (kill -9), the runner takes the
// turn.
func TestSchedulesLatePastTheBackstopFireWithoutTheTurn(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		database, ctx, w := postgresFiringWorld(t, e)
		c := database.Client
		hung, err := database.SQL.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := hung.ExecContext(ctx, "SELECT pg_advisory_lock($1)", firingTurnKey); err != nil {
			t.Fatal(err)
		}
		const backstop = 2 * time.Second
		r := startRunner(t, database, newChannels(), Options{FiringBackstop: backstop})

		sentSchedules := func(n int) func() bool {
			return func() bool {
				return c.ScheduledMessage.Query().Where(scheduledmessage.StatusEQ(scheduledmessage.StatusSent)).CountX(ctx) == n
			}
		}
		w.scheduleEach(ctx, c, 1)
		r.Wake()
		apitest.Eventually(t, 20*time.Second, "the late schedules sent", sentSchedules(2))
		for _, sm := range c.ScheduledMessage.Query().AllX(ctx) {
			if late := sm.SentAt.Sub(sm.ScheduledAt); late < backstop {
				t.Errorf("schedule %d was sent %v after its time, before the backstop of %v", sm.ID, late, backstop)
			}
		}
		if r.turn.held() {
			t.Error("the runner holds the turn another session holds")
		}

		// The hung session ends without unlocking: PostgreSQL drops its lock.
		discard(hung)
		w.scheduleEach(ctx, c, 1)
		r.Wake()
		apitest.Eventually(t, 20*time.Second, "the next schedules sent", sentSchedules(4))
		if !r.turn.held() {
			t.Error("the runner did not take the turn its holder's session left")
		}
	})
}

// postgresFiringWorld is a firing world on a new PostgreSQL database; on
// SQLite, with one process to the file, there is no turn, and the test is
// skipped.
func postgresFiringWorld(t *testing.T, e testdb.Engine) (*db.DB, context.Context, firingWorld) {
	t.Helper()
	if e.Name != dialect.Postgres {
		t.Skip("on SQLite one process uses the file: there is no firing turn")
	}
	database := e.New(t)
	ctx := viewer.SystemContext(context.Background())
	return database, ctx, seedFiringWorld(t, ctx, database.Client)
}
