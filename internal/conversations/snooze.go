package conversations

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// wakeBatch is how many snoozed conversations one read of WakeSnoozed
// takes; it reads again while a read comes back full.
const wakeBatch = 200

// WakeSnoozed reopens every conversation whose snooze has ended, as
// Chatwoot's reopen job does, each with its conversation_status_changed,
// and answers how many it reopened. The job runner calls it once a minute:
// a snooze ends at most a minute late. A conversation another runner woke,
// or an agent changed meanwhile, is left as it is, and told of by nobody.
func (s *Service) WakeSnoozed(ctx context.Context) (int, error) {
	woken := 0
	for {
		due, err := s.DB.Conversation.Query().
			Where(conversation.StatusEQ(conversation.StatusSnoozed), conversation.SnoozedUntilLTE(s.Now())).
			Order(ent.Asc(conversation.FieldSnoozedUntil)).Limit(wakeBatch).All(core.AsBackgroundWork(ctx))
		if err != nil {
			return woken, err
		}
		for _, cv := range due {
			ok, err := s.wake(ctx, cv)
			if err != nil {
				return woken, err
			}
			if ok {
				woken++
			}
		}
		if len(due) < wakeBatch {
			return woken, nil
		}
	}
}

// wake reopens cv if it is still snoozed until then, in its account.
func (s *Service) wake(ctx context.Context, cv *ent.Conversation) (bool, error) {
	woken := false
	err := s.InTx(core.AsAccountSystem(ctx, cv.AccountID, 0), func(ctx context.Context, c *ent.Client) error {
		n, err := c.Conversation.Update().
			Where(conversation.ID(cv.ID), conversation.StatusEQ(conversation.StatusSnoozed), conversation.SnoozedUntilLTE(s.Now())).
			SetStatus(conversation.StatusOpen).ClearSnoozedUntil().Save(ctx)
		if err != nil || n == 0 {
			return err
		}
		woken = true
		cv.Status, cv.SnoozedUntil = conversation.StatusOpen, nil
		return s.EmitConversationEvent(ctx, c, events.ConversationStatusChanged, cv)
	})
	return woken, err
}
