package ops

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/wire"
)

// The webhook bodies of the notifier's changes, in the shapes of package
// wire (the same objects the REST API answers with).

// emitContactEvent tells the listeners of a change of contact ct.
func (s *Service) emitContactEvent(ctx context.Context, c *ent.Client, kind events.Kind, ct *ent.Contact) error {
	ev := events.Event{AccountID: ct.AccountID, Kind: kind, ContactID: ct.ID}
	return s.notify(ctx, c, change{Event: ev, payload: func() (map[string]any, error) {
		acc, err := c.Account.Get(asOutbox(ctx, ct.AccountID), ct.AccountID)
		if err != nil {
			return nil, err
		}
		p := wire.ContactBase(ct)
		p["account"] = map[string]any{"id": acc.ID, "name": acc.Name}
		return p, nil
	}})
}

// emitConversationEvent tells the listeners of a change of conversation cv.
func (s *Service) emitConversationEvent(ctx context.Context, c *ent.Client, kind events.Kind, cv *ent.Conversation) error {
	ev := events.Event{AccountID: cv.AccountID, Kind: kind, ConversationID: cv.ID, InboxID: cv.InboxID, ContactID: cv.ContactID}
	return s.notify(ctx, c, change{Event: ev, payload: func() (map[string]any, error) {
		cv, err := c.Conversation.Query().Where(conversation.ID(cv.ID)).WithContact().WithInbox().Only(ctx)
		if err != nil {
			return nil, err
		}
		return wire.Conversation(cv), nil
	}})
}

// NextOccurrence is when a pending schedule fires next (nil when nothing is
// left to fire). While a runner holds the row its next_occurrence_at is the
// lease's end, so the time is computed from the rule instead.
func NextOccurrence(sm *ent.ScheduledMessage) *time.Time {
	if sm.Status != scheduledmessage.StatusPending || sm.NextOccurrenceAt == nil {
		return nil
	}
	t, ok := ruleOf(sm).Occurrence(sm.ScheduledAt, sm.OccurrencesCount)
	if !ok {
		return nil
	}
	return &t
}

// emitScheduleEvent tells the listeners of a change of schedule id.
func (s *Service) emitScheduleEvent(ctx context.Context, c *ent.Client, kind events.Kind, accountID, id int) error {
	ev := events.Event{AccountID: accountID, Kind: kind, ScheduleID: id}
	return s.notify(ctx, c, change{Event: ev, payload: s.schedulePayload(ctx, c, accountID, id)})
}

// schedulePayload builds a schedule event's webhook body.
func (s *Service) schedulePayload(ctx context.Context, c *ent.Client, accountID, id int) func() (map[string]any, error) {
	return func() (map[string]any, error) {
		sm, err := c.ScheduledMessage.Query().Where(scheduledmessage.ID(id)).WithConversation().Only(asOutbox(ctx, accountID))
		if err != nil {
			return nil, err
		}
		return wire.Schedule(sm, NextOccurrence(sm)), nil
	}
}
