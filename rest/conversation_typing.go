package rest

import (
	"github.com/gofiber/fiber/v2"
)

// agentTypingRequest says whether the agent is typing (Chatwoot's
// toggle_typing_status; its is_private flag changes nothing here, as no
// listener tells a note from a reply while it is typed).
type agentTypingRequest struct {
	TypingStatus *string `json:"typing_status"`
}

func (a *API) toggleAgentTyping(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Conversation")
	if err != nil {
		return err
	}
	var req agentTypingRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	on, err := typingOn(req.TypingStatus)
	if err != nil {
		return err
	}
	if err := a.svc.AgentTyping(c.UserContext(), id, on); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusOK)
}
