package webhooks

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/ent/webhookdeliveryattempt"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// WebhookDeliveryAttempts is the attempt log of a delivery of webhook webhookID,
// latest first (administrators only, as the deliveries).
func (s *Service) WebhookDeliveryAttempts(ctx context.Context, webhookID, deliveryID int) ([]*ent.WebhookDeliveryAttempt, error) {
	if _, err := s.Webhook(ctx, webhookID); err != nil {
		return nil, err
	}
	d, err := s.Client(ctx).WebhookDelivery.Query().
		Where(webhookdelivery.ID(deliveryID), webhookdelivery.SubscriptionID(webhookID)).Only(ctx)
	if err != nil {
		return nil, apperr.From(core.NotFound(err, "Webhook delivery"))
	}
	atts, err := d.QueryAttemptLog().Order(ent.Desc(webhookdeliveryattempt.FieldID)).
		Limit(core.MaxAttemptsListed).All(ctx)
	return atts, core.ApperrOrNil(err)
}
