package core

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/events"
)

// Change is one committed change as every listener of the notifier sees it:
// its kind, account and the rows it names (what live listeners get), and how
// to build its webhook body.
type Change struct {
	events.Event
	// Payload builds the webhook body, only when a listener wants it. nil:
	// the change has no webhook body (an occurrence deleted with its series),
	// only live listeners hear of it.
	Payload func() (map[string]any, error)
	// Trigger is what a domain's listener may act on beyond the event: for a
	// card change that can start the kanban automations, what they match.
	Trigger any
}

// Listener hears of a change inside the transaction that makes it (c is
// that transaction's client), so what it writes exists exactly when the
// change commits: the webhook outbox, the kanban webhook, the kanban
// automations' durable run.
type Listener interface {
	Changed(ctx context.Context, c *ent.Client, ch Change) error
}

// ListenerFunc is a function as a Listener.
type ListenerFunc func(ctx context.Context, c *ent.Client, ch Change) error

// Changed calls f.
func (f ListenerFunc) Changed(ctx context.Context, c *ent.Client, ch Change) error {
	return f(ctx, c, ch)
}

// Listen adds listeners, heard in the order they are added. It is called
// while the service is wired, before any operation runs.
func (c *Core) Listen(ls ...Listener) { c.listeners = append(c.listeners, ls...) }

// BatchListener is a Listener that hears many changes of one transaction at
// once: the webhook outbox writes their rows with one INSERT.
type BatchListener interface {
	Listener
	ChangedAll(ctx context.Context, c *ent.Client, chs []Change) error
}

// Notify is the one way a change reaches its listeners: the transactional
// listeners inside the transaction of the change (c must be its client), then,
// after it commits, the live listeners (GraphQL subscriptions, the console),
// which never hear of a change that rolls back.
func (s *Core) Notify(ctx context.Context, c *ent.Client, ch Change) error {
	return s.NotifyAll(ctx, c, []Change{ch})
}

// NotifyAll is Notify for changes made together (a batch's messages): each
// listener hears all of them in order, a BatchListener at once.
func (s *Core) NotifyAll(ctx context.Context, c *ent.Client, chs []Change) error {
	for i := range chs {
		if chs[i].Payload != nil {
			chs[i].Payload = memo(chs[i].Payload)
		}
	}
	for _, l := range s.listeners {
		if err := hear(ctx, c, l, chs); err != nil {
			return err
		}
	}
	for _, ch := range chs {
		s.PublishAfterCommit(ctx, ch.Event)
	}
	return nil
}

// hear tells listener l of chs.
func hear(ctx context.Context, c *ent.Client, l Listener, chs []Change) error {
	if bl, ok := l.(BatchListener); ok {
		return bl.ChangedAll(ctx, c, chs)
	}
	for _, ch := range chs {
		if err := l.Changed(ctx, c, ch); err != nil {
			return err
		}
	}
	return nil
}

// PublishAfterCommit publishes e to the live listeners once the transaction
// in ctx commits (at once when there is none), in the order the changes were
// made: one commit hook per transaction publishes its queue (hooks nest, so
// one hook per event would publish them last first).
func (s *Core) PublishAfterCommit(ctx context.Context, e events.Event) {
	if s.Hub == nil {
		return
	}
	tx := ent.TxFromContext(ctx)
	if tx == nil {
		s.Hub.Publish(e)
		return
	}
	if q, ok := s.pending.Load(tx); ok {
		*q.(*[]events.Event) = append(*q.(*[]events.Event), e)
		return
	}
	queue := &[]events.Event{e}
	s.pending.Store(tx, queue)
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			s.pending.Delete(tx)
			if err == nil {
				for _, e := range *queue {
					s.Hub.Publish(e)
				}
			}
			return err
		})
	})
	tx.OnRollback(func(next ent.Rollbacker) ent.Rollbacker {
		return ent.RollbackFunc(func(ctx context.Context, tx *ent.Tx) error {
			s.pending.Delete(tx)
			return next.Rollback(ctx, tx)
		})
	})
}

// memo builds a payload once, for every listener that wants it.
func memo(f func() (map[string]any, error)) func() (map[string]any, error) {
	var p map[string]any
	var err error
	built := false
	return func() (map[string]any, error) {
		if !built {
			p, err = f()
			built = true
		}
		return p, err
	}
}
