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
	"log/slog"
	"maps"
	"slices"
	"strings"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"

	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/core"
)

// handoffLimit bounds the claims of a kind a runner holds before the rows
// a hand-off writes are written due instead: every claim held is renewed
// while it waits. A row written due is outside every chain, and each later
// hand-off of its conversation goes to the ordered claim behind it: at
// 1,024, a 10,000-schedule burst whose deliveries fell a few batches behind
// the firing sent a third to half of its messages through claims
// (docs/performance.md, twenty-eighth session).
const handoffLimit = 4096

// newHandoff returns a hand-off for one firing batch, with room for what
// the message and webhook kinds may still hold.
func (r *Runner) newHandoff() *core.Handoff {
	room := map[string]int{}
	for _, table := range []string{message.Table, webhookdelivery.Table} {
		if k, ok := r.kindOf(table); ok {
			room[table] = max(handoffLimit-r.inflight.count(k), 0)
		}
	}
	h := core.NewHandoff(r.leaseFrom(r.now()), room, &r.handoffs)
	r.chains.begin(h)
	return h
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
		r.chains.endTurn(h, 0)
		return
	}
	r.chains.awaitTurn(first)
	defer r.chains.endTurn(h, last)
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
		r.chainMessages(ctx, k, byConv, r.chains.untaken(h))
	}
}

// chainMessages puts handed messages (byConv: by conversation) at the end
// of their conversations' chains, or releases them when an earlier message
// of their conversation is pending outside the chain, other than those of
// untaken, which join the chains after them.
func (r *Runner) chainMessages(ctx context.Context, k kind, byConv map[int][]job, untaken map[int]bool) {
	convs := slices.Sorted(maps.Keys(byConv))
	var js []job
	for _, conv := range convs {
		slices.SortFunc(byConv[conv], func(a, b job) int { return a.id - b.id })
		js = append(js, byConv[conv]...)
	}
	last, releases := r.chains.last(convs)
	pending, err := r.pendingBefore(ctx, byConv, last, untaken)
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

// pendingBefore reads, for each conversation of byConv, a pending message
// after its chain's last (last) and before the last of its handed ones,
// other than those and those of untaken: the first on PostgreSQL, all of
// them on SQLite. The handed ones wait behind any such message, which is
// outside the chain.
func (r *Runner) pendingBefore(ctx context.Context, byConv map[int][]job, last map[int]int, untaken map[int]bool) (map[int][]int, error) {
	skip := map[int]bool{}
	maps.Copy(skip, untaken)
	for _, js := range byConv {
		for _, j := range js {
			skip[j.id] = true
		}
	}
	q, args := pendingBeforeSQLite(byConv, last)
	if r.db.Dialect == dialect.Postgres {
		q, args = pendingBeforePostgres(byConv, last, skip)
	}
	rows, err := r.db.SQL.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int][]int{}
	for rows.Next() {
		var conv, id int
		if err := rows.Scan(&conv, &id); err != nil {
			return nil, err
		}
		if !skip[id] {
			out[conv] = append(out[conv], id)
		}
	}
	return out, rows.Err()
}

// pendingBeforePostgres asks for each conversation's first such message
// with one text whatever the batch, its ranges and the ids to skip passed
// as arrays: the statement cache keeps it prepared, where a text of its own
// for each batch was planned each time (about 40 % of a burst's planning
// time, docs/performance.md), and each conversation's index range is read
// up to its first row only.
func pendingBeforePostgres(byConv map[int][]job, last map[int]int, skip map[int]bool) (string, []any) {
	var convs, after, before, ids []int64
	for conv, js := range byConv {
		convs = append(convs, int64(conv))
		after = append(after, int64(last[conv]))
		before = append(before, int64(js[len(js)-1].id))
	}
	for id := range skip {
		ids = append(ids, int64(id))
	}
	q := `SELECT r.conv, p.id FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS r(conv, after, before)
		CROSS JOIN LATERAL (SELECT m.id FROM messages m WHERE m.conversation_id = r.conv AND m.id > r.after
			AND m.id < r.before AND m.next_delivery_at IS NOT NULL AND m.id <> ALL($4::bigint[]) ORDER BY m.id LIMIT 1) p`
	return q, []any{pq.Array(convs), pq.Array(after), pq.Array(before), pq.Array(ids)}
}

// pendingBeforeSQLite asks for all such messages of each conversation,
// those to skip among them.
func pendingBeforeSQLite(byConv map[int][]job, last map[int]int) (string, []any) {
	var conds []string
	var args []any
	for conv, js := range byConv {
		args = append(args, conv, last[conv], js[len(js)-1].id)
		conds = append(conds, "(conversation_id = ? AND id > ? AND id < ?)")
	}
	return "SELECT conversation_id, id FROM messages WHERE next_delivery_at IS NOT NULL AND (" + strings.Join(conds, " OR ") + ")", args
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
