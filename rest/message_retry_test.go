package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

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

// TestRetryingAFailedScheduledMessageKeepsItsScheduleFailed: a schedule
// whose message failed stays failed (with its reason) when an agent retries
// the message and it is delivered: the settling of deliveries reads a
// message's schedule by the message alone and leaves a settled one as it is,
// with no second scheduled_message event.
func TestRetryingAFailedScheduledMessageKeepsItsScheduleFailed(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		rc := newReceiver(t, http.StatusUnprocessableEntity)
		a := newDeliveryApp(t, e, "")
		ib := a.inbox("Refusing", H{"type": "api", "webhook_url": rc.URL})
		ct, _ := a.contact(ib, H{"name": "Ann"})
		hooks := newReceiver(t, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/webhooks"), body: H{"url": hooks.URL,
			"subscriptions": []string{"scheduled_message.sent", "scheduled_message.failed"}}}, http.StatusOK)
		at := time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano)
		id := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{
			"inbox_id": ib, "contact_id": ct, "content": "See you tomorrow", "scheduled_at": at}}, http.StatusOK).int(t, "id")
		failed := a.waitForScheduleStatus(id, "failed")
		conv, msg := failed.int(t, "conversation_id"), failed.int(t, "message_id")
		reason := failed.str(t, "failure_reason")

		rc.setStatus(http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages/%d/retry", conv, msg)}, http.StatusOK)
		waitFor(t, "the retried message to be delivered", func() bool { st, _ := a.messageStatus(conv, msg); return st == "delivered" })
		a.run(t, []scenario{{
			name: "the schedule stays failed", request: request{method: "GET", path: a.path("/scheduled_messages/%d", id)},
			wantStatus: http.StatusOK, want: map[string]any{"status": "failed", "failure_reason": reason, "sent_at": nil},
		}})
		events := map[string]int{}
		for _, d := range a.srv.DB.Client.WebhookDelivery.Query().AllX(sys()) {
			events[d.Event]++
		}
		if events["scheduled_message.failed"] != 1 || events["scheduled_message.sent"] != 0 {
			t.Errorf("webhook events %v, want one scheduled_message.failed and no scheduled_message.sent", events)
		}
	})
}
