package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/wire"
)

// webhookDeliveryAttempts answers a webhook delivery's attempt log.
func (a *API) webhookDeliveryAttempts(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Webhook")
	if err != nil {
		return err
	}
	did, err := pathID(c, "delivery_id", "Webhook delivery")
	if err != nil {
		return err
	}
	atts, err := a.svc.WebhookDeliveryAttempts(c.UserContext(), id, did)
	if err != nil {
		return err
	}
	out := make([]H, 0, len(atts))
	for _, at := range atts {
		out = append(out, wire.WebhookAttempt(at))
	}
	return c.JSON(H{"payload": out})
}

// messageAttempts answers a message's delivery attempt log.
func (a *API) messageAttempts(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	mid, err := pathID(c, "message_id", "Message")
	if err != nil {
		return err
	}
	atts, err := a.svc.MessageAttempts(c.UserContext(), id, mid)
	if err != nil {
		return err
	}
	out := make([]H, 0, len(atts))
	for _, at := range atts {
		out = append(out, wire.MessageAttempt(at))
	}
	return c.JSON(H{"payload": out})
}
