package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestConversationShowToggleLabels(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		alice, source := a.contact(ib, H{"name": "Alice", "email": "alice@example.com"})
		id := a.startConversation(a.Account, "", H{"source_id": source, "inbox_id": ib, "message": H{"content": "first"}})
		conv := func(method, suffix string, body any) request {
			return request{method: method, path: a.path("/conversations/%d%s", id, suffix), body: body}
		}
		toggle := func(body any) request { return conv("POST", "/toggle_status", body) }
		current := func(name, status string) scenario {
			return scenario{name: name, request: conv("GET", "", nil), wantStatus: http.StatusOK, want: map[string]any{"status": status}}
		}
		a.run(t, []scenario{
			{
				name:       "show answers the conversation with its id, contact, inbox and last message",
				request:    conv("GET", "", nil),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": id, "uuid": isUUID, "account_id": a.Account, "inbox_id": ib, "status": "open",
					"labels": []any{}, "meta.sender.id": alice, "meta.sender.email": "alice@example.com",
					"meta.channel": "Channel::Api", "messages.0.content": "first", "snoozed_until": nil,
					"created_at": isoTime, "updated_at": isoTime, "timestamp": isoTime,
				},
			},
			status("show of an unknown conversation is 404", request{method: "GET", path: a.path("/conversations/999")}, http.StatusNotFound),
			status("show of a non-numeric id is 404", request{method: "GET", path: a.path("/conversations/abc")}, http.StatusNotFound),
			{
				name:       "toggle_status without status resolves an open conversation",
				request:    toggle(nil),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.success": true, "payload.conversation_id": id, "payload.current_status": "resolved",
					"payload.snoozed_until": nil, "meta": H{},
				},
			},
			current("show has it resolved", "resolved"),
			{
				name:       "toggle_status without status reopens a resolved one",
				request:    toggle(H{}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "open"},
			},
			{
				name:       "toggle_status with status pending sets it",
				request:    toggle(H{"status": "pending"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "pending"},
			},
			current("show has it pending", "pending"),
			{
				name:       "toggle_status without status opens a pending one",
				request:    toggle(nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "open"},
			},
			{
				name:       "toggle_status snoozed with snoozed_until keeps the time",
				request:    toggle(H{"status": "snoozed", "snoozed_until": "2030-01-31T09:00:00Z"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "snoozed", "payload.snoozed_until": "2030-01-31T09:00:00.000Z"},
			},
			{
				name:       "show has it snoozed until then",
				request:    conv("GET", "", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "snoozed", "snoozed_until": "2030-01-31T09:00:00.000Z"},
			},
			{
				name:       "toggle_status resolved clears snoozed_until",
				request:    toggle(H{"status": "resolved"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "resolved", "payload.snoozed_until": nil},
			},
			{
				name:       "toggle_status open sets it",
				request:    toggle(H{"status": "open"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "open"},
			},
			invalid("toggle_status with an unknown status is 422 naming status", toggle(H{"status": "closed"}), "status"),
			invalid("toggle_status with a malformed snoozed_until is 422 naming snoozed_until", toggle(H{"status": "snoozed", "snoozed_until": "tomorrow"}), "snoozed_until"),
			invalid("a snooze until a time gone by is 422 naming snoozed_until", toggle(H{"status": "snoozed", "snoozed_until": "2020-01-01T00:00:00Z"}), "snoozed_until"),
			current("the refused toggles changed nothing", "open"),
			status("toggle_status of an unknown conversation is 404", request{method: "POST", path: a.path("/conversations/999/toggle_status"), body: H{}}, http.StatusNotFound),
			{
				name:       "labels of a conversation without labels is {payload: []}",
				request:    conv("GET", "/labels", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "POST labels sets them and answers the full list",
				request:    conv("POST", "/labels", H{"labels": []string{"billing", "vip"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("billing", "vip")},
			},
			{
				name:       "GET labels answers them",
				request:    conv("GET", "/labels", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("billing", "vip")},
			},
			{
				name:       "POST labels replaces the whole set",
				request:    conv("POST", "/labels", H{"labels": []string{"vip", "lead"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("vip", "lead")},
			},
			{
				name:       "the conversation shows the replaced set",
				request:    conv("GET", "", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"labels": sameItems("vip", "lead")},
			},
			invalid("POST labels without labels is 422 naming labels", conv("POST", "/labels", H{}), "labels"),
			invalid("POST labels with labels that are not a list is 422 naming labels", conv("POST", "/labels", H{"labels": H{"a": 1}}), "labels"),
			{
				name:       "the refused label writes changed nothing",
				request:    conv("GET", "/labels", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("vip", "lead")},
			},
			{
				name:       "POST labels with an empty list clears them",
				request:    conv("POST", "/labels", H{"labels": []string{}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			status("labels of an unknown conversation is 404", request{method: "GET", path: a.path("/conversations/999/labels")}, http.StatusNotFound),
			status("labels write of an unknown conversation is 404", request{method: "POST", path: a.path("/conversations/999/labels"), body: H{"labels": []string{"x"}}}, http.StatusNotFound),
		})
	})
}
