package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/wire"
)

// retryWebhookDelivery sends a failed webhook delivery again; it answers
// the delivery as the delivery log shows it.
func (a *API) retryWebhookDelivery(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Webhook")
	if err != nil {
		return err
	}
	did, err := pathID(c, "delivery_id", "Webhook delivery")
	if err != nil {
		return err
	}
	d, err := a.svc.RetryWebhookDelivery(c.UserContext(), id, did)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": wire.WebhookDelivery(d)})
}
