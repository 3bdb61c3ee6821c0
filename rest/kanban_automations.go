package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/wire"
)

// /kanban/automations (administrators only).

// automationRequest is an automation body, wrapped in kanban_automation or
// not; a null funnel_id applies it to every funnel.
type automationRequest struct {
	Name          *flexString       `json:"name"`
	FunnelID      optional[flexInt] `json:"funnel_id"`
	TriggerType   *flexString       `json:"trigger_type"`
	TriggerConfig *flexObject       `json:"trigger_config"`
	ActionType    *flexString       `json:"action_type"`
	ActionConfig  *flexObject       `json:"action_config"`
	Enabled       *flexBool         `json:"enabled"`
}

func (r *automationRequest) input() kanban.AutomationInput {
	return kanban.AutomationInput{
		Name: r.Name.ptr(), FunnelID: r.FunnelID.get().ptr(), ClearFunnel: r.FunnelID.clear,
		TriggerType: r.TriggerType.ptr(), TriggerConfig: objectOrNil(r.TriggerConfig),
		ActionType: r.ActionType.ptr(), ActionConfig: objectOrNil(r.ActionConfig), Enabled: r.Enabled.ptr(),
	}
}

func automationJSON(a *ent.KanbanAutomation) H {
	return H{
		"id": a.ID, "account_id": a.AccountID, "name": a.Name, "funnel_id": wire.IntPtr(a.FunnelID),
		"trigger_type": string(a.TriggerType), "trigger_config": wire.OrEmptyMap(a.TriggerConfig),
		"action_type": string(a.ActionType), "action_config": wire.OrEmptyMap(a.ActionConfig),
		"enabled": a.Enabled, "last_run_at": wire.TimePtr(a.LastRunAt),
		"created_at": wire.Time(a.CreatedAt), "updated_at": wire.Time(a.UpdatedAt),
	}
}

func (a *API) listAutomations(c *fiber.Ctx) error {
	as, err := a.svc.Automations(c.UserContext())
	if err != nil {
		return err
	}
	out := make([]H, 0, len(as))
	for _, x := range as {
		out = append(out, automationJSON(x))
	}
	return c.JSON(H{"payload": out})
}

func (a *API) showAutomation(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Automation")
	if err != nil {
		return err
	}
	x, err := a.svc.Automation(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(automationJSON(x))
}

func (a *API) createAutomation(c *fiber.Ctx) error {
	var req automationRequest
	if err := decode(c, "kanban_automation", &req); err != nil {
		return err
	}
	x, err := a.svc.CreateAutomation(c.UserContext(), req.input())
	if err != nil {
		return err
	}
	return c.JSON(automationJSON(x))
}

func (a *API) updateAutomation(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Automation")
	if err != nil {
		return err
	}
	var req automationRequest
	if err := decode(c, "kanban_automation", &req); err != nil {
		return err
	}
	x, err := a.svc.UpdateAutomation(c.UserContext(), id, req.input())
	if err != nil {
		return err
	}
	return c.JSON(automationJSON(x))
}

func (a *API) deleteAutomation(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Automation")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteAutomation(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}
