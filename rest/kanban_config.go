package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/wire"
)

// /kanban_config: the account's kanban webhook (administrators only).

func kanbanConfigInput(c *fiber.Ctx) (ops.KanbanConfigInput, error) {
	var in ops.KanbanConfigInput
	m, err := bodyMap(c)
	if err != nil {
		return in, err
	}
	m = unwrap(m, "kanban_config")
	if in.WebhookURL, err = optString(m, "webhook_url", "webhook_url"); err != nil {
		return in, err
	}
	if in.WebhookSecret, err = optString(m, "webhook_secret", "webhook_secret"); err != nil {
		return in, err
	}
	regen, err := optBool(m, "regenerate_secret", "regenerate_secret")
	if err != nil {
		return in, err
	}
	in.RegenerateSecret = deref(regen)
	if in.Enabled, err = optBool(m, "enabled", "enabled"); err != nil {
		return in, err
	}
	if v, sent := m["webhook_events"]; sent {
		list, ok := v.([]any)
		if !ok {
			return in, invalidField("webhook_events", "Webhook events must be a list of event names")
		}
		events := make([]string, 0, len(list))
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return in, invalidField("webhook_events", "Webhook events must be a list of event names")
			}
			events = append(events, s)
		}
		in.Events = &events
	}
	for _, key := range []string{"settings", "config"} { // the forks call it config
		if v, sent := m[key]; sent && v != nil {
			obj, ok := v.(map[string]any)
			if !ok {
				return in, invalidField(key, humanField(key)+" must be an object")
			}
			in.Settings = obj
		}
	}
	return in, nil
}

func kanbanConfigJSON(cfg *ent.KanbanConfig) H {
	settings := wire.OrEmptyMap(cfg.Settings)
	h := H{
		"id": cfg.ID, "account_id": cfg.AccountID, "enabled": cfg.Enabled, "webhook_url": cfg.WebhookURL,
		"webhook_events": settings["webhook_events"], "settings": settings,
		"created_at": wire.Time(cfg.CreatedAt), "updated_at": wire.Time(cfg.UpdatedAt),
	}
	// The operation leaves the secret in only in the answer that issued it.
	if cfg.WebhookSecret != "" {
		h["webhook_secret"] = cfg.WebhookSecret
	}
	return h
}

func (a *API) showKanbanConfig(c *fiber.Ctx) error {
	cfg, err := a.svc.KanbanConfig(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(kanbanConfigJSON(cfg))
}

func (a *API) saveKanbanConfig(c *fiber.Ctx) error {
	in, err := kanbanConfigInput(c)
	if err != nil {
		return err
	}
	cfg, err := a.svc.SaveKanbanConfig(c.UserContext(), in)
	if err != nil {
		return err
	}
	return c.JSON(kanbanConfigJSON(cfg))
}

func (a *API) deleteKanbanConfig(c *fiber.Ctx) error {
	if err := a.svc.DeleteKanbanConfig(c.UserContext()); err != nil {
		return err
	}
	return emptyOK(c)
}

// testKanbanWebhook sends a signed kanban.test event and reports the
// receiver's answer (success means a 2xx).
func (a *API) testKanbanWebhook(c *fiber.Ctx) error {
	res, err := a.svc.TestKanbanWebhook(c.UserContext())
	if err != nil {
		return err
	}
	ok := res.Err == "" && res.Status >= 200 && res.Status < 300
	out := H{"success": ok, "response_code": res.Status, "response_body": res.Body}
	if res.Err != "" {
		out["error"] = res.Err
	}
	return c.JSON(out)
}
