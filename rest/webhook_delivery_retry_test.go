package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestWebhookDeliveryFailsOn4xxAndCanBeRetried: a receiver answering 404
// fails the delivery at once (another attempt would get the same), with
// the reason in the log; 408 and 429 are retried; an administrator's retry
// sends a failed delivery again with the same webhook-id, and only a
// failed one can be retried.
func TestWebhookDeliveryFailsOn4xxAndCanBeRetried(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		for _, tc := range []struct {
			status   int
			attempts int // before the delivery fails
		}{
			{http.StatusNotFound, 1},
			{http.StatusRequestTimeout, 1 + fastRetries.Webhooks.Retries()},
			{http.StatusTooManyRequests, 1 + fastRetries.Webhooks.Retries()},
		} {
			rc := newReceiver(t, tc.status)
			a := newDeliveryApp(t, e, "")
			hookID := a.mustDo(request{method: "POST", path: a.path("/webhooks"),
				body: H{"url": rc.URL, "subscriptions": []string{"contact_created"}}}, http.StatusOK).int(t, "payload.webhook.id")
			a.contact(a.apiInbox("API"), H{"name": "Ann"})
			log := func() *response {
				return a.mustDo(request{method: "GET", path: a.path("/webhooks/%d/deliveries", hookID)}, http.StatusOK)
			}
			waitFor(t, "the delivery to fail", func() bool { st, _ := log().get("payload.0.status"); return st == "failed" })
			entry := log()
			if n := entry.int(t, "payload.0.attempts"); n != tc.attempts || len(rc.requests()) != tc.attempts {
				t.Errorf("answering %d: %d attempts logged, %d received, want %d", tc.status, n, len(rc.requests()), tc.attempts)
			}
			if msg, _ := entry.get("payload.0.last_error"); msg != "receiver answered "+itoa(tc.status) {
				t.Errorf("answering %d: last_error %v", tc.status, msg)
			}
			if tc.status != http.StatusNotFound {
				continue
			}
			id := entry.int(t, "payload.0.id")
			retry := func(hook, id int) request {
				return request{method: "POST", path: a.path("/webhooks/%d/deliveries/%d/retry", hook, id)}
			}
			rc.setStatus(http.StatusOK)
			a.run(t, []scenario{{
				name: "a failed delivery is sent again", request: retry(hookID, id), wantStatus: http.StatusOK,
				want: map[string]any{"payload.id": id, "payload.status": "pending", "payload.attempts": 0},
			}})
			waitFor(t, "the retried delivery", func() bool { st, _ := log().get("payload.0.status"); return st == "delivered" })
			if got := rc.requests(); got[0].Header.Get("webhook-id") != got[1].Header.Get("webhook-id") {
				t.Errorf("the retry came with webhook-id %q, the first attempt with %q",
					got[1].Header.Get("webhook-id"), got[0].Header.Get("webhook-id"))
			}
			a.run(t, []scenario{
				{name: "a delivered one cannot be retried", request: retry(hookID, id), wantStatus: http.StatusConflict},
				{name: "an unknown delivery", request: retry(hookID, id+1000), wantStatus: http.StatusNotFound},
				{name: "another webhook's", request: retry(hookID+1000, id), wantStatus: http.StatusNotFound},
			})
		}
	})
}
