package jobs

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestIdleRunnerCostsOneStatementPerCheck: a runner with nothing due, and
// work due only in an hour, sends one statement per idle check (a second),
// whatever the tables hold (the loop polled four tables and the schedules
// every 500 ms: 12 statements a second).
func TestIdleRunnerCostsOneStatementPerCheck(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		database, n := countedDB(t, e.New(t))
		ctx := viewer.SystemContext(context.Background())
		w := seedConversations(t, ctx, database.Client, 1)
		later := database.Client.Message.Create().SetAccountID(w.account).SetConversationID(w.convs[0]).SetInboxID(w.inbox).
			SetContent("later").SetNextDeliveryAt(time.Now().UTC().Add(time.Hour)).SaveX(ctx)
		r := startRunner(t, database, newChannels(), Options{})
		due, err := r.nextDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range r.kinds {
			want := time.Time{}
			if k.table == "messages" {
				want = *later.NextDeliveryAt
			}
			if due[i].Sub(want).Abs() > time.Millisecond {
				t.Errorf("%s are next due at %v, want %v", k.table, due[i], want)
			}
		}
		// Two passes: the first (which also looks at idle automations, once
		// a minute) is over.
		passes(t, r, 2)
		const window = 3 * time.Second
		before := n.Load()
		<-time.After(window) // the measured span, not a wait for an event
		got := n.Load() - before
		t.Logf("%d statements in %v of idle", got, window)
		if limit := int64(window/time.Second) + 1; got > limit {
			t.Errorf("an idle runner sent %d statements in %v, want at most %d", got, window, limit)
		}
		if time.Since(r.Alive()) > 2*time.Second {
			t.Errorf("the runner stopped checking: last pass %v ago", time.Since(r.Alive()))
		}
	})
}

// TestNudgesCoalesce: a nudge for every commit of a stream of writes (one a
// millisecond here) starts a pass at most every nudgeGap, each one
// statement, where every nudge used to start one.
func TestNudgesCoalesce(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		database, n := countedDB(t, e.New(t))
		r := startRunner(t, database, newChannels(), Options{IdleCheck: time.Minute})
		// Two passes before the count: the first looks at idle automations
		// too. Each is woken, as the next unwoken one is a minute away.
		wokenPass(t, r)
		wokenPass(t, r)
		const nudges = 300
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		before, start := n.Load(), time.Now()
		for range nudges {
			<-tick.C // the pace of the commits, not a wait for an event
			r.Nudge()
		}
		passes(t, r, 1) // the last nudge's pass
		got, took := n.Load()-before, time.Since(start)
		t.Logf("%d statements for %d nudges in %v", got, nudges, took)
		if limit := int64(took/nudgeGap) + 2; got > min(limit, nudges/5) {
			t.Errorf("%d nudges in %v started %d statements, want at most %d (one pass per %v)", nudges, took, got, min(limit, nudges/5), nudgeGap)
		}
	})
}

// TestRunnerWakesForDueWork: with idle checks a minute apart, work still
// runs at once when a commit wakes the runner (in process), when another
// instance's event arrives (PostgreSQL's NOTIFY), and at the due time of a
// row it read, not before.
func TestRunnerWakesForDueWork(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		database := e.New(t)
		ctx := viewer.SystemContext(context.Background())
		c := database.Client
		w := seedConversations(t, ctx, c, 3)
		ch := newChannels()
		r := startRunner(t, database, ch, Options{IdleCheck: time.Minute})
		// Its first pass may be over already, and the next would be a
		// minute away: a woken one.
		wokenPass(t, r)
		add := func(conv int, due time.Time) *ent.Message {
			return c.Message.Create().SetAccountID(w.account).SetConversationID(conv).SetInboxID(w.inbox).
				SetContent("hi").SetNextDeliveryAt(due).SaveX(ctx)
		}
		delivered := func(m *ent.Message) func() bool {
			return func() bool { return c.Message.GetX(ctx, m.ID).Status == message.StatusDelivered }
		}

		// What the after-commit hook does (ops.WithAfterCommit).
		now := add(w.convs[0], time.Now().UTC())
		r.Nudge()
		apitest.Eventually(t, 5*time.Second, "the message due now, after a wake", delivered(now))

		due := time.Now().UTC().Add(400 * time.Millisecond)
		later := add(w.convs[1], due)
		r.Nudge()
		apitest.Eventually(t, 5*time.Second, "the message due in 400 ms", delivered(later))
		sent, _ := ch.snapshot()
		if at := sentAt(sent, later.ID); at.Before(due) {
			t.Errorf("the message due at %v was sent early, at %v", due, at)
		}

		if e.Name != dialect.Postgres {
			return
		}
		// Another instance's change reaches this one through NOTIFY.
		relayCtx, stop := context.WithCancel(context.Background())
		t.Cleanup(stop)
		here, elsewhere := events.NewHub(), events.NewHub()
		for _, h := range []*events.Hub{here, elsewhere} {
			if err := events.RelayThroughPostgres(relayCtx, h, database.DSN, database.SQL); err != nil {
				t.Fatal(err)
			}
		}
		cancel := r.WakeOnEvents(here)
		t.Cleanup(cancel)
		remote := add(w.convs[2], time.Now().UTC())
		elsewhere.Publish(events.Event{AccountID: w.account, Kind: events.MessageCreated, MessageID: remote.ID})
		apitest.Eventually(t, 5*time.Second, "the message another instance announced", delivered(remote))
	})
}

