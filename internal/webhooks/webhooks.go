package webhooks

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/ent/webhooksubscription"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/webhook"
	"github.com/switchboard/switchboard/internal/wire"
)

// WebhookEvents are the events an account webhook may subscribe to: every
// kind of change.
var WebhookEvents = kindNames(events.Kinds)

func kindNames(kinds []events.Kind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
	}
	return out
}

// WebhookInput carries the fields of a webhook subscription; nil means "not sent".
type WebhookInput struct {
	Name          *string
	URL           *string
	Subscriptions []string
}

// Webhooks lists the account's webhook subscriptions (administrators only).
func (s *Service) Webhooks(ctx context.Context) ([]*ent.WebhookSubscription, error) {
	ws, err := s.Client(ctx).WebhookSubscription.Query().Order(ent.Asc(webhooksubscription.FieldID)).All(ctx)
	return ws, core.ApperrOrNil(err)
}

// Webhook returns one subscription (administrators only).
func (s *Service) Webhook(ctx context.Context, id int) (*ent.WebhookSubscription, error) {
	w, err := s.Client(ctx).WebhookSubscription.Get(ctx, id)
	return w, core.ApperrOrNil(core.NotFound(err, "Webhook"))
}

// CreateWebhook subscribes a URL to events. The returned subscription
// carries its signing secret, shown only now.
func (s *Service) CreateWebhook(ctx context.Context, in WebhookInput) (*ent.WebhookSubscription, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	if err := checkWebhook(in, true); err != nil {
		return nil, err
	}
	w, err := s.Client(ctx).WebhookSubscription.Create().SetURL(strings.TrimSpace(*in.URL)).
		SetNillableName(in.Name).SetSubscriptions(core.UniqueStrings(in.Subscriptions)).
		SetSecret(webhook.NewSecret()).Save(ctx)
	return w, core.ApperrOrNil(err)
}

// UpdateWebhook changes a subscription's name, URL or events; the secret stays.
func (s *Service) UpdateWebhook(ctx context.Context, id int, in WebhookInput) (*ent.WebhookSubscription, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	if err := checkWebhook(in, false); err != nil {
		return nil, err
	}
	w, err := s.Webhook(ctx, id)
	if err != nil {
		return nil, err
	}
	upd := w.Update().SetNillableName(in.Name)
	if in.URL != nil {
		upd.SetURL(strings.TrimSpace(*in.URL))
	}
	if in.Subscriptions != nil {
		upd.SetSubscriptions(core.UniqueStrings(in.Subscriptions))
	}
	w, err = upd.Save(ctx)
	return w, core.ApperrOrNil(err)
}

// DeleteWebhook removes a subscription and its delivery log.
func (s *Service) DeleteWebhook(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(core.NotFound(s.Client(ctx).WebhookSubscription.DeleteOneID(id).Exec(ctx), "Webhook"))
}

// DeliveriesPerPage is the length of a page of a webhook's delivery log.
const DeliveriesPerPage = 50

// WebhookDeliveries is a subscription's delivery log, newest first.
func (s *Service) WebhookDeliveries(ctx context.Context, id int, page int) ([]*ent.WebhookDelivery, error) {
	if _, err := s.Webhook(ctx, id); err != nil {
		return nil, err
	}
	ds, err := s.Client(ctx).WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(id)).
		Order(ent.Desc(webhookdelivery.FieldID)).Offset(core.PageOffset(page, DeliveriesPerPage)).Limit(DeliveriesPerPage).All(ctx)
	return ds, core.ApperrOrNil(err)
}

func checkWebhook(in WebhookInput, create bool) error {
	var errs core.FieldErrors
	if in.URL != nil || create {
		core.CheckOutboundURL(&errs, "url", "Url", core.Deref(in.URL))
	}
	if (create || in.Subscriptions != nil) && len(in.Subscriptions) == 0 {
		errs.Add("subscriptions", "Subscriptions can't be blank: list the events to send")
	}
	for _, e := range in.Subscriptions {
		if !core.ContainsString(WebhookEvents, e) {
			errs.Add("subscriptions", "Unknown event "+e+": use one of "+strings.Join(WebhookEvents, ", "))
			break
		}
	}
	return errs.Err()
}

// emit writes each change of chs (those with a webhook body) for every
// subscription of its account that wants it into the outbox, in the
// transaction of the changes (c must be its client): if they commit, the
// deliveries exist; if not, neither do they. A payload is built only when
// someone subscribes: most changes have no subscriber, and building it costs
// queries. The rows are written with one INSERT an account.
//
// The account is explicit, not left to the privacy filter: background work
// runs as the system, which the filter lets see every account.
func (s *Service) emit(ctx context.Context, c *ent.Client, chs []core.Change) error {
	now := s.Now()
	rows := map[int][]*ent.WebhookDeliveryCreate{}
	var accounts []int
	for _, ch := range chs {
		if ch.Payload == nil {
			continue
		}
		subs, err := s.subscribed(core.AsOutbox(ctx, ch.AccountID), c, ch.AccountID, ch.Kind)
		if err != nil {
			return err
		}
		if len(subs) == 0 {
			continue
		}
		raw, err := WebhookBody(ch.Kind, ch.Payload, now)
		if err != nil {
			return err
		}
		if _, seen := rows[ch.AccountID]; !seen {
			accounts = append(accounts, ch.AccountID)
		}
		for _, sub := range subs {
			rows[ch.AccountID] = append(rows[ch.AccountID], c.WebhookDelivery.Create().SetAccountID(sub.AccountID).
				SetDeliveryID(NewDeliveryID()).SetSubscriptionID(sub.ID).SetURL(sub.URL).SetEvent(string(ch.Kind)).
				SetPayload(raw).SetNextAttemptAt(now))
		}
	}
	for _, acc := range accounts {
		if err := writeDeliveries(core.AsOutbox(ctx, acc), c, rows[acc]); err != nil {
			return err
		}
	}
	return nil
}

