package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// deliverWhatsApp sends through the WhatsApp Cloud API: a text, or the
// template the message names (required outside the 24-hour window).
func (d *Dispatcher) deliverWhatsApp(ctx context.Context, job Job) (string, error) {
	pc := job.Inbox.Channel.ProviderConfig
	if pc == nil || pc.APIKey == "" || pc.PhoneNumberID == "" {
		return "", Permanent(fmt.Errorf("whatsapp inbox has no provider_config"))
	}
	payload := whatsAppPayload(job)
	body, err := json.Marshal(payload)
	if err != nil {
		return "", Permanent(err)
	}
	url := strings.TrimRight(d.WhatsAppBase, "/") + "/" + pc.PhoneNumberID + "/messages"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", Permanent(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+pc.APIKey)
	resp, err := d.HTTP.Do(req)
	if err != nil {
		return "", classify("whatsapp cloud api", 0, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err := classify("whatsapp cloud api", resp.StatusCode, nil); err != nil {
		return "", fmt.Errorf("%w: %s", err, strings.TrimSpace(string(raw)))
	}
	var out struct {
		Messages []struct {
			ID string `json:"id"`
		} `json:"messages"`
	}
	if json.Unmarshal(raw, &out) == nil && len(out.Messages) > 0 {
		return out.Messages[0].ID, nil
	}
	return "", nil
}

// whatsAppPayload is the Cloud API request for a message.
func whatsAppPayload(job Job) map[string]any {
	p := map[string]any{
		"messaging_product": "whatsapp",
		"recipient_type":    "individual",
		"to":                strings.TrimPrefix(job.SourceID, "+"),
	}
	tp := job.Message.TemplateParams
	if name, _ := tp["name"].(string); name != "" {
		lang, _ := tp["language"].(string)
		p["type"] = "template"
		p["template"] = map[string]any{
			"name":     name,
			"language": map[string]any{"code": lang},
			"components": []map[string]any{{
				"type": "body", "parameters": templateParameters(tp["processed_params"]),
			}},
		}
		return p
	}
	content := ""
	if job.Message.Content != nil {
		content = *job.Message.Content
	}
	p["type"] = "text"
	p["text"] = map[string]any{"body": content}
	return p
}

// templateParameters orders processed_params {"1": ..., "2": ...} by number.
func templateParameters(raw any) []map[string]any {
	params, _ := raw.(map[string]any)
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, _ := strconv.Atoi(keys[i])
		b, _ := strconv.Atoi(keys[j])
		return a < b
	})
	out := make([]map[string]any, 0, len(keys))
	for _, k := range keys {
		out = append(out, map[string]any{"type": "text", "text": fmt.Sprint(params[k])})
	}
	return out
}
