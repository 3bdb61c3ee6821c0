package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of the account-scope kanban routes: search, filter,
// reports, bulk changes, CSV export and import (issue 6).

func TestKanbanAccountRoutes(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		accB, adminB := a.otherAccount("Globex")
		funnelB := a.mustDo(request{method: "POST", path: accountPath(accB, "/funnels"), token: adminB,
			body: H{"name": "B", "stages": []H{{"name": "New"}}}}, http.StatusOK).int(t, "id")
		cardB := a.mustDo(request{method: "POST", path: accountPath(accB, "/kanban_items"), token: adminB,
			body: H{"funnel_id": funnelB, "item_details": H{"title": "Acme elsewhere"}}}, http.StatusOK).int(t, "id")

		sales := a.funnel("Sales", "new", "qualified", "won")
		other := a.funnel("Partners", "a", "b")
		ib := a.apiInbox("API")
		alice, _ := a.contact(ib, H{"name": "Alice Buyer", "email": "alice@buyer.test"})
		conv := a.conversation(a.Account, ib, alice)
		k1 := a.mustDo(request{method: "POST", path: a.path("/kanban_items"), body: H{"funnel_id": sales, "funnel_stage": "new",
			"conversation_display_id": conv, "assigned_agents": []int{agentID},
			"item_details": H{"title": "Acme renewal", "priority": "high", "value": 500}}}, http.StatusOK).int(t, "id")
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/create_note", k1), body: H{"content": "Budget approved"}}, http.StatusOK)
		k2 := a.card(sales, "new", H{"title": "Globex deal", "priority": "low", "value": 50})
		k3 := a.card(other, "a", H{"title": "Initech", "priority": "urgent", "value": 5000})

		items := a.path("/kanban_items")
		get := func(query string) request { return request{method: "GET", path: items + query} }
		post := func(route string, body any) request {
			return request{method: "POST", path: items + "/" + route, body: body}
		}
		today := time.Now().UTC().Format("2006-01-02")
		yesterday := time.Now().UTC().AddDate(0, 0, -1).Format("2006-01-02")
		a.run(t, []scenario{
			{name: "search matches a title, ignoring case", request: as(agent, get("/search?query=ACME")), wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": []int{k1}, "meta.query": "ACME"}},
			{name: "search matches the linked contact's name", request: get("/search?query=alice"), wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": []int{k1}}},
			{name: "search matches the linked contact's e-mail", request: get("/search?query=buyer.test"), wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": []int{k1}}},
			{name: "search matches notes", request: get("/search?query=budget"), wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": []int{k1}}},
			{name: "search within a funnel", request: get("/search?query=globex&funnel_id=" + itoa(other)), wantStatus: http.StatusOK,
				want: map[string]any{"payload.#": 0}},
			{name: "search by agent", request: get("/search?query=deal&agent_id=" + itoa(agentID)), wantStatus: http.StatusOK,
				want: map[string]any{"payload.#": 0}},
			{name: "an empty search finds nothing", request: get("/search?query="), wantStatus: http.StatusOK,
				want: map[string]any{"payload.#": 0}},
			{name: "filter by priorities", request: get("/filter?priority[]=high&priority[]=urgent"), wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": sameItems(k1, k3)}},
			{name: "filter by value range", request: get("/filter?value_min=100&value_max=1000"), wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": []int{k1}}},
			{name: "filter by creation dates, whole days", request: get("/filter?created_from=" + today + "&created_to=" + today), wantStatus: http.StatusOK,
				want: map[string]any{"payload.#": 3}},
			{name: "nothing was created before today", request: get("/filter?created_to=" + yesterday), wantStatus: http.StatusOK,
				want: map[string]any{"payload.#": 0}},
			invalid("an unknown priority is 422", get("/filter?priority[]=asap"), "priority"),
			invalid("a value_min that is not a number is 422", get("/filter?value_min=lots"), "value_min"),
			invalid("value_min above value_max is 422", get("/filter?value_min=10&value_max=1"), "value_min"),
			invalid("a bad created_from is 422", get("/filter?created_from=someday"), "created_from"),

			{name: "bulk_set_priority", request: as(agent, post("bulk_set_priority", H{"item_ids": []int{k1, k2}, "priority": "medium"})),
				wantStatus: http.StatusOK, want: map[string]any{"updated_count": 2, "payload.*.item_details.priority": []string{"medium", "medium"}}},
			invalid("bulk_set_priority with one unknown id is 422", post("bulk_set_priority", H{"item_ids": []int{k1, 999999}, "priority": "low"}), "item_ids"),
			invalid("bulk_set_priority with another account's card is 422", post("bulk_set_priority", H{"item_ids": []int{k1, cardB}, "priority": "low"}), "item_ids"),
			invalid("bulk_set_priority with a bad priority is 422", post("bulk_set_priority", H{"item_ids": []int{k1}, "priority": "asap"}), "priority"),
			invalid("bulk_set_priority without ids is 422", post("bulk_set_priority", H{"priority": "low"}), "item_ids"),
			{name: "the refused bulk changes changed nothing", request: request{method: "GET", path: a.path("/kanban_items/%d", k1)},
				wantStatus: http.StatusOK, want: map[string]any{"item_details.priority": "medium"}},

			{name: "bulk_move_items moves each card last into the stage", request: post("bulk_move_items", H{"item_ids": []int{k2, k1}, "funnel_stage": "qualified"}),
				wantStatus: http.StatusOK, want: map[string]any{"moved_count": 2, "payload.*.funnel_stage": []string{"qualified", "qualified"}, "payload.*.position": []int{0, 1}}},
			invalid("bulk_move_items where one card's funnel lacks the stage is 422", post("bulk_move_items", H{"item_ids": []int{k2, k3}, "funnel_stage": "new"}), "funnel_stage"),
			invalid("bulk_move_items with an unknown id is 422", post("bulk_move_items", H{"item_ids": []int{k2, 999999}, "funnel_stage": "new"}), "item_ids"),
			invalid("bulk_move_items without a stage is 422", post("bulk_move_items", H{"item_ids": []int{k2}}), "funnel_stage"),
			{name: "the refused moves moved nothing", request: request{method: "GET", path: a.path("/kanban_items/%d", k2)},
				wantStatus: http.StatusOK, want: map[string]any{"funnel_stage": "qualified", "position": 0},
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"qualified": {k2, k1}})
				}},
			{name: "bulk_move_items into another funnel", request: post("bulk_move_items", H{"item_ids": []int{k2}, "funnel_id": other, "new_stage": "b"}),
				wantStatus: http.StatusOK, want: map[string]any{"payload.0.funnel_id": other, "payload.0.funnel_stage": "b"},
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"qualified": {k1}})
					expectBoard(t, a, other, map[string][]int{"a": {k3}, "b": {k2}})
				}},

			{name: "bulk_assign_agent adds the agent", request: post("bulk_assign_agent", H{"item_ids": []int{k1, k3}, "agent_id": a.AdminID}),
				wantStatus: http.StatusOK, want: map[string]any{"assigned_count": 2, "payload.0.assigned_agents.*.id": sameItems(agentID, a.AdminID)}},
			{name: "bulk_assign_agent with mode replace", request: post("bulk_assign_agent", H{"item_ids": []int{k1}, "agent_id": a.AdminID, "mode": "replace"}),
				wantStatus: http.StatusOK, want: map[string]any{"payload.0.assigned_agents.*.id": []int{a.AdminID}}},
			invalid("bulk_assign_agent with a stranger is 422", post("bulk_assign_agent", H{"item_ids": []int{k1}, "agent_id": 999999}), "agent_id"),
			invalid("bulk_assign_agent with a bad mode is 422", post("bulk_assign_agent", H{"item_ids": []int{k1}, "agent_id": agentID, "mode": "swap"}), "mode"),
			invalid("bulk_assign_agent with an unknown card is 422", post("bulk_assign_agent", H{"item_ids": []int{999999}, "agent_id": agentID}), "item_ids"),
		})

		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/change_status", k1), body: H{"status": "won"}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/change_status", k2), body: H{"status": "lost"}}, http.StatusOK)
		a.run(t, []scenario{
			{
				name: "reports count per status and stage, with the win rate, from the history", request: as(agent, get("/reports?from="+today)),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"total_items": 3, "total_value": 5550, "by_status.won.count": 1, "by_status.lost.count": 1, "by_status.open.count": 1,
					"by_status.won.value": 500, "win_rate": 0.5, "avg_time_to_win_seconds": present,
					"stages.*.slug": []string{"new", "qualified", "a", "b"}, "stages.*.count": []int{0, 1, 1, 1}, "stages.*.stays": []int{2, 2, 1, 1},
				},
			},
			{name: "reports for one agent's cards", request: get("/reports?user_ids[]=" + itoa(a.AdminID)), wantStatus: http.StatusOK,
				want: map[string]any{"total_items": 2, "win_rate": 1}},
			{name: "reports for an agent without cards", request: get("/reports?user_ids[]=" + itoa(agentID)), wantStatus: http.StatusOK,
				want: map[string]any{"total_items": 0, "win_rate": nil}},
			{name: "reports for an inbox", request: get("/reports?inbox_id=" + itoa(ib)), wantStatus: http.StatusOK,
				want: map[string]any{"total_items": 1}},
			{name: "reports before any card existed", request: get("/reports?from=2020-01-01&to=" + yesterday), wantStatus: http.StatusOK,
				want: map[string]any{"total_items": 0, "win_rate": nil, "avg_time_to_win_seconds": nil}},
			invalid("a bad from is 422", get("/reports?from=last-week"), "from"),
			invalid("from after to is 422", get("/reports?from="+today+"&to="+yesterday), "from"),

			{
				name: "export writes the matching cards as CSV", request: get("/export?funnel_id=" + itoa(other)), wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
						t.Errorf("Content-Type %q, want text/csv", ct)
					}
					lines := strings.Split(strings.TrimSpace(string(r.Body)), "\n")
					if len(lines) != 3 || !strings.HasPrefix(lines[0], "id,title,") || !strings.Contains(string(r.Body), "Initech") || strings.Contains(string(r.Body), "Acme") {
						t.Errorf("want a header and the 2 cards of the funnel, got:\n%s", r.Body)
					}
					if !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
						t.Errorf("want an attachment, got %q", r.Header.Get("Content-Disposition"))
					}
				},
			},
			invalid("export with a bad filter is a JSON 422", get("/export?priority[]=asap"), "priority"),
		})

		csvFile := []byte("Name,Amount,Stage,Owner\nNew lead,120.5,qualified," + "\nSecond lead,,,\nBad stage,5,nowhere,\n,3,new,\n")
		upload := func(route string, extra ...string) request {
			f := fields(extra...).file("file", "leads.csv", "text/csv", csvFile)
			return request{method: "POST", path: items + "/" + route, body: f}
		}
		mappings := `{"Name":"title","Amount":"value","Stage":"funnel_stage","Owner":"assigned_agents"}`
		a.run(t, []scenario{
			{name: "import_preview shows the columns and first rows", request: as(agent, upload("import_preview")), wantStatus: http.StatusOK,
				want: map[string]any{"columns": []string{"Name", "Amount", "Stage", "Owner"}, "total_rows": 4, "preview_rows.0.Name": "New lead", "preview_rows.#": 4}},
			invalid("import_preview without a file is 422", request{method: "POST", path: items + "/import_preview", body: fields("x", "y")}, "file"),
			status("import_preview of a JSON body is 400", post("import_preview", H{"file": "x"}), http.StatusBadRequest),
			invalid("import without funnel_id is 422", upload("import", "mappings", mappings), "funnel_id"),
			invalid("import mapping to an unknown field is 422", upload("import", "funnel_id", itoa(sales), "mappings", `{"Name":"headline"}`), "mappings"),
			invalid("import mapping an absent column is 422", upload("import", "funnel_id", itoa(sales), "mappings", `{"Title":"title"}`), "mappings"),
			invalid("import into another account's funnel is 422", upload("import", "funnel_id", itoa(funnelB), "mappings", mappings), "funnel_id"),
			{name: "the refused imports created nothing", request: get("?funnel_id=" + itoa(sales)), wantStatus: http.StatusOK,
				want: map[string]any{"meta.count": 1}},
			{
				name:       "import creates the good rows and reports the others by row",
				request:    upload("import", "funnel_id", itoa(sales), "default_stage", "new", "mappings", mappings),
				wantStatus: http.StatusOK,
				want: map[string]any{"total_rows": 4, "created_count": 2, "error_count": 2, "success": false,
					"errors.*.row": []int{4, 5}, "created_ids.#": 2},
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"new": {r.ints(t, "created_ids")[1]}, "qualified": {k1, r.ints(t, "created_ids")[0]}})
				},
			},
		})
	})
}
