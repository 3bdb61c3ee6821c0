package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/wire"
)

// /kanban_config: the account's kanban webhook (administrators only).

// kanbanConfigRequest is a config body, wrapped in kanban_config or not.
type kanbanConfigRequest struct {
	WebhookURL       *flexString  `json:"webhook_url"`
	WebhookSecret    *flexString  `json:"webhook_secret"`
	RegenerateSecret flexBool     `json:"regenerate_secret"`
	Enabled          *flexBool    `json:"enabled"`
	WebhookEvents    *flexStrings `json:"webhook_events"`
	Settings         *flexObject  `json:"settings"`
	Config           *flexObject  `json:"config"` // the forks' name for settings
}

func (r *kanbanConfigRequest) input() kanban.KanbanConfigInput {
	return kanban.KanbanConfigInput{
		WebhookURL: r.WebhookURL.ptr(), WebhookSecret: r.WebhookSecret.ptr(), RegenerateSecret: bool(r.RegenerateSecret),
		Enabled: r.Enabled.ptr(), Events: (*[]string)(r.WebhookEvents), Settings: objectOrNil(either(r.Config, r.Settings)),
	}
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
	var req kanbanConfigRequest
	if err := decode(c, "kanban_config", &req); err != nil {
		return err
	}
	cfg, err := a.svc.SaveKanbanConfig(c.UserContext(), req.input())
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
	ok := res.OK()
	out := H{"success": ok, "response_code": res.Status, "response_body": res.Body}
	if res.Err != "" {
		out["error"] = res.Err
	}
	return c.JSON(out)
}
