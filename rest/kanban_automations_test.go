package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of /kanban/automations, and of automations really running:
// on entering a stage, on a status change, and when a card sits idle.

func TestKanbanAutomations(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		accB, adminB := a.otherAccount("Globex")
		funnelB := a.mustDo(request{method: "POST", path: accountPath(accB, "/funnels"), token: adminB,
			body: H{"name": "B", "stages": []H{{"name": "New"}}}}, http.StatusOK).int(t, "id")
		autoB := a.mustDo(request{method: "POST", path: accountPath(accB, "/kanban/automations"), token: adminB, body: H{
			"name": "theirs", "trigger_type": "status_changed", "action_type": "set_priority", "action_config": H{"priority": "low"},
		}}, http.StatusOK).int(t, "id")

		sales := a.funnel("Sales", "new", "qualified", "won")
		ib := a.apiInbox("API")
		alice, _ := a.contact(ib, H{"name": "Alice"})
		conv := a.conversation(a.Account, ib, alice)
		a.addInboxMembers(ib, agentID) // so that the agent may link the card to it
		autos := a.path("/kanban/automations")
		create := func(body H) request { return request{method: "POST", path: autos, body: body} }
		rule := func(name, trigger string, tcfg H, action string, acfg H) H {
			return H{"kanban_automation": H{"name": name, "funnel_id": sales, "trigger_type": trigger, "trigger_config": tcfg,
				"action_type": action, "action_config": acfg}}
		}
		var urgent int
		a.run(t, []scenario{
			status("an agent may not list automations", as(agent, request{method: "GET", path: autos}), http.StatusForbidden),
			status("an agent may not create one", as(agent, create(rule("x", "idle", H{"hours": 1}, "set_priority", H{"priority": "low"}))), http.StatusForbidden),
			invalid("name, trigger and action are required", create(H{"funnel_id": sales}), "name", "trigger_type", "action_type"),
			invalid("an unknown trigger is 422", create(rule("x", "on_tuesday", H{}, "set_priority", H{"priority": "low"})), "trigger_type"),
			invalid("an unknown action is 422", create(rule("x", "idle", H{"hours": 1}, "explode", H{})), "action_type"),
			invalid("stage_entered needs a stage", create(rule("x", "stage_entered", H{}, "set_priority", H{"priority": "low"})), "trigger_config"),
			invalid("stage_entered on an unknown stage is 422", create(rule("x", "stage_entered", H{"stage": "ghost"}, "set_priority", H{"priority": "low"})), "trigger_config"),
			invalid("idle needs hours above 0", create(rule("x", "idle", H{"hours": 0}, "set_priority", H{"priority": "low"})), "trigger_config"),
			invalid("a move needs a stage of the funnel", create(rule("x", "idle", H{"hours": 1}, "move", H{"funnel_stage": "ghost"})), "action_config"),
			invalid("assign needs an agent of the account", create(rule("x", "idle", H{"hours": 1}, "assign", H{"agent_id": 999999})), "action_config"),
			invalid("set_priority needs a priority", create(rule("x", "idle", H{"hours": 1}, "set_priority", H{"priority": "asap"})), "action_config"),
			invalid("send_message needs content", create(rule("x", "idle", H{"hours": 1}, "send_message", H{})), "action_config"),
			invalid("another account's funnel is 422", create(H{"name": "x", "funnel_id": funnelB, "trigger_type": "idle", "trigger_config": H{"hours": 1},
				"action_type": "set_priority", "action_config": H{"priority": "low"}}), "funnel_id"),
			{
				name: "entering qualified makes the card urgent", request: create(rule("urgent when qualified", "stage_entered", H{"stage": "qualified"}, "set_priority", H{"priority": "urgent"})),
				wantStatus: http.StatusOK, want: map[string]any{"id": present, "enabled": true, "trigger_type": "stage_entered", "action_config.priority": "urgent", "last_run_at": nil},
				check: func(t *testing.T, r *response) { urgent = r.int(t, "id") },
			},
			{name: "entering qualified assigns the agent", request: create(rule("assign", "stage_entered", H{"stage": "qualified"}, "assign", H{"agent_id": agentID})),
				wantStatus: http.StatusOK},
			{name: "winning moves the card to won", request: create(rule("won column", "status_changed", H{"status": "won"}, "move", H{"funnel_stage": "won"})),
				wantStatus: http.StatusOK},
			{name: "entering won thanks the customer", request: create(rule("thanks", "stage_entered", H{"stage": "won"}, "send_message", H{"content": "Thank you for your order!"})),
				wantStatus: http.StatusOK},
			{name: "the list", request: request{method: "GET", path: autos}, wantStatus: http.StatusOK, want: map[string]any{"payload.#": 4}},
			status("another account's automation is 404", request{method: "GET", path: a.path("/kanban/automations/%d", autoB)}, http.StatusNotFound),
		})

		card := a.mustDo(request{method: "POST", path: a.path("/kanban_items"), token: agent, body: H{"funnel_id": sales, "funnel_stage": "new",
			"conversation_display_id": conv, "item_details": H{"title": "Order"}}}, http.StatusOK).int(t, "id")
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/move_to_stage", card), token: agent, body: H{"funnel_stage": "qualified"}}, http.StatusOK)
		a.settleAutomations()
		a.run(t, []scenario{{
			name: "after the move the automations made it urgent and assigned it", request: request{method: "GET", path: a.path("/kanban_items/%d", card)},
			wantStatus: http.StatusOK, want: map[string]any{"item_details.priority": "urgent", "assigned_agents.*.id": []int{agentID}},
		}})
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/change_status", card), token: agent, body: H{"status": "won"}}, http.StatusOK)
		a.settleAutomations()
		a.run(t, []scenario{
			{
				name: "winning moved it to won (the stage history says so)", request: request{method: "GET", path: a.path("/kanban_items/%d/stage_time_breakdown", card)},
				wantStatus: http.StatusOK, want: map[string]any{"stage_breakdown.*.stage": []string{"new", "qualified", "won"}},
			},
			{
				name: "and entering won sent the message", request: request{method: "GET", path: a.path("/conversations/%d/messages", conv)},
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if !strings.Contains(string(r.Body), "Thank you for your order!") {
						t.Errorf("the conversation has no automated message: %s", r.Body)
					}
				},
			},
			{name: "an automation can be switched off", request: request{method: "PATCH", path: a.path("/kanban/automations/%d", urgent), body: H{"enabled": false}},
				wantStatus: http.StatusOK, want: map[string]any{"enabled": false, "name": "urgent when qualified", "last_run_at": isoTime}},
			invalid("PATCH that breaks the automation is 422", request{method: "PATCH", path: a.path("/kanban/automations/%d", urgent), body: H{"action_config": H{"priority": "asap"}}}, "action_config"),
		})
		quiet := a.card(sales, "new", H{"title": "Quiet"})
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/move_to_stage", quiet), body: H{"funnel_stage": "qualified"}}, http.StatusOK)
		a.settleAutomations()
		a.run(t, []scenario{{
			name: "the switched-off automation no longer runs", request: request{method: "GET", path: a.path("/kanban_items/%d", quiet)},
			wantStatus: http.StatusOK, want: map[string]any{"item_details.priority": "none"},
		}})

		// Idle: a card two hours in "new" gets high priority, once per stay.
		a.mustDo(create(rule("stale leads", "idle", H{"hours": 1, "stage": "new"}, "set_priority", H{"priority": "high"})), http.StatusOK)
		stale := a.card(sales, "new", H{"title": "Stale"})
		fresh := a.card(sales, "new", H{"title": "Fresh"})
		setTime(t, a, e, "kanban_items", "stage_entered_at", stale, time.Now().Add(-2*time.Hour))
		a.srv.Svc.RunIdleAutomations(context.Background())
		a.run(t, []scenario{
			{name: "the idle card was raised", request: request{method: "GET", path: a.path("/kanban_items/%d", stale)},
				wantStatus: http.StatusOK, want: map[string]any{"item_details.priority": "high"}},
			{name: "the fresh one was not", request: request{method: "GET", path: a.path("/kanban_items/%d", fresh)},
				wantStatus: http.StatusOK, want: map[string]any{"item_details.priority": "none"}},
		})
		a.mustDo(request{method: "PATCH", path: a.path("/kanban_items/%d", stale), body: H{"item_details": H{"priority": "low"}}}, http.StatusOK)
		a.srv.Svc.RunIdleAutomations(context.Background())
		a.run(t, []scenario{
			{name: "a second run does not fire again for the same stay", request: request{method: "GET", path: a.path("/kanban_items/%d", stale)},
				wantStatus: http.StatusOK, want: map[string]any{"item_details.priority": "low"}},
			{name: "DELETE removes an automation", request: request{method: "DELETE", path: a.path("/kanban/automations/%d", urgent)}, wantStatus: http.StatusOK},
			status("it is gone", request{method: "GET", path: a.path("/kanban/automations/%d", urgent)}, http.StatusNotFound),
			status("an agent may not delete one", as(agent, request{method: "DELETE", path: a.path("/kanban/automations/%d", urgent)}), http.StatusForbidden),
		})
	})
}

// settleAutomations waits until the job runner has run every automation the
// changes so far fired (runs fired by runs included).
func (a *app) settleAutomations() {
	a.t.Helper()
	waitFor(a.t, "the automations to run", func() bool {
		n, err := a.srv.DB.Client.AutomationRun.Query().Count(sys())
		return err == nil && n == 0
	})
}
