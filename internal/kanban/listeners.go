package kanban

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
)

// WebhookListener is the notifier's listener that sends card changes to the
// account's kanban webhook.
func (s *Service) WebhookListener() core.Listener {
	return core.ListenerFunc(func(ctx context.Context, c *ent.Client, ch core.Change) error {
		if ch.Payload == nil || !ch.Kind.IsCard() {
			return nil
		}
		return s.emitToKanbanWebhook(ctx, c, ch.AccountID, ch.Kind, ch.Payload)
	})
}

// AutomationListener is the notifier's listener that writes the durable run of the
// automations a card change fires.
func (s *Service) AutomationListener() core.Listener {
	return core.ListenerFunc(func(ctx context.Context, c *ent.Client, ch core.Change) error {
		ev, ok := ch.Trigger.(*cardEvent)
		if !ok {
			return nil
		}
		return s.enqueueAutomations(ctx, c, *ev)
	})
}
