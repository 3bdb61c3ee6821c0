package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
)

// deliverAPI posts the message event to the API inbox's webhook URL; any
// 2xx means delivered.
func (d *Dispatcher) deliverAPI(ctx context.Context, job Job) error {
	body, err := json.Marshal(job.Payload)
	if err != nil {
		return Permanent(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, job.Inbox.Channel.WebhookURL, bytes.NewReader(body))
	if err != nil {
		return Permanent(err)
	}
	req.Header.Set("Content-Type", "application/json")
	// A stable id per message: receivers dedupe the at-least-once retries on it.
	req.Header.Set("X-Switchboard-Message-Id", strconv.Itoa(job.Message.ID))
	resp, err := d.HTTP.Do(req)
	if err != nil {
		return classify("webhook", 0, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return classify("webhook", resp.StatusCode, nil)
}
