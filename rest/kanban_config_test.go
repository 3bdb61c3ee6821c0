package rest_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/webhook"
)

// The kanban webhook (/kanban_config, signed with its own secret) and the
// live events every kanban change publishes (issue 6).

func TestKanbanConfigWebhookAndLiveEvents(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		hook := newReceiver(t, http.StatusOK)
		a := newDeliveryApp(t, e, "")
		_, agent := a.agent(a.Account)
		cfg := a.path("/kanban_config")
		var secret string
		a.run(t, []scenario{
			status("an agent may not read the config (it holds the secret)", as(agent, request{method: "GET", path: cfg}), http.StatusForbidden),
			status("an agent may not change it", as(agent, request{method: "PUT", path: cfg, body: H{"webhook_url": hook.URL}}), http.StatusForbidden),
			status("an agent may not test it", as(agent, request{method: "POST", path: cfg + "/test_webhook"}), http.StatusForbidden),
			status("deleting a config that does not exist is 404", request{method: "DELETE", path: cfg}, http.StatusNotFound),
			{
				name: "GET creates the default config and shows its new secret, this once", request: request{method: "GET", path: cfg}, wantStatus: http.StatusOK,
				want:  map[string]any{"enabled": true, "webhook_url": "", "webhook_secret": nonEmpty, "webhook_events.#": 5},
				check: func(t *testing.T, r *response) { secret = r.str(t, "webhook_secret") },
			},
			{
				name: "a later GET does not show the secret (issue 10)", request: request{method: "GET", path: cfg}, wantStatus: http.StatusOK,
				want:  map[string]any{"enabled": true, "webhook_secret": absent},
				check: func(t *testing.T, r *response) { bodyLacks(secret)(t, r) },
			},
			invalid("test_webhook without a URL is 422", request{method: "POST", path: cfg + "/test_webhook"}, "webhook_url"),
			invalid("a URL that is not http(s) is 422", request{method: "PUT", path: cfg, body: H{"kanban_config": H{"webhook_url": "ftp://x"}}}, "webhook_url"),
			invalid("a secret that is not whsec_ base64 is 422", request{method: "PUT", path: cfg, body: H{"webhook_secret": "hunter2"}}, "webhook_secret"),
			invalid("an unknown event is 422", request{method: "PUT", path: cfg, body: H{"webhook_events": []string{"kanban_item.exploded"}}}, "webhook_events"),
			{
				name: "PUT sets the URL and keeps the secret", request: request{method: "PUT", path: cfg, body: H{"kanban_config": H{"webhook_url": hook.URL}}},
				wantStatus: http.StatusOK, want: map[string]any{"webhook_url": hook.URL, "webhook_secret": absent},
				check: func(t *testing.T, r *response) {
					stored, err := a.srv.DB.Client.KanbanConfig.Query().Only(sys())
					if err != nil || stored.WebhookSecret != secret {
						t.Errorf("the secret changed (%v)", err)
					}
				},
			},
			{
				name: "test_webhook sends a signed kanban.test and reports the answer", request: request{method: "POST", path: cfg + "/test_webhook"},
				wantStatus: http.StatusOK, want: map[string]any{"success": true, "response_code": 200},
				check: func(t *testing.T, r *response) {
					got := hook.requests()
					if len(got) != 1 {
						t.Fatalf("the receiver got %d requests, want 1", len(got))
					}
					if err := webhook.Verify(secret, got[0].Header, got[0].Body, time.Now(), time.Minute); err != nil {
						t.Errorf("the test event does not verify with the config's secret: %v", err)
					}
					var body map[string]any
					if json.Unmarshal(got[0].Body, &body); body["event"] != "kanban.test" {
						t.Errorf("want a kanban.test event, got %s", got[0].Body)
					}
				},
			},
		})

		var regenerated string
		a.run(t, []scenario{
			{
				name: "regenerate_secret shows the new secret, this once", request: request{method: "PATCH", path: cfg, body: H{"regenerate_secret": true}},
				wantStatus: http.StatusOK, want: map[string]any{"webhook_secret": nonEmpty},
				check: func(t *testing.T, r *response) {
					if regenerated = r.str(t, "webhook_secret"); regenerated == secret {
						t.Error("the secret did not change")
					}
				},
			},
			{name: "GET hides it again", request: request{method: "GET", path: cfg}, wantStatus: http.StatusOK,
				want: map[string]any{"webhook_secret": absent}},
		})
		secret = regenerated

		live := a.srv.Events.Subscribe(a.Account)
		defer live.Cancel()
		sales := a.funnel("Sales", "new", "won")
		card := a.mustDo(request{method: "POST", path: a.path("/kanban_items"), token: agent,
			body: H{"funnel_id": sales, "item_details": H{"title": "Live"}}}, http.StatusOK).int(t, "id")
		expectLive(t, live.Events, events.KanbanItemCreated, card, sales)
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/move_to_stage", card), token: agent, body: H{"funnel_stage": "won"}}, http.StatusOK)
		expectLive(t, live.Events, events.KanbanItemMoved, card, sales)

		waitFor(t, "the kanban webhook to receive created and moved", func() bool { return len(hook.requests()) >= 3 })
		for _, got := range hook.requests()[1:] {
			if err := webhook.Verify(secret, got.Header, got.Body, time.Now(), time.Minute); err != nil {
				t.Errorf("a kanban event does not verify with the config's secret: %v", err)
			}
		}
		// Deliveries run concurrently: created and moved may arrive in
		// either order.
		var moved map[string]any
		for _, got := range hook.requests()[1:] {
			var ev map[string]any
			if json.Unmarshal(got.Body, &ev) == nil && ev["event"] == "kanban_item.moved" {
				moved = ev
			}
		}
		if moved["event"] != "kanban_item.moved" || moved["to_stage"] != "won" {
			t.Errorf("want the moved event to stage won, got %v", moved)
		}

		a.mustDo(request{method: "PATCH", path: cfg, body: H{"webhook_events": []string{"kanban_item.moved"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/change_status", card), token: agent, body: H{"status": "won"}}, http.StatusOK)
		expectLive(t, live.Events, events.KanbanItemStatusChanged, card, sales)
		n, err := a.srv.DB.Client.WebhookDelivery.Query().Where(webhookdelivery.KanbanTarget(true),
			webhookdelivery.Event("kanban_item.status_changed")).Count(sys())
		if err != nil || n != 0 {
			t.Errorf("an event the config does not want was queued for it (%d, %v)", n, err)
		}
		a.run(t, []scenario{
			status("an agent may not delete the config", as(agent, request{method: "DELETE", path: cfg}), http.StatusForbidden),
			{name: "DELETE removes the config", request: request{method: "DELETE", path: cfg}, wantStatus: http.StatusOK},
			status("it is gone", request{method: "DELETE", path: cfg}, http.StatusNotFound),
		})
	})
}

// expectLive waits for the next live event and checks it.
func expectLive(t *testing.T, live <-chan events.Event, kind events.Kind, cardID, funnelID int) {
	t.Helper()
	select {
	case ev := <-live:
		if ev.Kind != kind || ev.KanbanItemID != cardID || ev.FunnelID != funnelID {
			t.Errorf("live event %+v, want %s of card %d in funnel %d", ev, kind, cardID, funnelID)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no live %s event", kind)
	}
}
