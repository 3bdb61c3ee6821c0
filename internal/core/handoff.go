package core

import (
	"context"
	"sync"
	"time"

	"github.com/switchboard/switchboard/ent"
)

// A Handoff lets a transaction the job runner runs itself (a batch of
// schedule firings) write the jobs it makes (channel deliveries, webhook
// deliveries) already claimed by that runner, which starts them once the
// transaction commits. Written due, each would be claimed back by a
// statement that moves it a lease ahead (a second write of the row and of
// every index entry it has) and, for messages, looks for its conversation's
// first pending one: in a burst of 10,000 schedules those claims were a
// fifth of PostgreSQL's time (docs/performance.md).
//
// A row is written claimed only while the runner has room for it (Room):
// past that it is written due, as without a Handoff, and claimed when a
// worker is free. Only rows of a transaction that commits are handed over.
type Handoff struct {
	// Lease is the end of the claims' lease: the runner renews and releases
	// its claims by it.
	Lease time.Time
	mu    sync.Mutex
	room  map[string]int
	// written are the rows of the transaction under way; handed those of
	// the committed ones.
	written, handed []HandedRow
	hooked          *ent.Tx
}

// HandedRow is a row written claimed: its table, id, the key its job holds
// (an inbox, a webhook subscription) and, for messages, its conversation.
type HandedRow struct {
	Table             string
	ID, Key, Sequence int
}

// NewHandoff returns a Handoff whose claims end at lease, with room for
// room[table] rows of each table.
func NewHandoff(lease time.Time, room map[string]int) *Handoff {
	return &Handoff{Lease: lease, room: room}
}

type handoffKey struct{}

// WithHandoff makes the jobs written in ctx's transactions claimed by h.
func WithHandoff(ctx context.Context, h *Handoff) context.Context {
	return context.WithValue(ctx, handoffKey{}, h)
}

// HandoffOf is the Handoff of ctx, or nil.
func HandoffOf(ctx context.Context) *Handoff {
	h, _ := ctx.Value(handoffKey{}).(*Handoff)
	return h
}

// Claim reports whether one more row of table is written claimed, and if
// so counts it against the room.
func (h *Handoff) Claim(table string) bool {
	if h == nil {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.room[table] <= 0 {
		return false
	}
	h.room[table]--
	return true
}

// Written records row, written claimed in the transaction of ctx: it is
// handed over if that transaction commits.
func (h *Handoff) Written(ctx context.Context, row HandedRow) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.written = append(h.written, row)
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		h.handed, h.written = append(h.handed, h.written...), nil
		return
	}
	if h.hooked == tx {
		return
	}
	h.hooked = tx
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			h.settle(err == nil)
			return err
		})
	})
	tx.OnRollback(func(next ent.Rollbacker) ent.Rollbacker {
		return ent.RollbackFunc(func(ctx context.Context, tx *ent.Tx) error {
			h.settle(false)
			return next.Rollback(ctx, tx)
		})
	})
}

// settle ends the transaction under way: its rows are handed over if it
// committed, forgotten if not.
func (h *Handoff) settle(committed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if committed {
		h.handed = append(h.handed, h.written...)
	}
	h.written, h.hooked = nil, nil
}

// Handed returns the rows of the committed transactions and forgets them.
func (h *Handoff) Handed() []HandedRow {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.handed
	h.handed = nil
	return out
}
