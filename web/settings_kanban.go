package web

import (
	"context"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/webhooks"
	"github.com/switchboard/switchboard/views"
)

// The kanban webhook (the operations /kanban_config uses) and editing an
// account webhook. The signing secret is shown only in the answer that
// issued it, as the API does; a test's answer is shown on the page it
// returns.

// kanbanHook fills the kanban webhook's form from the account's config.
func (c *Console) kanbanHook(ctx context.Context, s *views.Settings) error {
	cfg, err := c.svc.KanbanConfig(ctx)
	if err != nil {
		return err
	}
	on := map[string]bool{}
	for _, e := range kanban.EnabledEvents(cfg.Settings) {
		on[e] = true
	}
	s.Kanban.URL, s.Kanban.Enabled, s.Kanban.Secret = cfg.WebhookURL, cfg.Enabled, cfg.WebhookSecret
	for _, e := range kanban.KanbanEvents {
		s.Kanban.Events = append(s.Kanban.Events, views.Choice{Value: e, Text: e, On: on[e]})
	}
	return nil
}

// saveKanban serves POST /settings/kanban: URL, enabled and events.
func (c *Console) saveKanban(ctx *fiber.Ctx) error {
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	in := kanban.KanbanConfigInput{WebhookURL: posted.optional("webhook_url"), Enabled: posted.flag("enabled")}
	if evs, ok := posted["webhook_events"]; ok {
		chosen := slices.DeleteFunc(slices.Clone(evs), func(e string) bool { return e == "" })
		in.Events = &chosen
	}
	_, err = c.svc.SaveKanbanConfig(ctx.UserContext(), in)
	return c.settingsDone(ctx, "webhooks", err, "webhook_url", "webhook_events")
}

// regenerateKanbanSecret serves POST /settings/kanban/secret and shows the
// new secret, once.
func (c *Console) regenerateKanbanSecret(ctx *fiber.Ctx) error {
	cfg, err := c.svc.SaveKanbanConfig(ctx.UserContext(), kanban.KanbanConfigInput{RegenerateSecret: true})
	if err != nil {
		return c.settingsDone(ctx, "webhooks", err)
	}
	return c.renderSettingsWith(ctx, fiber.StatusOK, "webhooks", "", func(s *views.Settings) { s.Kanban.Secret = cfg.WebhookSecret })
}

// testKanban serves POST /settings/kanban/test: the receiver's answer to a
// signed test event (as POST /kanban_config/test reports it).
func (c *Console) testKanban(ctx *fiber.Ctx) error {
	res, err := c.svc.TestKanbanWebhook(ctx.UserContext())
	if err != nil {
		return c.settingsDone(ctx, "webhooks", err)
	}
	test := &views.HookTest{OK: res.OK(), Status: res.Status, Body: res.Body, Err: res.Err}
	return c.renderSettingsWith(ctx, fiber.StatusOK, "webhooks", "", func(s *views.Settings) { s.Kanban.Test = test })
}

// editHook serves POST /settings/webhooks/:id: name, URL and events.
func (c *Console) editHook(ctx *fiber.Ctx) error {
	id, err := settingID(ctx, "Webhook")
	if err != nil {
		return err
	}
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	in := webhooks.WebhookInput{Name: posted.optional("name"), URL: posted.optional("url")}
	if evs, ok := posted["subscriptions"]; ok {
		in.Subscriptions = slices.DeleteFunc(slices.Clone(evs), func(e string) bool { return e == "" })
	}
	_, err = c.svc.UpdateWebhook(ctx.UserContext(), id, in)
	return c.settingsDone(ctx, "webhooks", err, hookFields...)
}
