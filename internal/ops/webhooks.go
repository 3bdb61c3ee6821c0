package ops

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/ent/webhooksubscription"
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
	return ws, apperrOrNil(err)
}

// Webhook returns one subscription (administrators only).
func (s *Service) Webhook(ctx context.Context, id int) (*ent.WebhookSubscription, error) {
	w, err := s.Client(ctx).WebhookSubscription.Get(ctx, id)
	return w, apperrOrNil(notFound(err, "Webhook"))
}

// CreateWebhook subscribes a URL to events. The returned subscription
// carries its signing secret, shown only now.
func (s *Service) CreateWebhook(ctx context.Context, in WebhookInput) (*ent.WebhookSubscription, error) {
	if err := requireAdmin(ctx); err != nil {
		return nil, err
	}
	if err := checkWebhook(in, true); err != nil {
		return nil, err
	}
	w, err := s.Client(ctx).WebhookSubscription.Create().SetURL(strings.TrimSpace(*in.URL)).
		SetNillableName(in.Name).SetSubscriptions(uniqueStrings(in.Subscriptions)).
		SetSecret(webhook.NewSecret()).Save(ctx)
	return w, apperrOrNil(err)
}

// UpdateWebhook changes a subscription's name, URL or events; the secret stays.
func (s *Service) UpdateWebhook(ctx context.Context, id int, in WebhookInput) (*ent.WebhookSubscription, error) {
	if err := requireAdmin(ctx); err != nil {
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
		upd.SetSubscriptions(uniqueStrings(in.Subscriptions))
	}
	w, err = upd.Save(ctx)
	return w, apperrOrNil(err)
}

// DeleteWebhook removes a subscription and its delivery log.
func (s *Service) DeleteWebhook(ctx context.Context, id int) error {
	if err := requireAdmin(ctx); err != nil {
		return err
	}
	return apperrOrNil(notFound(s.Client(ctx).WebhookSubscription.DeleteOneID(id).Exec(ctx), "Webhook"))
}

// WebhookDeliveries is a subscription's delivery log, newest first.
func (s *Service) WebhookDeliveries(ctx context.Context, id int, page int) ([]*ent.WebhookDelivery, error) {
	if _, err := s.Webhook(ctx, id); err != nil {
		return nil, err
	}
	ds, err := s.Client(ctx).WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(id)).
		Order(ent.Desc(webhookdelivery.FieldID)).Offset(pageOffset(page, 50)).Limit(50).All(ctx)
	return ds, apperrOrNil(err)
}

func checkWebhook(in WebhookInput, create bool) error {
	var errs fieldErrors
	if in.URL != nil || create {
		checkOutboundURL(&errs, "url", "Url", deref(in.URL))
	}
	if create && len(in.Subscriptions) == 0 {
		errs.add("subscriptions", "Subscriptions can't be blank: list the events to send")
	}
	for _, e := range in.Subscriptions {
		if !containsString(WebhookEvents, e) {
			errs.add("subscriptions", "Unknown event "+e+": use one of "+strings.Join(WebhookEvents, ", "))
			break
		}
	}
	return errs.err()
}

func uniqueStrings(xs []string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if !containsString(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// emit writes an event for every subscription of account that wants it
// into the outbox, in the transaction of the change (c must be its client):
// if the change commits, the deliveries exist; if not, neither do they. The
// payload is built only when someone subscribes: most changes have no
// subscriber, and building it costs queries.
//
// The account is explicit, not left to the privacy filter: background work
// runs as the system, which the filter lets see every account.
func (s *Service) emit(ctx context.Context, c *ent.Client, accountID int, event events.Kind, payload func() (map[string]any, error)) error {
	ctx = asOutbox(ctx, accountID)
	subs, err := c.WebhookSubscription.Query().Where(webhooksubscription.AccountID(accountID), func(sel *sql.Selector) {
		sel.Where(sqljson.ValueContains(sel.C(webhooksubscription.FieldSubscriptions), string(event)))
	}).All(ctx)
	if err != nil || len(subs) == 0 {
		return err
	}
	now := s.now()
	raw, err := webhookBody(event, payload, now)
	if err != nil {
		return err
	}
	return c.WebhookDelivery.MapCreateBulk(subs, func(b *ent.WebhookDeliveryCreate, i int) {
		b.SetAccountID(subs[i].AccountID).SetDeliveryID(newDeliveryID()).
			SetSubscriptionID(subs[i].ID).SetURL(subs[i].URL).SetEvent(string(event)).SetPayload(raw).
			SetNextAttemptAt(now)
	}).Exec(ctx)
}

// webhookBody is a webhook's JSON body: the event's name and occurred_at,
// the time of the change (deliveries may arrive out of order, and retried
// ones late), beside its payload.
func webhookBody(event events.Kind, payload func() (map[string]any, error), at time.Time) (string, error) {
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

// newDeliveryID is a delivery's stable id (Standard Webhooks' webhook-id),
// which receivers deduplicate redeliveries by.
func newDeliveryID() string { return "msg_" + strings.ReplaceAll(uuid.NewString(), "-", "") }
