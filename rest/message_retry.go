package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/wire"
)

// retryMessage sends a failed message again (Chatwoot's retry route); it
// answers the message, back to status sent and pending delivery.
func (a *API) retryMessage(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	mid, err := pathID(c, "message_id", "Message")
	if err != nil {
		return err
	}
	m, err := a.svc.RetryMessage(c.UserContext(), id, mid)
	if err != nil {
		return err
	}
	return c.JSON(wire.Message(m, id))
}
