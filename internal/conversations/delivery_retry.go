package conversations

import (
	"context"

	"entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// RetryMessage sends a failed outgoing message again (Chatwoot's
// POST .../messages/{id}/retry): its status goes back to sent, its external
// error and attempts are cleared (the attempt log numbers on), and the
// delivery job sends it with a fresh retry budget (after any earlier pending message of its
// conversation). Only a failed message can be retried: a pending one is
// already being retried, a delivered one would reach the contact twice.
func (s *Service) RetryMessage(ctx context.Context, displayID, messageID int) (*ent.Message, error) {
	cv, err := s.conversationOf(ctx, displayID)
	if err != nil {
		return nil, err
	}
	var m *ent.Message
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		m, err = c.Message.Query().Where(message.ID(messageID), message.ConversationID(cv.ID)).Only(ctx)
		if err != nil {
			return core.NotFound(err, "Message")
		}
		if m.Status != message.StatusFailed || m.MessageType != message.MessageTypeOutgoing {
			return apperr.Conflict("Only a failed outgoing message can be retried")
		}
		attrs := core.MergeAttributes(m.ContentAttributes, map[string]any{"external_error": nil})
		m, err = c.Message.UpdateOne(m).SetStatus(message.StatusSent).SetContentAttributes(attrs).
			Modify(keepAttemptCount).SetDeliveryAttempts(0).SetDeliveryError("").SetNextDeliveryAt(s.Now()).Save(ctx)
		if err != nil {
			return err
		}
		return s.EmitMessageEvent(ctx, c, events.MessageUpdated, m)
	})
	return core.Written(ctx, m, err)
}

// keepAttemptCount adds the attempts made so far to the offset the attempt
// log numbers from, in the UPDATE that restarts them: read from the row, so
// two retries at once add them once.
func keepAttemptCount(u *sql.UpdateBuilder) {
	u.Set(message.FieldDeliveryAttemptOffset, sql.Expr(message.FieldDeliveryAttemptOffset+" + "+message.FieldDeliveryAttempts))
}
