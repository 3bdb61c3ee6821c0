package schedules

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/recurrence"
)

// fired is a firing of a batch whose message is posted: what recordFiring
// takes.
type fired struct {
	dueFiring
	conversationID int
	m              *ent.Message
}

// recordFirings records the firings fs as recordFiring records each, but
// the one-off schedules (most of a burst) set-based, by one UPDATE: the
// firing read their rows locked (FireDue), so they are as it read them; a
// series' occurrence still gets its own row.
func (s *Service) recordFirings(ctx context.Context, c *ent.Client, fs []fired) error {
	var oneOffs []fired
	for _, f := range fs {
		if ruleOf(f.sm).Type != recurrence.None || f.m.NextDeliveryAt == nil {
			// A series, or a message with nothing to deliver (sent at once).
			if err := s.recordFiring(ctx, c, f.sm, f.at, f.conversationID, f.m); err != nil {
				return err
			}
			continue
		}
		oneOffs = append(oneOffs, f)
	}
	if len(oneOffs) == 0 {
		return nil
	}
	if err := s.recordOneOffs(ctx, c, oneOffs); err != nil {
		return err
	}
	changes := make([]core.Change, len(oneOffs))
	for i, f := range oneOffs {
		changes[i] = s.scheduleChange(ctx, c, events.ScheduledMessageUpdated, f.sm, f.sm.ID)
	}
	return s.NotifyAll(ctx, c, changes)
}

// recordOneOffs sets the message and conversation of one-off schedules fs,
// whose rows the firing holds locked since it read them (on SQLite its
// transaction is the one writer). Should a row be gone all the same, the
// batch fails with errAlreadyFired and each is fired alone.
//
// The rows are written by id as the job queue read them (FireDue), without
// the account condition the tenancy rule adds: with it, PostgreSQL planned
// from statistics older than a campaign loaded in bulk and read every
// schedule of the account through its (account_id, status, scheduled_at)
// index, 10,000 entries for 50 rows, the costliest statement of a burst
// (docs/performance.md).
func (s *Service) recordOneOffs(ctx context.Context, c *ent.Client, fs []fired) error {
	ctx = core.AsBackgroundWork(ctx)
	ids := make([]int, len(fs))
	messages, conversations := map[int]int{}, map[int]int{}
	for i, f := range fs {
		ids[i] = f.sm.ID
		messages[f.sm.ID], conversations[f.sm.ID] = f.m.ID, f.conversationID
	}
	n, err := c.ScheduledMessage.Update().Where(scheduledmessage.IDIn(ids...), scheduledmessage.MessageIDIsNil()).
		ClearNextOccurrenceAt().SetOccurrencesCount(1).
		Modify(core.SetEachByID(scheduledmessage.FieldMessageID, "BIGINT", messages),
			core.SetEachByID(scheduledmessage.FieldConversationID, "BIGINT", conversations)).
		Save(ctx)
	if err != nil {
		return err
	}
	if n != len(ids) {
		return errAlreadyFired
	}
	return nil
}
