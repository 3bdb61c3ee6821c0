package wire

import (
	"time"

	"github.com/switchboard/switchboard/ent"
)

// attempt is one entry of a delivery's attempt log.
func attempt(id, number int, started time.Time, durationMs int, outcome string, status *int, errText string) H {
	return H{
		"id": id, "attempt": number, "started_at": Time(started), "duration_ms": durationMs,
		"outcome": outcome, "response_status": IntPtr(status), "error": NilIfEmpty(errText),
	}
}

// WebhookAttempt is an attempt at a webhook delivery.
func WebhookAttempt(a *ent.WebhookDeliveryAttempt) H {
	return attempt(a.ID, a.Attempt, a.StartedAt, a.DurationMs, string(a.Outcome), a.ResponseStatus, a.Error)
}

// MessageAttempt is an attempt at sending a message through its channel.
func MessageAttempt(a *ent.MessageDeliveryAttempt) H {
	return attempt(a.ID, a.Attempt, a.StartedAt, a.DurationMs, string(a.Outcome), a.ResponseStatus, a.Error)
}
