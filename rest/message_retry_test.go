package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

func (r *receiver) setStatus(status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status = status
}

// listedMessage is message id as the conversation's message list shows it.
func (a *app) listedMessage(conv, id int) map[string]any {
	r := a.mustDo(request{method: "GET", path: a.path("/conversations/%d/messages", conv)}, http.StatusOK)
	list, _ := r.get("payload")
	items, _ := list.([]any)
	for _, it := range items {
		if m, _ := it.(map[string]any); m != nil && m["id"] == float64(id) {
			return m
		}
	}
	a.t.Fatalf("message %d not in conversation %d", id, conv)
	return nil
}

// TestRetryAFailedMessage: a message whose retries are spent shows why and
// how often it was tried; Chatwoot's retry route sends it again with a
// fresh budget, and only a failed message can be retried.
func TestRetryAFailedMessage(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		rc := newReceiver(t, http.StatusServiceUnavailable)
		a := newDeliveryApp(t, e, "")
		ib := a.inbox("Flaky", H{"type": "api", "webhook_url": rc.URL})
		ct, _ := a.contact(ib, H{"name": "Ann"})
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
		id := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": "hello"}}, http.StatusOK).int(t, "id")
		waitFor(t, "the message to fail", func() bool { st, _ := a.messageStatus(conv, id); return st == "failed" })
		d, _ := a.listedMessage(conv, id)["delivery"].(map[string]any)
		if d["state"] != "failed" || d["attempts"] != float64(1+fastRetries.Messages.Retries()) ||
			!strings.Contains(d["last_error"].(string), "503") || d["next_attempt_at"] != nil {
			t.Errorf("a failed message's delivery shows %v", d)
		}

		rc.setStatus(http.StatusOK)
		retry := func(conv, id int) request {
			return request{method: "POST", path: a.path("/conversations/%d/messages/%d/retry", conv, id)}
		}
		a.run(t, []scenario{{
			name: "a failed message is sent again", request: retry(conv, id), wantStatus: http.StatusOK,
			want: map[string]any{"id": id, "status": "sent", "content_attributes.external_error": absent,
				"delivery.attempts": 0, "delivery.last_error": ""},
		}})
		waitFor(t, "the retried message to be delivered", func() bool { st, _ := a.messageStatus(conv, id); return st == "delivered" })
		a.run(t, []scenario{
			{name: "a delivered message cannot be retried", request: retry(conv, id), wantStatus: http.StatusConflict},
			{name: "an unknown message", request: retry(conv, id+1000), wantStatus: http.StatusNotFound},
			{name: "a message of another conversation", request: retry(conv+1000, id), wantStatus: http.StatusNotFound},
			{name: "a malformed id", request: retry(conv, 0), wantStatus: http.StatusNotFound},
		})
	})
}
