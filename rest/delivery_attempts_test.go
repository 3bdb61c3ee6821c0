package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Every attempt at a delivery is logged — when, how long, what came of it,
// the receiver's status and error — latest first, for whoever may see the
// delivery: a webhook's for administrators, a message's for the agents of
// its inbox.
func TestDeliveryAttemptsAreLogged(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		down := newReceiver(t, http.StatusServiceUnavailable)
		up := newReceiver(t, http.StatusOK)
		a := newDeliveryApp(t, e, "")
		attempts := 1 + fastRetries.Webhooks.Retries()
		hook := a.mustDo(request{method: "POST", path: a.path("/webhooks"),
			body: H{"url": down.URL, "subscriptions": []string{"contact_created"}}}, http.StatusOK).int(t, "payload.webhook.id")
		ib := a.inbox("Up", H{"type": "api", "webhook_url": up.URL})
		ct, _ := a.contact(ib, H{"name": "Ann"})
		waitFor(t, "the webhook delivery to fail", func() bool {
			r := a.mustDo(request{method: "GET", path: a.path("/webhooks/%d/deliveries", hook)}, http.StatusOK)
			st, _ := r.get("payload.0.status")
			return st == "failed"
		})
		delivery := a.mustDo(request{method: "GET", path: a.path("/webhooks/%d/deliveries", hook)}, http.StatusOK).int(t, "payload.0.id")
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
		m := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": "hello"}}, http.StatusOK).int(t, "id")
		waitFor(t, "the message to be delivered", func() bool { st, _ := a.messageStatus(conv, m); return st == "delivered" })
		channelDown := newReceiver(t, http.StatusServiceUnavailable)
		ibDown := a.inbox("Down", H{"type": "api", "webhook_url": channelDown.URL})
		convDown := a.startConversation(a.Account, a.Admin, H{"inbox_id": ibDown, "contact_id": ct})
		failed := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", convDown), body: H{"content": "lost"}}, http.StatusOK).int(t, "id")
		waitFor(t, "the message to fail", func() bool { st, _ := a.messageStatus(convDown, failed); return st == "failed" })
		_, agent := a.agent(a.Account)

		a.run(t, []scenario{
			{
				name:       "a failed webhook delivery's attempts, latest first",
				request:    request{method: "GET", path: a.path("/webhooks/%d/deliveries/%d/attempts", hook, delivery)},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.#": attempts, "payload.0.attempt": attempts, "payload.0.outcome": "failed",
					"payload.0.response_status": 503, "payload.0.error": "receiver answered 503",
					"payload.0.started_at": isoTime, "payload.0.duration_ms": present,
					"payload.1.outcome": "retrying", "payload.1.attempt": attempts - 1,
				},
			},
			status("an agent may not read a webhook's attempts",
				request{method: "GET", path: a.path("/webhooks/%d/deliveries/%d/attempts", hook, delivery), token: agent}, http.StatusForbidden),
			status("another webhook's delivery is not found",
				request{method: "GET", path: a.path("/webhooks/%d/deliveries/%d/attempts", hook+1000, delivery)}, http.StatusNotFound),
			{
				name:       "a delivered message's one attempt",
				request:    request{method: "GET", path: a.path("/conversations/%d/messages/%d/attempts", conv, m)},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.#": 1, "payload.0.attempt": 1, "payload.0.outcome": "delivered",
					"payload.0.error": nil, "payload.0.response_status": nil,
				},
			},
			{
				name:       "a failed message's attempts keep the channel's answer, as a webhook delivery's do",
				request:    request{method: "GET", path: a.path("/conversations/%d/messages/%d/attempts", convDown, failed)},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.0.outcome": "failed", "payload.0.response_status": 503, "payload.0.error": "webhook answered 503",
					"payload.1.outcome": "retrying", "payload.1.response_status": 503,
				},
			},
			status("a message of another conversation is not found",
				request{method: "GET", path: a.path("/conversations/%d/messages/%d/attempts", conv+1000, m)}, http.StatusNotFound),
		})
		if n := len(down.requests()); n != attempts {
			t.Errorf("the receiver got %d attempts, the log shows %d", n, attempts)
		}
		if !strings.Contains(string(up.requests()[0].Body), "hello") {
			t.Errorf("the channel got %s", up.requests()[0].Body)
		}
	})
}

// TestRetriedDeliveriesNumberAttemptsOn: a retry by hand restarts the retry
// budget, but the attempt log numbers on from the attempts before it (it
// said 1, 2, ... again, so two attempts had each number).
func TestRetriedDeliveriesNumberAttemptsOn(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		down := newReceiver(t, http.StatusServiceUnavailable)
		a := newDeliveryApp(t, e, "")
		webhookTries, messageTries := 1+fastRetries.Webhooks.Retries(), 1+fastRetries.Messages.Retries()
		hook := a.mustDo(request{method: "POST", path: a.path("/webhooks"),
			body: H{"url": down.URL, "subscriptions": []string{"contact_created"}}}, http.StatusOK).int(t, "payload.webhook.id")
		ib := a.inbox("Down", H{"type": "api", "webhook_url": down.URL})
		ct, _ := a.contact(ib, H{"name": "Ann"})
		deliveries := a.path("/webhooks/%d/deliveries", hook)
		deliveryFailed := func() bool {
			st, _ := a.mustDo(request{method: "GET", path: deliveries}, http.StatusOK).get("payload.0.status")
			return st == "failed"
		}
		waitFor(t, "the webhook delivery to fail", deliveryFailed)
		delivery := a.mustDo(request{method: "GET", path: deliveries}, http.StatusOK).int(t, "payload.0.id")
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
		m := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": "lost"}}, http.StatusOK).int(t, "id")
		messageFailed := func() bool { st, _ := a.messageStatus(conv, m); return st == "failed" }
		waitFor(t, "the message to fail", messageFailed)

		a.mustDo(request{method: "POST", path: a.path("/webhooks/%d/deliveries/%d/retry", hook, delivery)}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages/%d/retry", conv, m)}, http.StatusOK)
		waitFor(t, "the retried webhook delivery to fail again", deliveryFailed)
		waitFor(t, "the retried message to fail again", messageFailed)

		a.run(t, []scenario{
			attemptsAfterRetry("the webhook delivery's attempts after a retry by hand",
				a.path("/webhooks/%d/deliveries/%d/attempts", hook, delivery), webhookTries),
			attemptsAfterRetry("the message's attempts after a retry by hand",
				a.path("/conversations/%d/messages/%d/attempts", conv, m), messageTries),
		})
	})
}

// attemptsAfterRetry expects the attempt log at path after tries attempts,
// a retry by hand and tries more, all failed: numbered 1 to 2×tries, latest
// first, the first run's last attempt (failed) followed by the second's.
func attemptsAfterRetry(name, path string, tries int) scenario {
	return scenario{
		name:       name,
		request:    request{method: "GET", path: path},
		wantStatus: http.StatusOK,
		want: map[string]any{
			"payload.#": 2 * tries, "payload.0.attempt": 2 * tries, "payload.0.outcome": "failed",
			fmt.Sprintf("payload.%d.attempt", tries-1): tries + 1,
			fmt.Sprintf("payload.%d.attempt", tries):   tries,
			fmt.Sprintf("payload.%d.outcome", tries):   "failed",
		},
	}
}