// writeDeliveries writes rows with one INSERT; with a core.Handoff in ctx,
// those it has room for are written claimed by it.
func writeDeliveries(ctx context.Context, c *ent.Client, rows []*ent.WebhookDeliveryCreate) error {
	h := core.HandoffOf(ctx)
	var claimed []int
	for i, row := range rows {
		if h.Claim(webhookdelivery.Table) {
			row.SetNextAttemptAt(h.Lease)
			claimed = append(claimed, i)
		}
	}
	if len(claimed) == 0 {
		return c.WebhookDelivery.CreateBulk(rows...).Exec(ctx)
	}
	ds, err := c.WebhookDelivery.CreateBulk(rows...).Save(ctx)
	if err != nil {
		return err
	}
	for _, i := range claimed {
		h.Written(ctx, core.HandedRow{Table: webhookdelivery.Table, ID: ds[i].ID, Key: *ds[i].SubscriptionID})
	}
	return nil
}

// accountSubscriptions is the TxMemo key of an account's subscriptions.
type accountSubscriptions int

// subscribed returns the account's subscriptions to event. They are read
// once per transaction (a burst's batch emits many events in one), and not
// at all while the account is remembered to have none (service.go).
func (s *Service) subscribed(ctx context.Context, c *ent.Client, accountID int, event events.Kind) ([]*ent.WebhookSubscription, error) {
	_, gen, none := s.unsubscribed.Get(accountID)
	if none {
		return nil, nil
	}
	v, err := s.TxMemo(ctx, accountSubscriptions(accountID), func() (any, error) {
		subs, err := c.WebhookSubscription.Query().Where(webhooksubscription.AccountID(accountID)).
			Order(ent.Asc(webhooksubscription.FieldID)).All(ctx)
		// Only what was read now: a memo may predate a change since gen.
		if err == nil && len(subs) == 0 {
			s.unsubscribed.Put(accountID, true, gen)
		}
		return subs, err
	})
	if err != nil {
		return nil, err
	}
	var out []*ent.WebhookSubscription
	for _, sub := range v.([]*ent.WebhookSubscription) {
		if core.ContainsString(sub.Subscriptions, string(event)) {
			out = append(out, sub)
		}
	}
	return out, nil
}

// WebhookBody is a webhook's JSON body: the event's name and occurred_at,
// the time of the change (deliveries may arrive out of order, and retried
// ones late), beside its payload.
func WebhookBody(event events.Kind, payload func() (map[string]any, error), at time.Time) (string, error) {
	p, err := payload()
	if err != nil {
		return "", err
	}
	body := map[string]any{"event": event, "occurred_at": wire.Time(at)}
	for k, v := range p {
		body[k] = v
	}
	raw, err := json.Marshal(body)
	return string(raw), err
}

// NewDeliveryID is a delivery's stable id (Standard Webhooks' webhook-id),
// which receivers deduplicate redeliveries by.
func NewDeliveryID() string { return "msg_" + strings.ReplaceAll(uuid.NewString(), "-", "") }

// RetryWebhookDelivery sends a failed webhook delivery again, with the same
// webhook-id and a fresh retry budget. Only a failed delivery can be
// retried: a pending one is already being retried, a delivered one arrived.
func (s *Service) RetryWebhookDelivery(ctx context.Context, webhookID, deliveryID int) (*ent.WebhookDelivery, error) {
	if _, err := s.Webhook(ctx, webhookID); err != nil {
		return nil, err
	}
	var d *ent.WebhookDelivery
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) (err error) {
		d, err = c.WebhookDelivery.Query().
			Where(webhookdelivery.ID(deliveryID), webhookdelivery.SubscriptionID(webhookID)).Only(ctx)
		if err != nil {
			return core.NotFound(err, "Webhook delivery")
		}
		if d.Status != webhookdelivery.StatusFailed {
			return apperr.Conflict("Only a failed webhook delivery can be retried")
		}
		d, err = c.WebhookDelivery.UpdateOne(d).SetStatus(webhookdelivery.StatusPending).
			Modify(keepAttemptCount).SetAttempts(0).
			SetNextAttemptAt(s.Now()).Save(ctx)
		return err
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return d, nil
}

// keepAttemptCount adds the attempts made so far to the offset the attempt
// log numbers from, in the UPDATE that restarts them: read from the row, so
// two retries at once add them once.
func keepAttemptCount(u *sql.UpdateBuilder) {
	u.Set(webhookdelivery.FieldAttemptOffset, sql.Expr(webhookdelivery.FieldAttemptOffset+" + "+webhookdelivery.FieldAttempts))
}
