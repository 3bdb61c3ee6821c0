package jobs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/kanbanconfig"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/outbound"
	"github.com/switchboard/switchboard/internal/webhook"
)

func webhookKind(r *Runner) kind {
	// A subscription gets up to perKey deliveries at once, in no set
	// order (each carries its event's time); deliveries to the kanban URL
	// have no subscription and count against their account. A delivery
	// is due by next_attempt_at alone: every write that ends one (delivered,
	// failed) clears it, so the idle check reads the first entry of its
	// partial index (with a status condition too, PostgreSQL planned a scan
	// of the whole table as long as its statistics said it was small).
	return kind{
		table: "webhook_deliveries", dueColumn: "next_attempt_at", keyExpr: "COALESCE(subscription_id, -account_id)", perKey: deliveriesPerKey,
		run: r.deliverWebhook, reportsOutcome: true,
		postgresWorkers: deliveryWorkers, sqliteWorkers: deliveryWorkers,
	}
}

// deliverWebhook makes one attempt at a webhook delivery and records it.
func (r *Runner) deliverWebhook(ctx context.Context, id int) error {
	ctx = core.AsBackgroundWork(ctx)
	d, found, err := r.webhookLoads.get(ctx, id)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("webhook delivery %d is gone", id)
	}
	secret, err := r.webhookSecret(ctx, d)
	if err != nil {
		return err
	}
	a := attempt{number: d.Attempts + 1, started: r.now()}
	t0 := time.Now()
	a.status, a.err = r.post(ctx, d.URL, d.DeliveryID, secret, []byte(d.Payload))
	a.elapsed = time.Since(t0)
	if ctx.Err() != nil {
		return ctx.Err() // shutting down: the claim is released, the delivery due again
	}
	var recorded attempt
	err = r.record(ctx, func(ctx context.Context, c *ent.Client) error {
		// From the attempt as it was each time: a group that rolls back
		// runs its records again.
		recorded = a
		if err := r.recordWebhookAttempt(ctx, c, d, &recorded); err != nil {
			return err
		}
		return r.logWebhookAttempt(ctx, c, d, recorded)
	})
	if err == nil {
		r.outcome("webhook_deliveries", recorded.outcome)
	}
	return err
}

// loadWebhookDeliveries reads deliveries ids with their subscriptions.
func (r *Runner) loadWebhookDeliveries(ctx context.Context, ids []int) (map[int]*ent.WebhookDelivery, error) {
	ds, err := r.client().WebhookDelivery.Query().Where(webhookdelivery.IDIn(ids...)).WithSubscription().
		All(core.AsBackgroundWork(ctx))
	if err != nil {
		return nil, err
	}
	return core.ByID(ds, func(d *ent.WebhookDelivery) int { return d.ID }), nil
}

// webhookSecret is the key a delivery is signed with: its subscription's,
// or the account's kanban config's for kanban receivers.
func (r *Runner) webhookSecret(ctx context.Context, d *ent.WebhookDelivery) (string, error) {
	if d.Edges.Subscription != nil {
		return d.Edges.Subscription.Secret, nil
	}
	cfg, err := r.client().KanbanConfig.Query().Where(kanbanconfig.AccountID(d.AccountID)).Only(ctx)
	if err != nil {
		return "", fmt.Errorf("no signing secret for delivery %d: %w", d.ID, err)
	}
	return cfg.WebhookSecret, nil
}

// post sends one signed request and returns the receiver's status.
func (r *Runner) post(ctx context.Context, url, id, secret string, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Switchboard-Webhooks/1")
	if err := webhook.SetHeaders(req, secret, id, r.now(), body); err != nil {
		return 0, err
	}
	resp, err := r.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, nil
}

// recordWebhookAttempt records attempt a's outcome on delivery d (and
// sets it in a): delivered, due again later, or failed for good.
func (r *Runner) recordWebhookAttempt(ctx context.Context, c *ent.Client, d *ent.WebhookDelivery, a *attempt) error {
	sendErr := a.err
	// By id, not UpdateOne: nothing needs the row read back.
	upd := c.WebhookDelivery.Update().Where(webhookdelivery.ID(d.ID)).SetAttempts(a.number)
	if a.status != 0 {
		upd.SetResponseStatus(a.status)
	}
	switch {
	case a.err == nil && a.status >= 200 && a.status < 300:
		a.outcome = outcomeDone
		if w := groupWritesOf(ctx); w != nil {
			w.webhookDelivered(d.ID, a.number, a.status) // with the group's others
			return nil
		}
		return upd.SetStatus(webhookdelivery.StatusDelivered).SetDeliveredAt(r.now()).
			ClearNextAttemptAt().SetLastError("").Exec(ctx)
	case a.err == nil:
		a.err = fmt.Errorf("receiver answered %d", a.status)
	}
	upd.SetLastError(a.err.Error())
	// A refused destination or an answer like 404 will not change with
	// another attempt: it fails at once, with the reason in last_error.
	if wait, ok := r.retries.Webhooks.next(a.number); ok && outbound.Retryable(a.status, sendErr) {
		a.outcome = outcomeRetrying
		return upd.SetNextAttemptAt(r.now().Add(wait)).Exec(ctx)
	}
	a.outcome = outcomeFailed
	return upd.SetStatus(webhookdelivery.StatusFailed).ClearNextAttemptAt().Exec(ctx)
}
