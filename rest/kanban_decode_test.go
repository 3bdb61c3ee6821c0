package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// The kanban bodies go through the one decoder of every body (rest/bind.go,
// rest/flex.go): each field takes the forms the other bodies take (numbers
// as text, agents echoed as {id} objects, "a,b" lists, multipart fields),
// null or a blank clears what can be cleared, and a refused value is a 422
// naming the field, a nested one by its path.
func TestKanbanRequestDecoding(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, _ := a.agent(a.Account)
		sales := a.funnel("Sales", "new", "won")
		ib := a.apiInbox("API")
		alice, _ := a.contact(ib, H{"name": "Alice"})
		conv := a.conversation(a.Account, ib, alice)
		items := a.path("/kanban_items")
		create := func(body any) request { return request{method: "POST", path: items, body: body} }
		card := func(details H) H { return H{"kanban_item": H{"funnel_id": sales, "item_details": details}} }
		var cardID, ruleID, itemID int
		a.run(t, []scenario{
			{
				name: "numbers as text, agents as {id} objects, other item_details keys kept as sent",
				request: create(H{"kanban_item": H{"funnel_id": itoa(sales), "position": "0", "conversation_display_id": conv,
					"assigned_agents": []any{H{"id": agentID}, itoa(a.AdminID)},
					"item_details":    H{"title": 42, "value": "12.5", "score": 7, "tags": []string{"x"}}}}),
				wantStatus: http.StatusOK,
				want: map[string]any{"item_details.title": "42", "item_details.value": 12.5, "item_details.score": 7,
					"item_details.tags": []any{"x"}, "assigned_agents.*.id": sameItems(agentID, a.AdminID), "conversation_display_id": conv},
				check: func(t *testing.T, r *response) { cardID = r.int(t, "id") },
			},
			{
				name: "a multipart form: item_details[title] and assigned_agents[]",
				request: create(fields("funnel_id", itoa(sales), "item_details[title]", "Form card", "item_details[value]", "3",
					"assigned_agents[]", itoa(agentID))),
				wantStatus: http.StatusOK,
				want:       map[string]any{"item_details.title": "Form card", "item_details.value": 3, "assigned_agents.*.id": []int{agentID}},
			},
			{
				name: "a value that is not a number names item_details.value", request: create(card(H{"title": "x", "value": "lots"})),
				wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{"item_details.value"},
				want: map[string]any{"message": `Value is invalid: "lots" is not a number`},
			},
			invalid("a value past float64 names item_details.value", create(card(H{"title": "x", "value": "1e400"})), "item_details.value"),
			invalid("a title that is not text names item_details.title", create(card(H{"title": true})), "item_details.title"),
			invalid("item_details that is not an object", create(H{"funnel_id": sales, "item_details": []any{}}), "item_details"),
			invalid("an agent list holding a non-id", create(H{"funnel_id": sales, "assigned_agents": "1,x", "item_details": H{"title": "x"}}), "assigned_agents"),
			invalid("a position that is not an integer", create(H{"funnel_id": sales, "position": 1.5, "item_details": H{"title": "x"}}), "position"),
		})
		if cardID == 0 {
			t.Fatal("no card to go on with")
		}
		a.run(t, []scenario{
			{
				name:       "null unlinks the conversation and unassigns the agents",
				request:    request{method: "PATCH", path: a.path("/kanban_items/%d", cardID), body: H{"conversation_display_id": nil, "assigned_agents": nil}},
				wantStatus: http.StatusOK, want: map[string]any{"conversation_display_id": nil, "assigned_agents": []any{}, "item_details.title": "42"},
			},
			{
				name: "bulk ids as text", request: request{method: "POST", path: items + "/bulk_set_priority", body: H{"item_ids": itoa(cardID), "priority": "low"}},
				wantStatus: http.StatusOK, want: map[string]any{"updated_count": 1},
			},
			{
				name:       "a stage reorder as a comma-separated string",
				request:    request{method: "PATCH", path: a.path("/funnels/%d/reorder", sales), body: H{"stages": "won, new"}},
				wantStatus: http.StatusOK, want: map[string]any{"stages.*.slug": []string{"won", "new"}},
			},
			invalid("a keyed stage whose position is not a number", request{method: "POST", path: a.path("/funnels"),
				body: H{"name": "Keyed", "stages": H{"a": H{"name": "A", "position": "first"}}}}, "stages"),
			invalid("a reorder position that is not a number", request{method: "POST", path: items + "/reorder",
				body: H{"positions": []H{{"id": cardID, "position": "top"}}}}, "positions"),
			{
				name:       "webhook events as a comma-separated string",
				request:    request{method: "PUT", path: a.path("/kanban_config"), body: H{"webhook_events": "kanban_item.created, kanban_item.moved"}},
				wantStatus: http.StatusOK, want: map[string]any{"webhook_events": []string{"kanban_item.created", "kanban_item.moved"}},
			},
			invalid("regenerate_secret that is not a boolean", request{method: "PUT", path: a.path("/kanban_config"), body: H{"regenerate_secret": "soon"}},
				"regenerate_secret"),
			{
				name: "an automation on one funnel", request: request{method: "POST", path: a.path("/kanban/automations"), body: H{"kanban_automation": H{
					"name": "Escalate", "funnel_id": itoa(sales), "trigger_type": "status_changed", "action_type": "set_priority",
					"action_config": `{"priority": "high"}`, "enabled": "true"}}},
				wantStatus: http.StatusOK, want: map[string]any{"funnel_id": sales, "action_config.priority": "high", "enabled": true},
				check: func(t *testing.T, r *response) { ruleID = r.int(t, "id") },
			},
		})
		a.run(t, []scenario{
			{
				name: "null funnel_id applies the automation to every funnel", request: request{method: "PATCH",
					path: a.path("/kanban/automations/%d", ruleID), body: H{"kanban_automation": H{"funnel_id": nil}}},
				wantStatus: http.StatusOK, want: map[string]any{"funnel_id": nil, "name": "Escalate"},
			},
			invalid("trigger_config that is not an object", request{method: "PATCH", path: a.path("/kanban/automations/%d", ruleID),
				body: H{"trigger_config": []any{}}}, "trigger_config"),
			{
				name: "a checklist item with a due date and an agent", request: request{method: "POST",
					path: a.path("/kanban_items/%d/create_checklist_item", cardID), body: H{"text": "Call", "due_date": "2026-12-01", "agent_id": itoa(agentID)}},
				wantStatus: http.StatusOK, want: map[string]any{"checklist_item.due_date": "2026-12-01T00:00:00.000Z", "checklist_item.agent_id": agentID},
				check: func(t *testing.T, r *response) { itemID = r.int(t, "checklist_item.id") },
			},
			invalid("completed that is not a boolean", request{method: "POST", path: a.path("/kanban_items/%d/create_checklist_item", cardID),
				body: H{"text": "x", "completed": "maybe"}}, "completed"),
			invalid("a due date that is no date", request{method: "POST", path: a.path("/kanban_items/%d/create_checklist_item", cardID),
				body: H{"text": "x", "due_date": 20261201}}, "due_date"),
		})
		a.run(t, []scenario{
			{
				name: "a form's blank due_date and agent_id clear them", request: request{method: "PATCH",
					path: a.path("/kanban_items/%d/update_checklist_item", cardID), body: fields("checklist_item_id", itoa(itemID), "due_date", "", "agent_id", "")},
				wantStatus: http.StatusOK, want: map[string]any{"checklist_item.due_date": nil, "checklist_item.agent_id": nil, "checklist_item.text": "Call"},
			},
		})
	})
}
