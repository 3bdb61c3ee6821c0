package db

import (
	"context"
	"database/sql/driver"
	"time"
)

// Write gate (SQLite). A SQLite database has one write lock, and every
// transaction here takes it at BEGIN (_txlock=immediate). A transaction
// that finds it taken is left to SQLite's busy handler, which sleeps 1, 2,
// 5, 10 ... up to 100 ms between tries and is not woken when the lock is
// freed: in a burst of short writes most wait little and the unlucky ones a
// hundred ms or more, the tail of the WhatsApp burst. The gate queues this
// process's transactions in Go instead, so that each starts the moment the
// one before it ends. Another process (a second instance on the same file)
// still meets SQLite's handler; a transaction waiting longer than
// gateWaitLimit for the gate goes to SQLite as it would without one, so
// that the gate never waits forever where the busy timeout would give up.
type writeGate chan struct{}

// gateWaitLimit is SQLite's busy_timeout (see sqliteDSN).
const gateWaitLimit = 15 * time.Second

func newWriteGate() writeGate { return make(writeGate, 1) }

// enter waits for the gate; it answers whether it holds it (false: waited
// gateWaitLimit, or the context ended, and goes on without it).
func (g writeGate) enter(ctx context.Context) bool {
	select {
	case g <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(gateWaitLimit)
	defer t.Stop()
	select {
	case g <- struct{}{}:
		return true
	case <-ctx.Done():
	case <-t.C:
	}
	return false
}

func (g writeGate) leave() { <-g }

// gatedTx leaves the gate when its transaction ends, either way.
type gatedTx struct {
	driver.Tx
	gate writeGate
}

func (t gatedTx) Commit() error {
	defer t.gate.leave()
	return t.Tx.Commit()
}

func (t gatedTx) Rollback() error {
	defer t.gate.leave()
	return t.Tx.Rollback()
}

// beginGated begins a transaction of conn behind gate (nil: no gate).
func beginGated(ctx context.Context, gate writeGate, conn driverConn, opts driver.TxOptions) (driver.Tx, error) {
	if gate == nil || !gate.enter(ctx) {
		return conn.BeginTx(ctx, opts)
	}
	tx, err := conn.BeginTx(ctx, opts)
	if err != nil {
		gate.leave()
		return nil, err
	}
	return gatedTx{Tx: tx, gate: gate}, nil
}
