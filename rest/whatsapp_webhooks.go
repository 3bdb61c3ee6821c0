package rest

import (
	"fmt"

	"github.com/gofiber/fiber/v2"
)

// verifyWhatsApp answers Meta's verification of a WhatsApp inbox's callback
// URL with the challenge, as text.
func (a *API) verifyWhatsApp(c *fiber.Ctx) error {
	challenge, err := a.svc.WhatsApp.Verify(c.UserContext(), c.Params("phone_number"),
		c.Query("hub.mode"), c.Query("hub.verify_token"), c.Query("hub.challenge"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	return c.SendString(challenge)
}

// receiveWhatsApp stores a signed webhook post of a WhatsApp inbox. The
// signature covers the raw body, so the channel reads it itself.
func (a *API) receiveWhatsApp(c *fiber.Ctx) error {
	body := c.Body()
	if len(body) > MaxJSONBody {
		// limitBody lets multipart bodies through for uploads; this is none.
		return fiber.NewError(fiber.StatusRequestEntityTooLarge, fmt.Sprintf("A webhook body may be at most %d bytes", MaxJSONBody))
	}
	res, err := a.svc.WhatsApp.Receive(c.UserContext(), c.Params("phone_number"), c.Get("X-Hub-Signature-256"), body)
	if err != nil {
		return err
	}
	return c.JSON(H{"messages": res.Messages, "duplicates": res.Duplicates, "statuses": res.Statuses, "ignored": res.Ignored})
}
