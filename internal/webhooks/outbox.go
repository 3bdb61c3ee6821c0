package webhooks

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
)

// OutboxListener is the notifier's listener that writes a change with a
// webhook body to the outbox of the account's subscriptions; the changes
// of a batch (NotifyAll) with one INSERT an account.
func (s *Service) OutboxListener() core.Listener { return outboxListener{s} }

type outboxListener struct{ s *Service }

func (l outboxListener) Changed(ctx context.Context, c *ent.Client, ch core.Change) error {
	return l.s.emit(ctx, c, []core.Change{ch})
}

func (l outboxListener) ChangedAll(ctx context.Context, c *ent.Client, chs []core.Change) error {
	return l.s.emit(ctx, c, chs)
}
