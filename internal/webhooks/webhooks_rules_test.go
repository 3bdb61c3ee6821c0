package webhooks

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
)

func ptr[T any](v T) *T { return &v }

// A create needs a URL the service may call and at least one known event;
// an update checks only what it was sent.
func TestCheckWebhook(t *testing.T) {
	outboundtest.AllowPrivate(t, false)
	const hook = "https://hooks.acme.test/in"
	for _, tc := range []struct {
		name       string
		in         WebhookInput
		create     bool
		wantFields []string
	}{
		{"create", WebhookInput{URL: ptr(hook), Subscriptions: []string{"message_created", "kanban_item.moved"}}, true, nil},
		{"create with nothing", WebhookInput{}, true, []string{"url", "subscriptions"}},
		{"create without events", WebhookInput{URL: ptr(hook), Subscriptions: []string{}}, true, []string{"subscriptions"}},
		{"create to loopback", WebhookInput{URL: ptr("http://127.0.0.1:9000/in"), Subscriptions: []string{"contact_created"}}, true, []string{"url"}},
		{"create not http", WebhookInput{URL: ptr("hooks.acme.test/in"), Subscriptions: []string{"contact_created"}}, true, []string{"url"}},
		{"unknown event", WebhookInput{URL: ptr(hook), Subscriptions: []string{"contact_created", "contact_deleted", "nope"}}, true, []string{"subscriptions"}},
		{"a test event is not subscribable", WebhookInput{URL: ptr(hook), Subscriptions: []string{string(events.KanbanWebhookTest)}}, true, []string{"subscriptions"}},
		{"update nothing", WebhookInput{}, false, nil},
		{"update name only", WebhookInput{Name: ptr("CRM")}, false, nil},
		{"update to localhost", WebhookInput{URL: ptr("http://localhost/in")}, false, []string{"url"}},
		{"update to an unknown event", WebhookInput{Subscriptions: []string{"message_deleted"}}, false, []string{"subscriptions"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkWebhook(tc.in, tc.create)
			if tc.wantFields == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Kind != apperr.KindInvalid || !reflect.DeepEqual(ae.Fields, tc.wantFields) {
				t.Errorf("got %#v, want a 422 on %v", err, tc.wantFields)
			}
		})
	}
}

// The body is the payload with the event's name and the change's time in
// the wire format beside it.
func TestWebhookBody(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 678_900_000, time.FixedZone("CET", 3600))
	raw, err := WebhookBody(events.ContactUpdated, func() (map[string]any, error) {
		return map[string]any{"id": 7, "name": "Ada", "custom_attributes": map[string]any{}}, nil
	}, at)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("body %s is not JSON: %v", raw, err)
	}
	want := map[string]any{"event": "contact_updated", "occurred_at": "2030-01-02T02:04:05.678Z",
		"id": 7.0, "name": "Ada", "custom_attributes": map[string]any{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("body %v, want %v", got, want)
	}

	errBuild := errors.New("conversation gone")
	if raw, err := WebhookBody(events.MessageCreated, func() (map[string]any, error) { return nil, errBuild }, at); !errors.Is(err, errBuild) || raw != "" {
		t.Errorf("a failed payload gave %q, %v; want no body and %v", raw, err, errBuild)
	}
}

func TestNewDeliveryID(t *testing.T) {
	a, b := NewDeliveryID(), NewDeliveryID()
	if a == b || len(a) != len("msg_")+32 || a[:4] != "msg_" {
		t.Errorf("delivery ids %q and %q: want distinct msg_ and 32 hex digits", a, b)
	}
}
