package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// snoozed_until belongs to snoozed conversations only: every other status,
// reached by toggle_status or given on create, leaves it null.
func TestSnoozedUntilOnlyWhileSnoozed(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		alice, _ := a.contact(ib, H{"name": "Alice"})
		bob, _ := a.contact(ib, H{"name": "Bob"})
		carol, _ := a.contact(ib, H{"name": "Carol"})
		const until, untilISO = "2030-01-31T09:00:00Z", "2030-01-31T09:00:00.000Z"
		var id int
		create := func(contact int, status string) request {
			return request{method: "POST", path: a.path("/conversations"),
				body: H{"inbox_id": ib, "contact_id": contact, "status": status, "snoozed_until": until}}
		}
		toggle := func(body any) request {
			return request{method: "POST", path: a.path("/conversations/%d/toggle_status", id), body: body}
		}
		shows := func(name, status string, snoozed any) scenario {
			return scenario{name: name, request: request{method: "GET", path: a.path("/conversations/%d", id)},
				wantStatus: http.StatusOK, want: map[string]any{"status": status, "snoozed_until": snoozed}}
		}
		a.run(t, []scenario{
			{
				name:       "create snoozed with snoozed_until keeps the time",
				request:    create(alice, "snoozed"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "snoozed", "snoozed_until": untilISO},
				check:      func(t *testing.T, r *response) { id = r.int(t, "id") },
			},
		})
		a.run(t, []scenario{
			{
				name:       "toggle_status without status opens it and clears snoozed_until",
				request:    toggle(nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "open", "payload.snoozed_until": nil},
			},
			shows("show has it open without snoozed_until", "open", nil),
			{
				name:       "toggle_status snoozed with snoozed_until snoozes it again",
				request:    toggle(H{"status": "snoozed", "snoozed_until": until}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.snoozed_until": untilISO},
			},
			{
				name:       "toggle_status snoozed without snoozed_until keeps the time it had",
				request:    toggle(H{"status": "snoozed"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "snoozed", "payload.snoozed_until": untilISO},
			},
			{
				name:       "toggle_status pending clears it",
				request:    toggle(H{"status": "pending"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "pending", "payload.snoozed_until": nil},
			},
			shows("show has it pending without snoozed_until", "pending", nil),
			{
				name:       "toggle_status snoozed without a time after another status has none",
				request:    toggle(H{"status": "snoozed"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "snoozed", "payload.snoozed_until": nil},
			},
			{
				name:       "toggle_status open ignores a snoozed_until sent with it",
				request:    toggle(H{"status": "open", "snoozed_until": until}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "open", "payload.snoozed_until": nil},
			},
			shows("show has it open without snoozed_until again", "open", nil),
			{
				name:       "create open ignores a snoozed_until sent with it",
				request:    create(bob, "open"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "open", "snoozed_until": nil},
			},
			{
				name:       "create pending ignores it too",
				request:    create(carol, "pending"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "pending", "snoozed_until": nil},
			},
		})
	})
}
