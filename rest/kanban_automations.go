package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/wire"
)

// /kanban/automations (administrators only).

func automationInput(c *fiber.Ctx) (ops.AutomationInput, error) {
	var in ops.AutomationInput
	m, err := bodyMap(c)
	if err != nil {
		return in, err
	}
	m = unwrap(m, "kanban_automation")
	if in.Name, err = optString(m, "name", "name"); err != nil {
		return in, err
	}
	if v, sent := m["funnel_id"]; sent && v == nil {
		in.ClearFunnel = true
	} else if in.FunnelID, err = optInt(m, "funnel_id", "funnel_id"); err != nil {
		return in, err
	}
	if in.TriggerType, err = optString(m, "trigger_type", "trigger_type"); err != nil {
		return in, err
	}
	if in.ActionType, err = optString(m, "action_type", "action_type"); err != nil {
		return in, err
	}
	if in.Enabled, err = optBool(m, "enabled", "enabled"); err != nil {
		return in, err
	}
	for key, dst := range map[string]*map[string]any{"trigger_config": &in.TriggerConfig, "action_config": &in.ActionConfig} {
		if v, sent := m[key]; sent && v != nil {
			obj, ok := v.(map[string]any)
			if !ok {
				return in, invalidField(key, humanField(key)+" must be an object")
			}
			*dst = normalizeNumbers(obj)
		}
	}
	return in, nil
}

// normalizeNumbers turns the body's json.Numbers into float64, as stored
// JSON reads back.
func normalizeNumbers(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if n, ok := v.(interface{ Float64() (float64, error) }); ok {
			if f, err := n.Float64(); err == nil {
				out[k] = f
				continue
			}
		}
		out[k] = v
	}
	return out
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
	in, err := automationInput(c)
	if err != nil {
		return err
	}
	x, err := a.svc.CreateAutomation(c.UserContext(), in)
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
	in, err := automationInput(c)
	if err != nil {
		return err
	}
	x, err := a.svc.UpdateAutomation(c.UserContext(), id, in)
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
