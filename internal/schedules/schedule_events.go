package schedules

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/wire"
)

// scheduleDeleted is the deletion of schedule id of series sm: it names
// the inbox and conversation, which listeners can no longer read.
func scheduleDeleted(sm *ent.ScheduledMessage, id int, payload func() (map[string]any, error)) core.Change {
	ev := events.Event{AccountID: sm.AccountID, Kind: events.ScheduledMessageDeleted, ScheduleID: id,
		InboxID: sm.InboxID, ConversationID: conversationIDOf(sm)}
	return core.Change{Event: ev, Payload: payload}
}

// emitScheduleEvent tells the listeners of a core.Change of schedule id,
// sm or an occurrence of series sm.
func (s *Service) emitScheduleEvent(ctx context.Context, c *ent.Client, kind events.Kind, sm *ent.ScheduledMessage, id int) error {
	return s.Notify(ctx, c, s.scheduleChange(ctx, c, kind, sm, id))
}

// scheduleChange is the change kind of schedule id, sm or an occurrence of
// series sm. It names the inbox, which live pages tell only its agents of.
func (s *Service) scheduleChange(ctx context.Context, c *ent.Client, kind events.Kind, sm *ent.ScheduledMessage, id int) core.Change {
	ev := events.Event{AccountID: sm.AccountID, Kind: kind, ScheduleID: id, InboxID: sm.InboxID}
	return core.Change{Event: ev, Payload: s.schedulePayload(ctx, c, sm.AccountID, id)}
}

// schedulePayload builds a schedule event's webhook body.
func (s *Service) schedulePayload(ctx context.Context, c *ent.Client, accountID, id int) func() (map[string]any, error) {
	return func() (map[string]any, error) {
		sm, err := c.ScheduledMessage.Query().Where(scheduledmessage.ID(id)).WithConversation().Only(core.AsOutbox(ctx, accountID))
		if err != nil {
			return nil, err
		}
		return wire.Schedule(sm, NextOccurrence(sm)), nil
	}
}
