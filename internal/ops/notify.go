package ops

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/events"
)

// change is one change as every listener of the notifier sees it: its kind,
// account and the rows it names (what live listeners get), and how to build
// its webhook body.
type change struct {
	events.Event
	// payload builds the webhook body, only when a subscription wants the
	// kind. nil: the change has no webhook body (an occurrence deleted with
	// its series), only live listeners hear of it.
	payload func() (map[string]any, error)
	// trigger is what the kanban automations match, for a card change that
	// can start them.
	trigger *cardEvent
}

// notify is the one way a change reaches its listeners. Inside the
// transaction of the change (c must be its client): the webhook outbox, for
// cards the kanban webhook, and the kanban automations' run (a durable job),
// so each exists exactly when the change commits. After it commits: the live
// listeners (GraphQL subscriptions, the console), which never hear of a
// change that rolls back.
func (s *Service) notify(ctx context.Context, c *ent.Client, ch change) error {
	if ch.payload != nil {
		ch.payload = memo(ch.payload)
		if err := s.emit(ctx, c, ch.AccountID, ch.Kind, ch.payload); err != nil {
			return err
		}
		if ch.Kind.IsCard() {
			if err := s.emitToKanbanWebhook(ctx, c, ch.AccountID, ch.Kind, ch.payload); err != nil {
				return err
			}
		}
	}
	if ch.trigger != nil {
		if err := s.enqueueAutomations(ctx, c, *ch.trigger); err != nil {
			return err
		}
	}
	s.publishAfterCommit(ctx, ch.Event)
	return nil
}

// memo builds a payload once, for the outbox and the kanban webhook alike.
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
