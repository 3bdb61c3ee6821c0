package wire

import (
	"encoding/json"

	"github.com/switchboard/switchboard/ent"
)

// WebhookDelivery is one entry of a subscription's delivery log.
func WebhookDelivery(d *ent.WebhookDelivery) H {
	return H{
		"id":              d.ID,
		"delivery_id":     d.DeliveryID,
		"event":           d.Event,
		"url":             d.URL,
		"payload":         json.RawMessage(d.Payload),
		"status":          string(d.Status),
		"attempts":        d.Attempts,
		"response_status": IntPtr(d.ResponseStatus),
		"last_error":      NilIfEmpty(d.LastError),
		"next_attempt_at": TimePtr(d.NextAttemptAt),
		"delivered_at":    TimePtr(d.DeliveredAt),
		"created_at":      Time(d.CreatedAt),
	}
}
