package ops

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
)

// RetryMessage sends a failed outgoing message again (Chatwoot's
// POST .../messages/{id}/retry): its status goes back to sent, its external
// error and attempts are cleared, and the delivery job sends it with a
// fresh retry budget (after any earlier pending message of its
// conversation). Only a failed message can be retried: a pending one is
// already being retried, a delivered one would reach the contact twice.
func (s *Service) RetryMessage(ctx context.Context, displayID, messageID int) (*ent.Message, error) {
	cv, err := s.Conversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	var m *ent.Message
	err = s.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		m, err = c.Message.Query().Where(message.ID(messageID), message.ConversationID(cv.ID)).Only(ctx)
		if err != nil {
			return notFound(err, "Message")
		}
		if m.Status != message.StatusFailed || m.MessageType != message.MessageTypeOutgoing {
			return apperr.Conflict("Only a failed outgoing message can be retried")
		}
		attrs := mergeAttributes(m.ContentAttributes, map[string]any{"external_error": nil})
		m, err = c.Message.UpdateOne(m).SetStatus(message.StatusSent).SetContentAttributes(attrs).
			SetDeliveryAttempts(0).SetDeliveryError("").SetNextDeliveryAt(s.now()).Save(ctx)
		if err != nil {
			return err
		}
		return s.emitMessageEvent(ctx, c, events.MessageUpdated, m)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return m, nil
}

// RetryWebhookDelivery sends a failed webhook delivery again, with the same
// webhook-id and a fresh retry budget. Only a failed delivery can be
// retried: a pending one is already being retried, a delivered one arrived.
func (s *Service) RetryWebhookDelivery(ctx context.Context, webhookID, deliveryID int) (*ent.WebhookDelivery, error) {
	if _, err := s.Webhook(ctx, webhookID); err != nil {
		return nil, err
	}
	var d *ent.WebhookDelivery
	err := s.inTx(ctx, func(ctx context.Context, c *ent.Client) (err error) {
		d, err = c.WebhookDelivery.Query().
			Where(webhookdelivery.ID(deliveryID), webhookdelivery.SubscriptionID(webhookID)).Only(ctx)
		if err != nil {
			return notFound(err, "Webhook delivery")
		}
		if d.Status != webhookdelivery.StatusFailed {
			return apperr.Conflict("Only a failed webhook delivery can be retried")
		}
		d, err = c.WebhookDelivery.UpdateOne(d).SetStatus(webhookdelivery.StatusPending).SetAttempts(0).
			SetNextAttemptAt(s.now()).Save(ctx)
		return err
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return d, nil
}
