package rest_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/cardstagehistory"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of the per-card routes: agents, checklist, notes, counts
// and the time reports built from the stage history (issue 6).

// setTime writes a time column of one row directly, to put history in the
// past (the API only ever records "now").
func setTime(t *testing.T, a *app, e testdb.Engine, table, column string, id int, when time.Time) {
	t.Helper()
	q := fmt.Sprintf("UPDATE %s SET %s = ? WHERE id = ?", table, column)
	if e.Name == "postgres" {
		q = fmt.Sprintf("UPDATE %s SET %s = $1 WHERE id = $2", table, column)
	}
	if _, err := a.srv.DB.SQL.Exec(q, when.UTC(), id); err != nil {
		t.Fatalf("backdating %s.%s: %v", table, column, err)
	}
}

func TestKanbanCardParts(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		_, otherAgent := a.agent(a.Account)
		accB, adminB := a.otherAccount("Globex")
		funnelB := a.mustDo(request{method: "POST", path: accountPath(accB, "/funnels"), token: adminB,
			body: H{"name": "B", "stages": []H{{"name": "New"}}}}, http.StatusOK).int(t, "id")
		cardB := a.mustDo(request{method: "POST", path: accountPath(accB, "/kanban_items"), token: adminB,
			body: H{"funnel_id": funnelB, "item_details": H{"title": "Theirs"}}}, http.StatusOK).int(t, "id")

		sales := a.funnel("Sales", "new", "qualified", "won")
		card := a.card(sales, "new", H{"title": "Deal"})
		part := func(method, route string, body any) request {
			return request{method: method, path: a.path("/kanban_items/%d/%s", card, route), body: body}
		}
		other := func(method, route string, body any) request {
			return request{method: method, path: a.path("/kanban_items/%d/%s", cardB, route), body: body}
		}
		var first, second, note int
		a.run(t, []scenario{
			{
				name: "assign_agent adds an agent", request: as(agent, part("POST", "assign_agent", H{"agent_id": agentID})),
				wantStatus: http.StatusOK, want: map[string]any{"assigned_agents.*.id": []int{agentID}},
			},
			{
				name: "assign a second agent", request: part("POST", "assign_agent", H{"agent_id": a.AdminID}),
				wantStatus: http.StatusOK, want: map[string]any{"assigned_agents.*.id": sameItems(agentID, a.AdminID)},
			},
			invalid("assigning an agent twice is 422", part("POST", "assign_agent", H{"agent_id": agentID}), "agent_id"),
			invalid("assigning a stranger is 422", part("POST", "assign_agent", H{"agent_id": 999999}), "agent_id"),
			invalid("assign_agent without agent_id is 422", part("POST", "assign_agent", H{}), "agent_id"),
			invalid("agent_id that is not a number is 422", part("POST", "assign_agent", H{"agent_id": "bob"}), "agent_id"),
			status("assign_agent on another account's card is 404", other("POST", "assign_agent", H{"agent_id": agentID}), http.StatusNotFound),
			{
				name: "assigned_agents lists them with the first as primary", request: as(agent, part("GET", "assigned_agents", nil)),
				wantStatus: http.StatusOK, want: map[string]any{"assigned_agents.#": 2, "primary_agent.id": present},
			},
			{
				name: "remove_agent takes one off", request: part("POST", "remove_agent", H{"agent_id": a.AdminID}),
				wantStatus: http.StatusOK, want: map[string]any{"assigned_agents.*.id": []int{agentID}},
			},
			invalid("removing an agent not assigned is 422", part("POST", "remove_agent", H{"agent_id": a.AdminID}), "agent_id"),
			{
				name: "the agent filter finds the card", request: request{method: "GET", path: a.path("/kanban_items?agent_id=%d", agentID)},
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{card}},
			},

			{
				name: "create_checklist_item", request: as(agent, part("POST", "create_checklist_item", H{"text": "Send proposal", "due_date": "2026-12-01", "agent_id": agentID})),
				wantStatus: http.StatusOK,
				want: map[string]any{"checklist_item.text": "Send proposal", "checklist_item.completed": false,
					"checklist_item.due_date": "2026-12-01T00:00:00.000Z", "checklist_item.agent_id": agentID, "checklist_count": 1},
				check: func(t *testing.T, r *response) { first = r.int(t, "checklist_item.id") },
			},
			{
				name: "a second item goes last", request: part("POST", "create_checklist_item", H{"text": "Call back"}),
				wantStatus: http.StatusOK, want: map[string]any{"checklist.*.text": []string{"Send proposal", "Call back"}, "checklist_item.agent_id": nil},
				check: func(t *testing.T, r *response) { second = r.int(t, "checklist_item.id") },
			},
			invalid("a checklist item without text is 422", part("POST", "create_checklist_item", H{"text": " "}), "text"),
			invalid("a bad due_date is 422", part("POST", "create_checklist_item", H{"text": "x", "due_date": "soon"}), "due_date"),
			invalid("a stranger as the item's agent is 422", part("POST", "create_checklist_item", H{"text": "x", "agent_id": 999999}), "agent_id"),
		})
		a.run(t, []scenario{
			{
				name:       "update_checklist_item changes the sent fields and keeps the others",
				request:    part("PATCH", "update_checklist_item", H{"checklist_item_id": first, "text": "Send the proposal"}),
				wantStatus: http.StatusOK,
				want: map[string]any{"checklist_item.text": "Send the proposal", "checklist_item.due_date": "2026-12-01T00:00:00.000Z",
					"checklist_item.agent_id": agentID, "checklist_item.completed": false},
			},
			{
				name: "null clears the due date and agent", request: part("PATCH", "update_checklist_item", H{"checklist_item_id": first, "due_date": nil, "agent_id": nil}),
				wantStatus: http.StatusOK, want: map[string]any{"checklist_item.due_date": nil, "checklist_item.agent_id": nil, "checklist_item.text": "Send the proposal"},
			},
			invalid("update without checklist_item_id is 422", part("PATCH", "update_checklist_item", H{"text": "x"}), "checklist_item_id"),
			status("update of an unknown checklist item is 404", part("PATCH", "update_checklist_item", H{"checklist_item_id": 999999, "text": "x"}), http.StatusNotFound),
			{
				name: "toggle_checklist_item flips completed", request: as(agent, part("POST", "toggle_checklist_item", H{"checklist_item_id": second})),
				wantStatus: http.StatusOK, want: map[string]any{"checklist_item.completed": true, "completed_count": 1},
			},
			{
				name: "get_checklist lists the items in order", request: as(agent, part("GET", "get_checklist", nil)),
				wantStatus: http.StatusOK, want: map[string]any{"checklist.*.id": []int{first, second}, "checklist.*.completed": []bool{false, true}, "checklist_count": 2},
			},
			status("get_checklist of another account's card is 404", other("GET", "get_checklist", nil), http.StatusNotFound),
			{
				name: "delete_checklist_item takes checklist_item_id in the query", request: request{method: "DELETE", path: a.path("/kanban_items/%d/delete_checklist_item?checklist_item_id=%d", card, first)},
				wantStatus: http.StatusOK, want: map[string]any{"checklist.*.id": []int{second}},
			},
			status("deleting it again is 404", request{method: "DELETE", path: a.path("/kanban_items/%d/delete_checklist_item?checklist_item_id=%d", card, first)}, http.StatusNotFound),
		})
		a.run(t, []scenario{

			{
				name: "create_note records the author and time", request: as(agent, part("POST", "create_note", H{"content": "Met at the fair"})),
				wantStatus: http.StatusOK,
				want:       map[string]any{"note.content": "Met at the fair", "note.author_id": agentID, "note.author.id": agentID, "note.created_at": isoTime, "notes_count": 1},
				check:      func(t *testing.T, r *response) { note = r.int(t, "note.id") },
			},
			invalid("a note without content is 422", part("POST", "create_note", H{"content": ""}), "content"),
			status("create_note on another account's card is 404", other("POST", "create_note", H{"content": "x"}), http.StatusNotFound),
		})
		a.run(t, []scenario{
			status("another agent may not edit the note", as(otherAgent, part("PATCH", "update_note", H{"note_id": note, "content": "mine now"})), http.StatusForbidden),
			{
				name: "its author edits it", request: as(agent, part("PATCH", "update_note", H{"note_id": note, "content": "Met at the fair, twice"})),
				wantStatus: http.StatusOK, want: map[string]any{"note.content": "Met at the fair, twice", "notes.0.content": "Met at the fair, twice"},
			},
			invalid("update_note without note_id is 422", part("PATCH", "update_note", H{"content": "x"}), "note_id"),
			invalid("update_note with blank content is 422", part("PATCH", "update_note", H{"note_id": note, "content": " "}), "content"),
			{
				name: "an administrator adds a note (text is read as content)", request: part("POST", "create_note", H{"text": "Budget approved"}),
				wantStatus: http.StatusOK, want: map[string]any{"notes.*.content": []string{"Met at the fair, twice", "Budget approved"}},
			},
			{
				name: "get_notes", request: as(otherAgent, part("GET", "get_notes", nil)),
				wantStatus: http.StatusOK, want: map[string]any{"notes_count": 2, "notes.0.author.id": agentID},
			},
			{
				name: "counts", request: part("GET", "counts", nil), wantStatus: http.StatusOK,
				want: map[string]any{"checklist_count": 1, "checklist_completed_count": 1, "notes_count": 2, "assigned_agents_count": 1, "stage_changes_count": 0},
			},
			status("counts of another account's card is 404", other("GET", "counts", nil), http.StatusNotFound),
			status("another agent may not delete the note", as(otherAgent, part("DELETE", "delete_note", H{"note_id": note})), http.StatusForbidden),
			{
				name: "an administrator deletes any note", request: part("DELETE", "delete_note", H{"note_id": note}),
				wantStatus: http.StatusOK, want: map[string]any{"notes_count": 1},
			},
			status("deleting it again is 404", part("DELETE", "delete_note", H{"note_id": note}), http.StatusNotFound),
		})

		// Time in stages: three stays, the last ended by winning the card.
		a.mustDo(part("POST", "move_to_stage", H{"funnel_stage": "qualified"}), http.StatusOK)
		a.mustDo(part("POST", "move_to_stage", H{"funnel_stage": "won"}), http.StatusOK)
		a.mustDo(part("POST", "change_status", H{"status": "won"}), http.StatusOK)
		now := time.Now().UTC().Truncate(time.Second)
		hs, err := a.srv.DB.Client.CardStageHistory.Query().Where(cardstagehistory.KanbanItemID(card)).
			Order(cardstagehistory.ByID()).All(sys())
		if err != nil || len(hs) != 4 {
			t.Fatalf("want 4 history rows (created, 2 moves, status), got %d (%v)", len(hs), err)
		}
		for i, ago := range []time.Duration{10 * time.Hour, 7 * time.Hour, 3 * time.Hour, time.Hour} {
			setTime(t, a, e, "card_stage_histories", "created_at", hs[i].ID, now.Add(-ago))
		}
		setTime(t, a, e, "kanban_items", "created_at", card, now.Add(-10*time.Hour))
		setTime(t, a, e, "kanban_items", "closed_at", card, now.Add(-time.Hour))
		a.run(t, []scenario{
			{
				name: "stage_time_breakdown comes from the history", request: as(agent, part("GET", "stage_time_breakdown", nil)),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"stage_breakdown.*.stage":              []string{"new", "qualified", "won"},
					"stage_breakdown.*.duration_seconds":   []int{3 * 3600, 4 * 3600, 2 * 3600},
					"stage_breakdown.0.duration_formatted": "3h 0m 0s", "stage_breakdown.2.left_at": nil,
					"time_per_stage": H{"new": 3 * 3600, "qualified": 4 * 3600, "won": 2 * 3600}, "total_stages": 3,
				},
			},
			{
				name: "time_report totals the card's life until it was won", request: part("GET", "time_report", nil),
				wantStatus: http.StatusOK,
				want: map[string]any{"total_duration_seconds": 9 * 3600, "total_duration_formatted": "9h 0m 0s", "status": "won",
					"current_stage.stage": "won", "stage_changes": 2},
			},
			{
				name: "reports average the same history: time in each stage and time to win", request: request{method: "GET", path: a.path("/kanban_items/reports?funnel_id=%d", sales)},
				wantStatus: http.StatusOK,
				want: map[string]any{"stages.*.slug": []string{"new", "qualified", "won"}, "stages.*.avg_time_seconds": []int{3 * 3600, 4 * 3600, 2 * 3600},
					"avg_time_to_win_seconds": 9 * 3600, "win_rate": 1},
			},
			{
				name: "reports over time count the card created and won in its periods, and per agent", request: request{method: "GET", path: a.path("/kanban_items/reports?funnel_id=%d&group_by=week", sales)},
				wantStatus: http.StatusOK,
				want: map[string]any{"group_by": "week", "by_period": periodTotals(1, 1, 0), "stages.*.reached": []int{1, 1, 1},
					"by_agent.#": 1, "by_agent.0.cards": 1, "by_agent.0.won.count": 1, "by_agent.0.open.count": 0},
			},
			status("reports refuse an unknown grouping", request{method: "GET", path: a.path("/kanban_items/reports?group_by=fortnight")}, http.StatusUnprocessableEntity),
			status("reports refuse more weeks than they draw", request{method: "GET", path: a.path("/kanban_items/reports?group_by=week&from=2000-01-01")}, http.StatusUnprocessableEntity),
			status("time_report of another account's card is 404", other("GET", "time_report", nil), http.StatusNotFound),
			status("stage_time_breakdown of an unknown card is 404", request{method: "GET", path: a.path("/kanban_items/999999/stage_time_breakdown")}, http.StatusNotFound),
			{name: "an agent removed from the account leaves its cards", request: request{method: "DELETE", path: a.path("/agents/%d", agentID)}, wantStatus: http.StatusOK},
			{name: "the card has no agent left", request: part("GET", "counts", nil), wantStatus: http.StatusOK, want: map[string]any{"assigned_agents_count": 0}},
			{name: "and the agent filter finds nothing", request: request{method: "GET", path: a.path("/kanban_items?agent_id=%d", agentID)},
				wantStatus: http.StatusOK, want: map[string]any{"payload.#": 0}},
		})
	})
}

// periodTotals matches a report's by_period whose periods add up to the
// cards created, won and lost (which period holds them depends on the day
// the test runs).
func periodTotals(created, won, lost int) apitest.Matcher {
	return func(got any, present bool) string {
		periods, ok := got.([]any)
		if !ok || len(periods) == 0 {
			return "want a list of periods"
		}
		sum := map[string]int{}
		for _, p := range periods {
			for _, k := range []string{"created", "won", "lost"} {
				cv, _ := p.(map[string]any)[k].(map[string]any)
				n, _ := cv["count"].(float64)
				sum[k] += int(n)
			}
		}
		if sum["created"] != created || sum["won"] != won || sum["lost"] != lost {
			return fmt.Sprintf("periods add up to %v, want created %d, won %d, lost %d", sum, created, won, lost)
		}
		return ""
	}
}
