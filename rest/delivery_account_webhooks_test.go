package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/webhook"
)

func TestAccountWebhooksAreSignedAndLogged(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		hook := newReceiver(t, http.StatusOK)
		a := newDeliveryApp(t, e, "")
		_, agent := a.agent(a.Account)
		var secret string
		var hookID int
		a.run(t, []scenario{
			status("an agent cannot subscribe", request{method: "POST", path: a.path("/webhooks"), token: agent,
				body: H{"url": hook.URL, "subscriptions": []string{"contact_created"}}}, http.StatusForbidden),
			invalid("an unknown event is refused", request{method: "POST", path: a.path("/webhooks"),
				body: H{"url": hook.URL, "subscriptions": []string{"everything"}}}, "subscriptions"),
			invalid("a URL is required", request{method: "POST", path: a.path("/webhooks"),
				body: H{"subscriptions": []string{"contact_created"}}}, "url"),
			{
				name:       "create answers the secret once",
				request:    request{method: "POST", path: a.path("/webhooks"), body: H{"url": hook.URL, "subscriptions": []string{"contact_created", "conversation_created"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.webhook.url": hook.URL, "payload.webhook.subscriptions": []any{"contact_created", "conversation_created"}},
				check: func(t *testing.T, r *response) {
					secret, hookID = r.str(t, "payload.webhook.secret"), r.int(t, "payload.webhook.id")
				},
			},
		})
		if len(secret) < 10 || secret[:6] != "whsec_" {
			t.Fatalf("secret %q is not whsec_...", secret)
		}
		a.run(t, []scenario{{
			name:       "the list never shows the secret",
			request:    request{method: "GET", path: a.path("/webhooks")},
			wantStatus: http.StatusOK,
			want:       map[string]any{"payload.webhooks.#": 1, "payload.webhooks.0.secret": absent},
		},
			invalid("a change to no events is refused, as a webhook made with none", request{method: "PATCH",
				path: a.path("/webhooks/%d", hookID), body: H{"subscriptions": []string{}}}, "subscriptions"),
			invalid("a webhook for one inbox is refused, not made for all of them", request{method: "POST", path: a.path("/webhooks"),
				body: H{"url": hook.URL, "subscriptions": []string{"message_created"}, "inbox_id": 1}}, "inbox_id"),
			{name: "nothing of the two changed", request: request{method: "GET", path: a.path("/webhooks")}, wantStatus: http.StatusOK,
				want: map[string]any{"payload.webhooks.#": 1, "payload.webhooks.0.subscriptions": []any{"contact_created", "conversation_created"}}},
		})

		a.contact(a.apiInbox("API"), H{"name": "Signed"})
		waitFor(t, "the contact_created webhook", func() bool { return len(hook.requests()) >= 1 })
		got := hook.requests()[0]
		if err := webhook.Verify(secret, got.Header, got.Body, time.Now(), 5*time.Minute); err != nil {
			t.Errorf("the webhook does not verify with the subscription's secret: %v", err)
		}
		var body map[string]any
		if err := json.Unmarshal(got.Body, &body); err != nil || body["event"] != "contact_created" || body["name"] != "Signed" {
			t.Errorf("webhook body %s, want contact_created for Signed", got.Body)
		}
		// Deliveries may arrive out of order: each says when its change happened.
		if at, err := time.Parse(time.RFC3339, fmt.Sprint(body["occurred_at"])); err != nil || time.Since(at) > time.Minute {
			t.Errorf("webhook occurred_at %v, want the time of the change", body["occurred_at"])
		}
		// One wire format: the webhook's contact is the REST API's contact.
		shown := a.mustDo(request{method: "GET", path: a.path("/contacts/%v", body["id"])}, http.StatusOK)
		sameObject(t, "the contact_created webhook", body, mustGet(t, shown, "payload"), "event", "occurred_at", "account", "contact_inboxes")
		waitFor(t, "the delivery log to say delivered", func() bool {
			r := a.mustDo(request{method: "GET", path: a.path("/webhooks/%d/deliveries", hookID)}, http.StatusOK)
			st, _ := r.get("payload.0.status")
			return st == "delivered"
		})
		r := a.mustDo(request{method: "GET", path: a.path("/webhooks/%d/deliveries", hookID)}, http.StatusOK)
		logged, _ := json.Marshal(mustGet(t, r, "payload.0.payload"))
		var a1, a2 any
		_ = json.Unmarshal(logged, &a1)
		_ = json.Unmarshal(got.Body, &a2)
		if !jsonEqual(a1, a2) || r.str(t, "payload.0.delivery_id") != got.Header.Get("webhook-id") {
			t.Errorf("the log differs from what was sent:\nlog  %s (%s)\nsent %s (%s)", logged, r.str(t, "payload.0.delivery_id"), got.Body, got.Header.Get("webhook-id"))
		}
		cv := a.mustDo(request{method: "POST", path: a.path("/conversations"), body: H{"inbox_id": a.apiInbox("API 2"),
			"contact_id": body["id"]}}, http.StatusOK).int(t, "id")
		waitFor(t, "the conversation_created webhook", func() bool { return len(hook.requests()) >= 2 })
		var convBody map[string]any
		_ = json.Unmarshal(hook.requests()[1].Body, &convBody)
		shownConv := a.mustDo(request{method: "GET", path: a.path("/conversations/%d", cv)}, http.StatusOK)
		sameObject(t, "the conversation_created webhook", convBody, shownConv.JSON, "event", "occurred_at", "messages")
	})
}

func mustGet(t *testing.T, r *response, path string) any {
	t.Helper()
	v, ok := r.get(path)
	if !ok {
		t.Fatalf("no %s in %s", path, r)
	}
	return v
}

// sameObject fails unless the webhook body and the REST object have the same
// keys with the same values, but for the keys named as belonging to one side.
func sameObject(t *testing.T, what string, hook map[string]any, rest any, oneSided ...string) {
	t.Helper()
	restObj, _ := rest.(map[string]any)
	for _, k := range oneSided {
		delete(hook, k)
		delete(restObj, k)
	}
	if !jsonEqual(hook, restObj) {
		t.Errorf("%s differs from the REST object:\nwebhook %v\nREST    %v", what, hook, restObj)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
