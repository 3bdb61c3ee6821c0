package web

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/views"
)

// Kanban automations in the settings: their trigger and action settings
// are edited as JSON objects, as the API takes them; the kanban operation
// checks them.

func (c *Console) autoRows(ctx context.Context, s *views.Settings) error {
	if !s.Nav.Admin {
		return nil // the operation is the administrators'; the page says so
	}
	funnels, err := c.svc.Funnels(ctx)
	if err != nil {
		return err
	}
	for _, f := range funnels {
		s.Funnels = append(s.Funnels, views.Option{Value: strconv.Itoa(f.ID), Text: f.Name})
	}
	autos, err := c.svc.Automations(ctx)
	for _, a := range autos {
		row := views.AutoRow{ID: a.ID, Name: a.Name, Trigger: string(a.TriggerType), Action: string(a.ActionType),
			TriggerConf: jsonText(a.TriggerConfig), ActConf: jsonText(a.ActionConfig), Enabled: a.Enabled}
		if a.FunnelID != nil {
			row.Funnel = strconv.Itoa(*a.FunnelID)
		}
		s.Autos = append(s.Autos, row)
	}
	return err
}

func jsonText(m map[string]any) string {
	if len(m) == 0 {
		return "{}"
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return "{}"
	}
	return string(raw)
}

// autoInput reads an automation form.
func autoInput(p postedForm) (kanban.AutomationInput, error) {
	in := kanban.AutomationInput{Name: p.optional("name"), TriggerType: p.optional("trigger_type"),
		ActionType: p.optional("action_type"), Enabled: p.flag("enabled")}
	if f, ok := p["funnel_id"]; ok {
		if len(f) == 0 || f[0] == "" {
			in.ClearFunnel = true
		} else {
			n, err := strconv.Atoi(f[0])
			if err != nil {
				return in, apperr.Invalid("Board must be one of the account's boards", "funnel_id")
			}
			in.FunnelID = &n
		}
	}
	for key, dst := range map[string]*map[string]any{"trigger_config": &in.TriggerConfig, "action_config": &in.ActionConfig} {
		if raw := p.get(key); raw != "" {
			if err := json.Unmarshal([]byte(raw), dst); err != nil || *dst == nil {
				return in, apperr.Invalidf(key, "%s must be a JSON object, like {\"priority\": \"high\"}", key)
			}
		}
	}
	return in, nil
}

func (c *Console) saveAuto(ctx *fiber.Ctx) error {
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	in, err := autoInput(posted)
	if err != nil {
		return c.settingsDone(ctx, "automations", err)
	}
	if ctx.Params("id") == "" {
		_, err = c.svc.CreateAutomation(ctx.UserContext(), in)
		return c.settingsDone(ctx, "automations", err)
	}
	id, err := settingID(ctx, "Automation")
	if err != nil {
		return err
	}
	_, err = c.svc.UpdateAutomation(ctx.UserContext(), id, in)
	return c.settingsDone(ctx, "automations", err)
}

func (c *Console) deleteAuto(ctx *fiber.Ctx) error {
	id, err := settingID(ctx, "Automation")
	if err != nil {
		return err
	}
	return c.settingsDone(ctx, "automations", c.svc.DeleteAutomation(ctx.UserContext(), id))
}
