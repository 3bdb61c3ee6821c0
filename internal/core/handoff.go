package core

import (
	"context"
	"sync"
	"sync/atomic"
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
// A row is written claimed only while the runner has room for it (Claim):
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
	// commits numbers the commits of every Handoff of a runner; first and
	// last are this one's.
	commits     *atomic.Uint64
	first, last uint64
}

// HandedRow is a row written claimed: its table, id, the key its job holds
// (an inbox, a webhook subscription) and, for messages, its conversation.
type HandedRow struct {
	Table             string
	ID, Key, Sequence int
}

// NewHandoff returns a Handoff whose claims end at lease, with room for
// room[table] rows of each table; commits numbers the commits of the
// runner's Handoffs (Handed).
func NewHandoff(lease time.Time, room map[string]int, commits *atomic.Uint64) *Handoff {
	return &Handoff{Lease: lease, room: room, commits: commits}
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
		h.settleLocked(true)
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
	h.settleLocked(committed)
}

func (h *Handoff) settleLocked(committed bool) {
	if committed && len(h.written) > 0 {
		h.handed = append(h.handed, h.written...)
		h.last = h.commits.Add(1)
		if h.first == 0 {
			h.first = h.last
		}
	}
	h.written, h.hooked = nil, nil
}

// Handed returns the rows of the committed transactions, and the numbers
// of the first and last of those commits among the runner's (0: none
// committed): the runner takes hand-offs over in that order.
func (h *Handoff) Handed() (rows []HandedRow, first, last uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.handed, h.first, h.last
}

// IDs returns the ids of the rows of table h holds: written in its
// transaction under way, or handed over by its committed ones.
func (h *Handoff) IDs(table string) []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []int
	for _, rows := range [][]HandedRow{h.written, h.handed} {
		for _, row := range rows {
			if row.Table == table {
				out = append(out, row.ID)
			}
		}
	}
	return out
}
