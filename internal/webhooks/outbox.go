package webhooks

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
)

// OutboxListener is the notifier's listener that writes a change with a webhook
// body to the outbox of the account's subscriptions.
func (s *Service) OutboxListener() core.Listener {
	return core.ListenerFunc(func(ctx context.Context, c *ent.Client, ch core.Change) error {
		if ch.Payload == nil {
			return nil
		}
		return s.emit(ctx, c, ch.AccountID, ch.Kind, ch.Payload)
	})
}
