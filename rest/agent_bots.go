package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/wire"
)

type agentBotRequest struct {
	Name        *string     `json:"name"`
	Description *string     `json:"description"`
	OutgoingURL *string     `json:"outgoing_url"`
	BotConfig   *flexObject `json:"bot_config"`
}

func (r agentBotRequest) input() inboxes.AgentBotInput {
	return inboxes.AgentBotInput{Name: r.Name, Description: r.Description, OutgoingURL: r.OutgoingURL, BotConfig: objectOrNil(r.BotConfig)}
}

func (a *API) listAgentBots(c *fiber.Ctx) error {
	bs, err := a.svc.AgentBots(c.UserContext())
	if err != nil {
		return err
	}
	out := make([]H, 0, len(bs))
	for _, b := range bs {
		out = append(out, wire.AgentBot(b))
	}
	return c.JSON(out)
}

func (a *API) showAgentBot(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Agent bot")
	if err != nil {
		return err
	}
	b, err := a.svc.AgentBot(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(wire.AgentBot(b))
}

func (a *API) createAgentBot(c *fiber.Ctx) error {
	var req agentBotRequest
	if err := decode(c, "agent_bot", &req); err != nil {
		return err
	}
	b, err := a.svc.CreateAgentBot(c.UserContext(), req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.AgentBot(b))
}

func (a *API) updateAgentBot(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Agent bot")
	if err != nil {
		return err
	}
	var req agentBotRequest
	if err := decode(c, "agent_bot", &req); err != nil {
		return err
	}
	b, err := a.svc.UpdateAgentBot(c.UserContext(), id, req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.AgentBot(b))
}

func (a *API) deleteAgentBot(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Agent bot")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteAgentBot(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}

// inboxAgentBot answers {"agent_bot": <bot>} or {"agent_bot": null}.
func (a *API) inboxAgentBot(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Inbox")
	if err != nil {
		return err
	}
	b, err := a.svc.InboxAgentBot(c.UserContext(), id)
	if err != nil {
		return err
	}
	if b == nil {
		return c.JSON(H{"agent_bot": nil})
	}
	return c.JSON(H{"agent_bot": wire.AgentBot(b)})
}

// setInboxAgentBot switches the bot on ({"agent_bot": id}) or off (null or absent).
func (a *API) setInboxAgentBot(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Inbox")
	if err != nil {
		return err
	}
	var req inboxAgentBotRequest
	if err := decode(c, "", &req); err != nil {
		return err
	}
	if err := a.svc.SetInboxAgentBot(c.UserContext(), id, req.AgentBot.ptr()); err != nil {
		return err
	}
	return a.inboxAgentBot(c)
}

func (a *API) deleteInbox(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Inbox")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteInbox(c.UserContext(), id); err != nil {
		return err
	}
	return c.JSON(H{"message": "Inbox deleted"})
}
