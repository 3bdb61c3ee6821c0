package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestEveryChangeTellsItsListeners: each change reaches the account's
// listeners as exactly one event of its kind, through the one notifier;
// reads, refusals and invalid input tell nothing.
func TestEveryChangeTellsItsListeners(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		ib := a.apiInbox("API")
		sales := a.funnel("Sales", "new", "won")
		contact, _ := a.contact(ib, H{"name": "Ann"})
		var conv, card, schedule int
		soon := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		none := []events.Kind{}
		a.run(t, []scenario{
			{name: "creating a contact", request: request{method: "POST", path: a.path("/contacts"),
				body: H{"inbox_id": ib, "name": "Bea"}}, wantStatus: http.StatusOK,
				wantEvents: []events.Kind{events.ContactCreated}},
			{name: "updating one", request: request{method: "PUT", path: a.path("/contacts/%d", contact), body: H{"name": "Ann B"}},
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.ContactUpdated}},
			{name: "reading one tells nothing", request: request{method: "GET", path: a.path("/contacts/%d", contact)},
				wantStatus: http.StatusOK, wantEvents: none},
			{name: "invalid input tells nothing", request: request{method: "POST", path: a.path("/contacts"),
				body: H{"inbox_id": ib, "email": "not an e-mail"}}, wantStatus: http.StatusUnprocessableEntity, wantEvents: none},
			{name: "an agent's refused change tells nothing", request: as(agent, request{method: "DELETE", path: a.path("/contacts/%d", contact)}),
				wantStatus: http.StatusForbidden, wantEvents: none},
			{name: "starting a conversation", request: request{method: "POST", path: a.path("/conversations"),
				body: H{"inbox_id": ib, "contact_id": contact}}, wantStatus: http.StatusOK,
				wantEvents: []events.Kind{events.ConversationCreated},
				check:      func(t *testing.T, r *response) { conv = r.int(t, "id") }},
			{name: "creating a card", request: request{method: "POST", path: a.path("/kanban_items"), body: H{"kanban_item": H{
				"funnel_id": sales, "funnel_stage": "new", "item_details": H{"title": "Deal"}}}}, wantStatus: http.StatusOK,
				wantEvents: []events.Kind{events.KanbanItemCreated},
				check:      func(t *testing.T, r *response) { card = r.int(t, "id") }},
			{name: "scheduling a message", request: request{method: "POST", path: a.path("/scheduled_messages"),
				body: H{"inbox_id": ib, "contact_id": contact, "content": "later", "scheduled_at": soon}}, wantStatus: http.StatusOK,
				wantEvents: []events.Kind{events.ScheduledMessageCreated},
				check:      func(t *testing.T, r *response) { schedule = r.int(t, "id") }},
		})
		// The paths below name what the scenarios above created.
		a.run(t, []scenario{
			{name: "resolving the conversation", request: request{method: "POST", path: a.path("/conversations/%d/toggle_status", conv),
				body: H{"status": "resolved"}}, wantStatus: http.StatusOK,
				wantEvents: []events.Kind{events.ConversationStatusChanged}},
			{name: "a private note", request: request{method: "POST", path: a.path("/conversations/%d/messages", conv),
				body: H{"content": "internal", "private": true}}, wantStatus: http.StatusOK,
				wantEvents: []events.Kind{events.MessageCreated}},
			{name: "moving the card", request: request{method: "POST", path: a.path("/kanban_items/%d/move_to_stage", card),
				body: H{"funnel_stage": "won"}}, wantStatus: http.StatusOK, wantEvents: []events.Kind{events.KanbanItemMoved}},
			{name: "a move to where it is tells nothing", request: request{method: "POST", path: a.path("/kanban_items/%d/move_to_stage", card),
				body: H{"funnel_stage": "won"}}, wantStatus: http.StatusOK, wantEvents: none},
			{name: "winning the card", request: request{method: "POST", path: a.path("/kanban_items/%d/change_status", card),
				body: H{"status": "won"}}, wantStatus: http.StatusOK, wantEvents: []events.Kind{events.KanbanItemStatusChanged}},
			{name: "deleting the card", request: request{method: "DELETE", path: a.path("/kanban_items/%d", card)},
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.KanbanItemDeleted}},
			{name: "editing the schedule", request: request{method: "PUT", path: a.path("/scheduled_messages/%d", schedule),
				body: H{"content": "a bit later"}}, wantStatus: http.StatusOK,
				wantEvents: []events.Kind{events.ScheduledMessageUpdated}},
			{name: "deleting the schedule", request: request{method: "DELETE", path: a.path("/scheduled_messages/%d", schedule)},
				wantStatus: http.StatusNoContent, wantEvents: []events.Kind{events.ScheduledMessageDeleted}},
		})
	})
}
