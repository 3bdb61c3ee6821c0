package rest

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/webhooks"
	"github.com/switchboard/switchboard/internal/wire"
)

type webhookRequest struct {
	Name          *string           `json:"name"`
	URL           *string           `json:"url"`
	Subscriptions *flexStrings      `json:"subscriptions"`
	InboxID       optional[flexInt] `json:"inbox_id"`
}

// input is the request's webhook. Chatwoot's API takes an inbox_id; here a
// webhook is the account's, so one is refused rather than dropped: the
// webhook would receive every inbox's events.
func (r webhookRequest) input() (webhooks.WebhookInput, error) {
	in := webhooks.WebhookInput{Name: r.Name, URL: r.URL}
	if r.InboxID.get() != nil {
		return in, invalidField("inbox_id", "A webhook receives every inbox's events of its account: leave inbox_id out, and filter by the payload's inbox")
	}
	if r.Subscriptions != nil {
		in.Subscriptions = *r.Subscriptions
	}
	return in, nil
}

// webhookJSON is Chatwoot's webhook object; the secret is added only to the
// answer of the create.
func webhookJSON(w *ent.WebhookSubscription) H {
	return H{
		"id":            w.ID,
		"name":          w.Name,
		"url":           w.URL,
		"account_id":    w.AccountID,
		"subscriptions": wire.OrEmpty(w.Subscriptions),
		"inbox":         nil,
		"created_at":    wire.Time(w.CreatedAt),
	}
}

func (a *API) listWebhooks(c *fiber.Ctx) error {
	ws, err := a.svc.Webhooks(c.UserContext())
	if err != nil {
		return err
	}
	out := make([]H, 0, len(ws))
	for _, w := range ws {
		out = append(out, webhookJSON(w))
	}
	return c.JSON(H{"payload": H{"webhooks": out}})
}

func (a *API) showWebhook(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Webhook")
	if err != nil {
		return err
	}
	w, err := a.svc.Webhook(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": H{"webhook": webhookJSON(w)}})
}

func (a *API) createWebhook(c *fiber.Ctx) error {
	var req webhookRequest
	if err := decode(c, "webhook", &req); err != nil {
		return err
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	w, err := a.svc.CreateWebhook(c.UserContext(), in)
	if err != nil {
		return err
	}
	h := webhookJSON(w)
	h["secret"] = w.Secret // shown once: it is never rendered again
	return c.JSON(H{"payload": H{"webhook": h}})
}

func (a *API) updateWebhook(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Webhook")
	if err != nil {
		return err
	}
	var req webhookRequest
	if err := decode(c, "webhook", &req); err != nil {
		return err
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	w, err := a.svc.UpdateWebhook(c.UserContext(), id, in)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": H{"webhook": webhookJSON(w)}})
}

func (a *API) deleteWebhook(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Webhook")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteWebhook(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}

// webhookDeliveries is a subscription's delivery log: each event exactly as
// it was (or will be) sent, with its delivery id, attempts and outcome.
func (a *API) webhookDeliveries(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Webhook")
	if err != nil {
		return err
	}
	page, err := queryInt(c, "page", 1)
	if err != nil {
		return err
	}
	ds, err := a.svc.WebhookDeliveries(c.UserContext(), id, page)
	if err != nil {
		return err
	}
	out := make([]H, 0, len(ds))
	for _, d := range ds {
		out = append(out, H{
			"id":              d.ID,
			"delivery_id":     d.DeliveryID,
			"event":           d.Event,
			"url":             d.URL,
			"payload":         json.RawMessage(d.Payload),
			"status":          string(d.Status),
			"attempts":        d.Attempts,
			"response_status": wire.IntPtr(d.ResponseStatus),
			"last_error":      wire.NilIfEmpty(d.LastError),
			"next_attempt_at": wire.TimePtr(d.NextAttemptAt),
			"delivered_at":    wire.TimePtr(d.DeliveredAt),
			"created_at":      wire.Time(d.CreatedAt),
		})
	}
	return c.JSON(H{"payload": out})
}
