package jobs

// The firing turn. On PostgreSQL one instance at a time fires schedules:
// the one whose session holds an advisory lock. When every instance fired
// a burst, each found the other's messages pending in the same
// conversations, and keeping a conversation's order sent nearly all of
// them through the claims: two instances took about 1.8 times as long as
// one for 10,000 schedules due at once (docs/performance.md, thirty-first
// session). Deliveries are still shared: any instance claims what is due.
//
// The turn is a preference, not a guard: a firing is recorded at most once
// by its own transaction, so two instances that both fire (one that lost
// its connection without knowing it) only cost speed. PostgreSQL drops the
// lock with its session, so after kill -9 another instance takes the turn
// at its next try (firingRetry); at shutdown the runner gives it up before
// its grace time. Schedules later than the backstop are fired by any
// instance, so a holder that hangs cannot hold them back for long.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync"
	"sync/atomic"
	"time"
)

// firingTurnKey is the advisory lock of the turn: any constant other than
// the migrations' lock (internal/db's lockMigrations).
const firingTurnKey int64 = 0x5357_4652_5452_4e00

// firingRetry is how often an instance without the turn tries for it, and
// the holder checks its session, while schedules are due.
const firingRetry = time.Second

// DefaultFiringBackstop is how late a due schedule gets before instances
// without the firing turn fire it too.
const DefaultFiringBackstop = 30 * time.Second

// firingTurn is this instance's hold on the turn.
type firingTurn struct {
	db *sql.DB // nil: no turn to take (SQLite: every instance fires)
	mu sync.Mutex
	// conn is the session holding the lock, while the turn is ours.
	conn *sql.Conn
	// tried is when the turn was last tried for, or its session checked.
	tried time.Time
	// holding mirrors conn != nil for held, which must not wait behind a
	// try (a try may wait for a pooled connection).
	holding atomic.Bool
}

// holds reports whether this instance has the turn. At most once per
// firingRetry it tries to take it, or checks that the session holding it
// is still there: one statement.
func (f *firingTurn) holds(ctx context.Context, now time.Time) bool {
	if f.db == nil {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if now.Sub(f.tried) < firingRetry {
		return f.conn != nil
	}
	f.tried = now
	if f.conn == nil {
		f.take(ctx)
	} else if _, err := f.conn.ExecContext(ctx, "SELECT 1"); err != nil && ctx.Err() == nil {
		f.drop()
	}
	return f.conn != nil
}

// take tries for the lock on a connection of its own, kept while held.
func (f *firingTurn) take(ctx context.Context) {
	conn, err := f.db.Conn(ctx)
	if err != nil {
		return
	}
	var got bool
	switch err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", firingTurnKey).Scan(&got); {
	case err != nil:
		discard(conn) // it may have taken the lock all the same
	case !got:
		conn.Close()
	default:
		f.conn = conn
		f.holding.Store(true)
	}
}

// release gives the turn up, so that another instance takes it at its
// next try.
func (f *firingTurn) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var unlocked bool
	if err := f.conn.QueryRowContext(ctx, "SELECT pg_advisory_unlock($1)", firingTurnKey).Scan(&unlocked); err != nil || !unlocked {
		f.drop()
		return
	}
	f.conn.Close()
	f.conn = nil
	f.holding.Store(false)
}

// drop ends the turn's session (see discard).
func (f *firingTurn) drop() {
	discard(f.conn)
	f.conn = nil
	f.holding.Store(false)
}

// discard closes conn instead of handing it back to the pool, where its
// session could still hold the lock.
func discard(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	conn.Close()
}

// held reports whether the turn is this instance's, as last seen.
func (f *firingTurn) held() bool {
	return f.db == nil || f.holding.Load()
}
