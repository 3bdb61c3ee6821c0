package jobs

import (
	"context"
	"log/slog"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
)

// Group commit. Each delivery ends with a small write (its outcome, its
// attempt log entry, the events it emits). In a burst thousands end at
// once, and a transaction each is a commit each: SQLite's one writer
// takes them in turn, PostgreSQL flushes its log for each. A committer
// goroutine takes every record waiting when it comes round and commits them
// together; one that fails rolls the group back, and then each is committed
// alone, so a bad record costs the others only a retry. Nothing waits for a
// group to fill: a lone record commits at once.

// maxGroup bounds the records one transaction takes.
const maxGroup = 64

// postgresCommitters commit groups side by side on PostgreSQL, where a
// group is a round trip a statement and one committer spent most of a
// burst waiting on them (the server process used 40 % of a core while
// deliveries fell behind). Four made groups of about ten records in a
// 10,000-schedule burst; two make groups twice as large, half the
// transactions and a quarter fewer statements, and the deliveries still
// keep up with the firing (docs/performance.md, twenty-seventh session).
// SQLite has one writer: one committer.
const postgresCommitters = 2

type commitRequest struct {
	ctx  context.Context
	f    func(context.Context, *ent.Client) error
	done chan error
}

// record commits f's writes, in one transaction with whatever other
// records are waiting; what f adds to the group's writes (groupWritesOf)
// is written with theirs.
func (r *Runner) record(ctx context.Context, f func(context.Context, *ent.Client) error) error {
	req := commitRequest{ctx: ctx, f: f, done: make(chan error, 1)}
	select {
	case r.commits <- req:
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-req.done
}

// commitLoop runs a committer until stop is closed (after the last job
// has ended).
func (r *Runner) commitLoop(stop <-chan struct{}) {
	for {
		var group []commitRequest
		select {
		case req := <-r.commits:
			group = append(group, req)
		case <-stop:
			return
		}
	more:
		for len(group) < maxGroup {
			select {
			case req := <-r.commits:
				group = append(group, req)
			default:
				break more
			}
		}
		r.commitGroup(group)
	}
}

// commitGroup commits group in one transaction, or each alone should that
// fail.
func (r *Runner) commitGroup(group []commitRequest) {
	if len(group) > 1 {
		err := r.write(func() error {
			return r.svc.InTx(core.AsBackgroundWork(context.Background()), r.runRecords(group))
		})
		if err == nil {
			for _, req := range group {
				req.done <- nil
			}
			return
		}
		slog.Warn("a group of job records failed; committing each alone", "records", len(group), "err", err)
	}
	for _, req := range group {
		req.done <- r.write(func() error { return r.svc.InTx(core.AsBackgroundWork(req.ctx), r.runRecords([]commitRequest{req})) })
	}
}

// runRecords runs the records of group in one transaction, then writes
// what they gathered in the group's writes.
func (r *Runner) runRecords(group []commitRequest) func(context.Context, *ent.Client) error {
	return func(ctx context.Context, c *ent.Client) error {
		w := &groupWrites{}
		ctx = withGroupWrites(ctx, w)
		for _, req := range group {
			if err := req.f(ctx, c); err != nil {
				return err
			}
		}
		return w.write(ctx, c, r.svc, r.now())
	}
}
