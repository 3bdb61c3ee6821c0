package jobs

// Hand-offs: a batch of schedule firings writes its messages' channel
// deliveries and its webhook deliveries claimed by this runner
// (core.Handoff), and the runner starts them once the batch commits,
// without a claim statement. The claims are held as any claim is: renewed
// while they wait or run, released at shutdown, and after kill -9 their
// lease runs out and any instance takes the rows.
//
// Messages keep their conversation's order. A handed message runs only
// behind the conversation's messages this runner holds (chains.go): if
// the conversation has another pending message (another instance's claim,
// one waiting for a retry, one a request posted), the handed ones are
// released, due again, and wait for the ordered claim.

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/core"
)

// handoffLimit bounds the claims of a kind a runner holds before the rows
// a hand-off writes are written due instead: every claim held is renewed
// while it waits.
const handoffLimit = 1024

// newHandoff returns a hand-off for one firing batch, with room for what
// the message and webhook kinds may still hold.
func (r *Runner) newHandoff() *core.Handoff {
	room := map[string]int{}
	for _, table := range []string{message.Table, webhookdelivery.Table} {
		if k, ok := r.kindOf(table); ok {
			room[table] = max(handoffLimit-r.inflight.count(k), 0)
		}
	}
	return core.NewHandoff(r.leaseFrom(r.now()), room, &r.handoffs)
}

// kindOf is the kind of table.
func (r *Runner) kindOf(table string) (kind, bool) {
	for _, k := range r.kinds {
		if k.table == table {
			return k, true
		}
	}
	return kind{}, false
}

// takeOver starts the rows h handed over: webhook deliveries at once (or
// behind their subscription's), messages behind their conversation's, once
// the hand-offs committed before h's are taken over.
func (r *Runner) takeOver(ctx context.Context, h *core.Handoff) {
	rows, first, last := h.Handed()
	if first == 0 {
		return
	}
	r.chains.awaitTurn(first)
	defer r.chains.endTurn(last)
	var hooks, messages []job
	byConv := map[int][]job{}
	for _, row := range rows {
		j := job{id: row.ID, key: row.Key, lease: h.Lease}
		if row.Table == message.Table {
			messages = append(messages, j)
			byConv[row.Sequence] = append(byConv[row.Sequence], j)
		} else {
			hooks = append(hooks, j)
		}
	}
	if len(hooks) > 0 {
		k, _ := r.kindOf(webhookdelivery.Table)
		r.startClaimed(ctx, k, hooks)
	}
	if len(messages) > 0 {
		k, _ := r.kindOf(message.Table)
		r.inflight.hold(k, messages)
		r.chainMessages(ctx, k, byConv)
	}
}

// chainMessages puts handed messages (byConv: by conversation) at the end
// of their conversations' chains, or releases them when an earlier message
// of their conversation is pending outside the chain.
func (r *Runner) chainMessages(ctx context.Context, k kind, byConv map[int][]job) {
	convs := slices.Sorted(maps.Keys(byConv))
	var js []job
	for _, conv := range convs {
		slices.SortFunc(byConv[conv], func(a, b job) int { return a.id - b.id })
		js = append(js, byConv[conv]...)
	}
	last, releases := r.chains.last(convs)
	pending, err := r.pendingBefore(ctx, byConv, last)
	if err != nil {
		slog.Error("reading conversations' pending messages", "err", err)
		r.release(ctx, k, js)
		return
	}
	var start, refused []job
	for _, conv := range convs {
		mine := byConv[conv]
		first, ok := r.chains.add(conv, mine, pending[conv], releases)
		switch {
		case !ok:
			refused = append(refused, mine...)
		case first != nil:
			start = append(start, *first)
		}
	}
	r.startClaimed(ctx, k, start)
	r.release(ctx, k, refused)
}

// pendingBefore reads, for each conversation of byConv, its pending
// messages after its chain's last (last) and before the last of its
// handed ones, leaving those out.
func (r *Runner) pendingBefore(ctx context.Context, byConv map[int][]job, last map[int]int) (map[int][]int, error) {
	ph := placeholders(r.db.Dialect)
	var conds []string
	var args []any
	handed := map[int]bool{}
	for conv, js := range byConv {
		for _, j := range js {
			handed[j.id] = true
		}
		args = append(args, conv, last[conv], js[len(js)-1].id)
		n := len(args)
		conds = append(conds, fmt.Sprintf("(conversation_id = %s AND id > %s AND id < %s)", ph(n-2), ph(n-1), ph(n)))
	}
	q := "SELECT id, conversation_id FROM messages WHERE next_delivery_at IS NOT NULL AND (" + strings.Join(conds, " OR ") + ")"
	rows, err := r.db.SQL.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int][]int{}
	for rows.Next() {
		var id, conv int
		if err := rows.Scan(&id, &conv); err != nil {
			return nil, err
		}
		if !handed[id] {
			out[conv] = append(out[conv], id)
		}
	}
	return out, rows.Err()
}

// afterDelivery moves message id's chain on: its next message starts when
// id is no longer pending; the rest are released when it is. At shutdown
// the next stays held, for drain to release.
func (r *Runner) afterDelivery(ctx context.Context, id int, pending bool) {
	next, rest := r.chains.settled(id, pending)
	k, _ := r.kindOf(message.Table)
	if next != nil && ctx.Err() == nil {
		r.startClaimed(ctx, k, []job{*next})
	}
	r.release(ctx, k, rest)
}

// release lets claims js of k go, due now, so that any claim takes them.
// At shutdown they stay held, and drain releases them with the rest.
func (r *Runner) release(ctx context.Context, k kind, js []job) {
	if len(js) == 0 || ctx.Err() != nil {
		return
	}
	// Should the release fail, they are held no longer all the same: their
	// lease runs out and a claim takes them then.
	r.moveLeases(ctx, k, r.inflight.leasesOf(k, js), r.now(), false)
	r.inflight.drop(k, js, true)
	r.Wake()
}