func sentAt(sent []sent, id int) time.Time {
	for _, s := range sent {
		if s.id == id {
			return s.at
		}
	}
	return time.Time{}
}

// startRunner starts a runner on database until the test ends.
func startRunner(t *testing.T, database *db.DB, ch Channels, o Options) *Runner {
	t.Helper()
	r := New(database, ops.New(database.Client), ch, o)
	ctx, stop := context.WithCancel(context.Background())
	r.Start(ctx)
	t.Cleanup(func() { stop(); r.Wait() })
	return r
}

// passes waits until the runner has begun n passes after this call.
func passes(t *testing.T, r *Runner, n int) {
	t.Helper()
	last := r.Alive()
	for i := range n {
		apitest.Eventually(t, 5*time.Second, "a pass of the runner", func() bool { return r.Alive().After(last) })
		if i < n-1 {
			last = r.Alive()
		}
	}
}

// wokenPass wakes the runner and waits for the pass the wake starts (or
// one begun since the call): with idle checks a minute apart, waiting for a
// pass without a wake hangs when the runner's last one began just before.
func wokenPass(t *testing.T, r *Runner) {
	t.Helper()
	last := r.Alive()
	r.Wake()
	apitest.Eventually(t, 5*time.Second, "a woken pass of the runner", func() bool { return r.Alive().After(last) })
}

// countedDB is raw with every statement counted, ent's and raw SQL's alike.
func countedDB(t *testing.T, raw *db.DB) (*db.DB, *atomic.Int64) {
	d, n, _ := countedDBWithTx(t, raw)
	return d, n
}

// countedDBWithTx is countedDB that also counts the transactions begun.
func countedDBWithTx(t *testing.T, raw *db.DB) (*db.DB, *atomic.Int64, *atomic.Int64) {
	n, begins := &atomic.Int64{}, &atomic.Int64{}
	return watchedDB(t, raw, countingConnector{n: n, begins: begins}), n, begins
}

// watchedDB is raw with every statement passed to watch's counters and
// seen.
func watchedDB(t *testing.T, raw *db.DB, watch countingConnector) *db.DB {
	t.Helper()
	watch.drv, watch.dsn = raw.SQL.Driver(), raw.DSN
	if watch.n == nil {
		watch.n, watch.begins = &atomic.Int64{}, &atomic.Int64{}
	}
	sqlDB := sql.OpenDB(watch)
	t.Cleanup(func() { sqlDB.Close() })
	return &db.DB{Client: ent.NewClient(ent.Driver(entsql.OpenDB(raw.Dialect, sqlDB))), SQL: sqlDB,
		Dialect: raw.Dialect, DSN: raw.DSN}
}

// countingConnector opens the driver's connections with their statements
// counted.
type countingConnector struct {
	drv       driver.Driver
	dsn       string
	n, begins *atomic.Int64
	seen      func(string)
}

func (c countingConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return countingConn{Conn: conn, n: c.n, begins: c.begins, seen: c.seen}, nil
}

func (c countingConnector) Driver() driver.Driver { return c.drv }

// countingConn counts queries, executions, preparations and transactions;
// both drivers implement the context interfaces it relies on.
type countingConn struct {
	driver.Conn
	n, begins *atomic.Int64
	// seen, when set, is told each statement's text.
	seen func(string)
}

func (c countingConn) saw(q string) {
	if c.seen != nil {
		c.seen(q)
	}
}

func (c countingConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	c.n.Add(1)
	c.saw(q)
	return c.Conn.(driver.QueryerContext).QueryContext(ctx, q, args)
}

func (c countingConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	c.n.Add(1)
	c.saw(q)
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, q, args)
}

func (c countingConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	c.n.Add(1)
	c.saw(q)
	return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, q)
}

func (c countingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	c.n.Add(1)
	c.begins.Add(1)
	return c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}
