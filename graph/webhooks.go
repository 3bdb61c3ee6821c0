package graph

import (
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/webhooks"
)

func webhookInput(in model.WebhookInput) webhooks.WebhookInput {
	return webhooks.WebhookInput{Name: in.Name, URL: in.URL, Subscriptions: in.Subscriptions}
}

// deliveryAttempts renders an attempt log (a webhook delivery's or a
// message's: the two logs have the same columns) with one.
func deliveryAttempts[A any](atts []A, one func(A) *model.DeliveryAttempt) []*model.DeliveryAttempt {
	out := make([]*model.DeliveryAttempt, len(atts))
	for i, a := range atts {
		out[i] = one(a)
	}
	return out
}

func webhookAttempt(a *ent.WebhookDeliveryAttempt) *model.DeliveryAttempt {
	return attempt(a.Attempt, a.StartedAt, a.DurationMs, string(a.Outcome), a.ResponseStatus, a.Error)
}

func messageAttempt(a *ent.MessageDeliveryAttempt) *model.DeliveryAttempt {
	return attempt(a.Attempt, a.StartedAt, a.DurationMs, string(a.Outcome), a.ResponseStatus, a.Error)
}

func attempt(number int, started time.Time, durationMs int, outcome string, status *int, errText string) *model.DeliveryAttempt {
	return &model.DeliveryAttempt{Attempt: number, StartedAt: started, DurationMs: durationMs,
		Outcome: outcome, ResponseStatus: status, Error: textOrNull(errText)}
}

// textOrNull is s, or null when it is empty (REST's null for "none").
func textOrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
