package schedules

import (
	"context"
	"fmt"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// Settling. A fired schedule whose message is delivered by a channel stays
// pending until the delivery ends: then it is sent, or failed with the
// channel's reason.

// settleSchedule ends the schedule row fired as message of the channel's
// outcome: sent when the channel accepted its message, failed otherwise.
func (s *Service) settleSchedule(ctx context.Context, c *ent.Client, sm *ent.ScheduledMessage, id int, delivered bool, reason string) error {
	u := c.ScheduledMessage.Update().Where(scheduledmessage.ID(id), scheduledmessage.StatusEQ(scheduledmessage.StatusPending))
	event := events.ScheduledMessageSent
	if delivered {
		u.SetStatus(scheduledmessage.StatusSent).SetSentAt(s.Now())
	} else {
		u.SetStatus(scheduledmessage.StatusFailed).SetFailureReason(reason)
		event = events.ScheduledMessageFailed
	}
	n, err := u.Save(ctx)
	if err != nil || n == 0 {
		return err
	}
	return s.emitScheduleEvent(ctx, c, event, sm, id)
}

// SettleSchedulesOf settles the schedule rows that posted messages ms, once
// their deliveries have ended: one read for all of them, and the sent ones
// (the common end) with one UPDATE.
func (s *Service) SettleSchedulesOf(ctx context.Context, c *ent.Client, ms []*ent.Message) error {
	byID := core.ByID(ms, func(m *ent.Message) int { return m.ID })
	ids := make([]int, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	// Locked on PostgreSQL (SQLite's one writer is this transaction), so
	// the rows read pending are the ones the UPDATE below settles. Read by
	// message id alone and told pending here: given the status as well,
	// PostgreSQL could prefer an index holding it while its statistics
	// still saw few pending schedules (a burst of them since the last
	// ANALYZE), and read every pending row for each message.
	rows, err := c.ScheduledMessage.Query().Where(scheduledmessage.MessageIDIn(ids...)).
		Select(scheduledmessage.FieldID, scheduledmessage.FieldAccountID, scheduledmessage.FieldInboxID, scheduledmessage.FieldMessageID, scheduledmessage.FieldStatus).
		Order(ent.Asc(scheduledmessage.FieldID)).Modify(core.ForUpdateOnPostgres).All(ctx)
	if err != nil {
		return err
	}
	var sent []*ent.ScheduledMessage
	for _, row := range rows {
		if row.Status != scheduledmessage.StatusPending {
			continue
		}
		m := byID[*row.MessageID]
		if m.Status == message.StatusDelivered {
			sent = append(sent, row)
			continue
		}
		reason, _ := m.ContentAttributes["external_error"].(string)
		if err := s.settleSchedule(ctx, c, row, row.ID, false, reason); err != nil {
			return err
		}
	}
	return s.settleSent(ctx, c, sent)
}

// settleSent marks the pending schedule rows rows sent, in one UPDATE, and
// tells the listeners of each.
func (s *Service) settleSent(ctx context.Context, c *ent.Client, rows []*ent.ScheduledMessage) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]int, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	n, err := c.ScheduledMessage.Update().Where(scheduledmessage.IDIn(ids...), scheduledmessage.StatusEQ(scheduledmessage.StatusPending)).
		SetStatus(scheduledmessage.StatusSent).SetSentAt(s.Now()).Save(ctx)
	if err != nil {
		return err
	}
	if n != len(ids) {
		return fmt.Errorf("settling %d schedules: %d were no longer pending", len(ids), len(ids)-n)
	}
	for _, row := range rows {
		if err := s.emitScheduleEvent(ctx, c, events.ScheduledMessageSent, row, row.ID); err != nil {
			return err
		}
	}
	return nil
}
