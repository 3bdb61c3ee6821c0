package web

import (
	"context"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/webhooks"
	"github.com/switchboard/switchboard/views"
)

// The inboxes' behaviour fields and the account's webhooks. Channel
// credentials never reach these pages: an inbox's row carries its
// behaviour only.

func (c *Console) inboxRows(ctx context.Context, s *views.Settings) error {
	ibs, err := c.svc.Inboxes(ctx)
	for _, ib := range ibs {
		s.Inboxes = append(s.Inboxes, views.InboxRow{ID: ib.ID, Name: ib.Name, Channel: string(ib.ChannelType),
			GreetingEnabled: ib.GreetingEnabled, Greeting: ib.GreetingMessage, OutOfOffice: ib.OutOfOfficeMessage,
			Timezone: ib.Timezone, AutoAssign: ib.EnableAutoAssignment, AfterResolved: ib.AllowMessagesAfterResolved,
			SingleConv: ib.LockToSingleConversation})
	}
	return err
}

// hookRows lists the webhooks to administrators (the operation refuses
// others; their page says the settings are administrators').
func (c *Console) hookRows(ctx context.Context, s *views.Settings) error {
	if !s.Nav.Admin {
		return nil
	}
	hooks, err := c.svc.Webhooks(ctx)
	if err != nil {
		return err
	}
	for _, k := range events.Kinds {
		s.Events = append(s.Events, string(k))
	}
	for _, h := range hooks {
		row := views.HookRow{ID: h.ID, Name: h.Name, URL: h.URL, Events: h.Subscriptions}
		for _, ev := range s.Events {
			row.Choices = append(row.Choices, views.Choice{Value: ev, Text: ev, On: slices.Contains(h.Subscriptions, ev)})
		}
		s.Hooks = append(s.Hooks, row)
	}
	return c.kanbanHook(ctx, s)
}

// flag is a checkbox posted after its hidden "false": the last value wins.
func (p postedForm) flag(key string) *bool {
	v, ok := p[key]
	if !ok || len(v) == 0 {
		return nil
	}
	on := v[len(v)-1] == "true"
	return &on
}

// The fields the inbox and webhook forms show a refusal at (settingsDone).
var (
	inboxFields = []string{"name", "timezone", "greeting_message", "out_of_office_message"}
	hookFields  = []string{"name", "url", "subscriptions"}
)

func (c *Console) saveInbox(ctx *fiber.Ctx) error {
	id, err := settingID(ctx, "Inbox")
	if err != nil {
		return err
	}
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	in := inboxes.InboxInput{Name: posted.optional("name"), GreetingEnabled: posted.flag("greeting_enabled"),
		GreetingMessage: posted.optional("greeting_message"), EnableAutoAssignment: posted.flag("enable_auto_assignment"),
		OutOfOfficeMessage: posted.optional("out_of_office_message"), Timezone: posted.optional("timezone"),
		AllowMessagesAfterResolved: posted.flag("allow_messages_after_resolved"), LockToSingleConversation: posted.flag("lock_to_single_conversation")}
	_, err = c.svc.UpdateInbox(ctx.UserContext(), id, in)
	return c.settingsDone(ctx, "inboxes", err, inboxFields...)
}

func (c *Console) saveHook(ctx *fiber.Ctx) error {
	posted, _, err := readPosted(ctx)
	if err != nil {
		return err
	}
	in := webhooks.WebhookInput{Name: posted.optional("name"), URL: posted.optional("url"), Subscriptions: posted["subscriptions"]}
	_, err = c.svc.CreateWebhook(ctx.UserContext(), in)
	return c.settingsDone(ctx, "webhooks", err, hookFields...)
}

func (c *Console) deleteHook(ctx *fiber.Ctx) error {
	id, err := settingID(ctx, "Webhook")
	if err != nil {
		return err
	}
	return c.settingsDone(ctx, "webhooks", c.svc.DeleteWebhook(ctx.UserContext(), id))
}
