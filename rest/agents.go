package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/wire"
)

type agentRequest struct {
	Name         *string   `json:"name"`
	Email        *string   `json:"email"`
	Role         *string   `json:"role"`
	Availability *string   `json:"availability"`
	AutoOffline  *flexBool `json:"auto_offline"`
}

func (r agentRequest) input() accounts.AgentInput {
	return accounts.AgentInput{Name: r.Name, Email: r.Email, Role: r.Role, Availability: r.Availability, AutoOffline: r.AutoOffline.ptr()}
}

func (a *API) listAgents(c *fiber.Ctx) error {
	ms, err := a.svc.Agents(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(wire.Agents(ms))
}

func (a *API) createAgent(c *fiber.Ctx) error {
	var req agentRequest
	if err := decode(c, "agent", &req); err != nil {
		return err
	}
	m, err := a.svc.CreateAgent(c.UserContext(), req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.Agent(m))
}

func (a *API) updateAgent(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Agent")
	if err != nil {
		return err
	}
	var req agentRequest
	if err := decode(c, "agent", &req); err != nil {
		return err
	}
	m, err := a.svc.UpdateAgent(c.UserContext(), id, req.input())
	if err != nil {
		return err
	}
	return c.JSON(wire.Agent(m))
}

func (a *API) deleteAgent(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Agent")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteAgent(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}
