package rest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of kanban cards: CRUD, validation, moves, reorder, status,
// lists, stage stats and the events they send (spec §2 Kanban item, §3, §4
// Cards; issue 6).

// board reads a funnel's cards through the API and checks the invariant of
// every board: in each stage the positions are exactly 0..n-1 in list
// order. It returns the card ids per stage slug, in order.
func board(t *testing.T, a *app, funnelID int) map[string][]int {
	t.Helper()
	r := a.mustDoT(t, request{method: "GET", path: a.path("/funnels/%d/kanban_items", funnelID)}, http.StatusOK)
	list, _ := r.get("payload")
	out := map[string][]int{}
	for _, el := range list.([]any) {
		card := el.(map[string]any)
		slug := card["funnel_stage"].(string)
		if got, want := int(card["position"].(float64)), len(out[slug]); got != want {
			t.Fatalf("funnel %d stage %s: card %v has position %d, want %d (positions must be 0..n-1 in order)\n%s",
				funnelID, slug, card["id"], got, want, r)
		}
		if int(card["funnel_id"].(float64)) != funnelID {
			t.Fatalf("funnel %d lists card %v of funnel %v", funnelID, card["id"], card["funnel_id"])
		}
		out[slug] = append(out[slug], int(card["id"].(float64)))
	}
	return out
}

// expectBoard checks the board's stages hold exactly these cards in order.
func expectBoard(t *testing.T, a *app, funnelID int, want map[string][]int) {
	t.Helper()
	got := board(t, a, funnelID)
	for slug, ids := range want {
		if len(ids) == 0 && len(got[slug]) == 0 {
			continue
		}
		if compact(got[slug]) != compact(ids) {
			t.Errorf("funnel %d stage %s: want cards %v, got %v (board %v)", funnelID, slug, ids, got[slug], got)
		}
	}
	for slug := range got {
		if _, ok := want[slug]; !ok {
			t.Errorf("funnel %d: unexpected stage %s with cards %v", funnelID, slug, got[slug])
		}
	}
}

// outboxEvents lists the kanban events written to the webhook outbox, in order.
func outboxEvents(t *testing.T, a *app) []string {
	t.Helper()
	ds, err := a.srv.DB.Client.WebhookDelivery.Query().Order(webhookdelivery.ByID()).All(sys())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, d.Event)
	}
	return out
}

func TestKanbanItems(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		accB, adminB := a.otherAccount("Globex")
		funnelB := a.mustDo(request{method: "POST", path: accountPath(accB, "/funnels"), token: adminB,
			body: H{"name": "B", "stages": []H{{"name": "New"}}}}, http.StatusOK).int(t, "id")
		cardB := a.mustDo(request{method: "POST", path: accountPath(accB, "/kanban_items"), token: adminB,
			body: H{"funnel_id": funnelB, "item_details": H{"title": "Theirs"}}}, http.StatusOK).int(t, "id")
		a.mustDo(request{method: "POST", path: a.path("/webhooks"), body: H{"url": "https://hooks.example.com/k", "subscriptions": []string{
			"kanban_item.created", "kanban_item.updated", "kanban_item.moved", "kanban_item.status_changed", "kanban_item.deleted"}}}, http.StatusOK)

		sales := a.funnel("Sales", "new", "qualified", "won")
		other := a.funnel("Partners", "a", "b")
		ib := a.apiInbox("API")
		alice, _ := a.contact(ib, H{"name": "Alice Buyer", "email": "alice@buyer.test"})
		conv := a.conversation(a.Account, ib, alice)

		items := a.path("/kanban_items")
		create := func(body any) request { return request{method: "POST", path: items, body: body} }
		one := func(method string, id int, suffix string, body any) request {
			return request{method: method, path: a.path("/kanban_items/%d%s", id, suffix), body: body}
		}
		var c1, c2, c3 int
		a.run(t, []scenario{
			{
				name: "create with every field",
				request: create(H{"kanban_item": H{
					"funnel_id": sales, "funnel_stage": "new", "conversation_display_id": conv, "assigned_agents": []int{agentID, a.AdminID},
					"item_details": H{"title": "Big deal", "priority": "high", "value": 1500.5, "description": "from the fair",
						"currency": H{"symbol": "R$", "code": "BRL", "locale": "pt-BR"}, "source": "fair"},
				}}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "funnel_id": sales, "funnel_stage": "new", "position": 0, "status": "open",
					"conversation_display_id": conv, "conversation.contact.name": "Alice Buyer",
					"assigned_agents.*.id": sameItems(agentID, a.AdminID),
					"item_details.title":   "Big deal", "item_details.priority": "high", "item_details.value": 1500.5,
					"item_details.currency": H{"symbol": "R$", "code": "BRL", "locale": "pt-BR"}, "item_details.source": "fair",
					"item_details.description": "from the fair", "stage_entered_at": isoTime, "created_at": isoTime,
				},
				check: func(t *testing.T, r *response) { c1 = r.int(t, "id") },
			},
			{
				name:       "an agent creates a card, unwrapped, with defaults; it goes last",
				request:    as(agent, create(H{"funnel_id": sales, "funnel_stage": "new", "item_details": H{"title": "Small deal"}})),
				wantStatus: http.StatusOK,
				want: map[string]any{"position": 1, "item_details.priority": "none", "item_details.value": 0,
					"assigned_agents": []any{}, "conversation_display_id": nil, "created_by_id": agentID},
				check: func(t *testing.T, r *response) { c2 = r.int(t, "id") },
			},
			{
				name:       "a card created at position 0 goes first and pushes the others down",
				request:    create(H{"funnel_id": sales, "funnel_stage": "new", "position": 0, "item_details": H{"title": "Urgent", "value": "20"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"position": 0, "item_details.value": 20},
				check: func(t *testing.T, r *response) {
					c3 = r.int(t, "id")
					expectBoard(t, a, sales, map[string][]int{"new": {c3, c1, c2}})
				},
			},
			{
				name:       "no stage means the funnel's first stage; a position past the end means last",
				request:    create(H{"funnel_id": other, "position": 99, "item_details": H{"title": "Partner"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"funnel_stage": "a", "position": 0},
			},
			invalid("no funnel and no title is 422 naming both", create(H{"item_details": H{"priority": "high"}}), "funnel_id", "item_details.title"),
			invalid("a stage of another funnel is 422", create(H{"funnel_id": sales, "funnel_stage": "a", "item_details": H{"title": "x"}}), "funnel_stage"),
			invalid("another account's funnel is 422 on funnel_id", create(H{"funnel_id": funnelB, "item_details": H{"title": "x"}}), "funnel_id"),
			invalid("an unknown priority is 422", create(H{"funnel_id": sales, "item_details": H{"title": "x", "priority": "asap"}}), "item_details.priority"),
			invalid("a negative value is 422", create(H{"funnel_id": sales, "item_details": H{"title": "x", "value": -1}}), "item_details.value"),
			invalid("a value that is not a number is 422", create(H{"funnel_id": sales, "item_details": H{"title": "x", "value": "lots"}}), "item_details.value"),
			invalid("an agent of another account is 422", create(H{"funnel_id": sales, "assigned_agents": []int{999999}, "item_details": H{"title": "x"}}), "assigned_agents"),
			invalid("an unknown conversation is 422", create(H{"funnel_id": sales, "conversation_display_id": 999999, "item_details": H{"title": "x"}}), "conversation_display_id"),
			invalid("a negative position is 422", create(H{"funnel_id": sales, "position": -2, "item_details": H{"title": "x"}}), "position"),
			invalid("item_details that is not an object is 422", create(H{"funnel_id": sales, "item_details": "x"}), "item_details"),
			invalid("a currency that is not an object is 422", create(H{"funnel_id": sales, "item_details": H{"title": "x", "currency": 5}}), "item_details.currency"),
			status("malformed JSON is 400", create("{"), http.StatusBadRequest),
			status("no token is 401", as(noToken, create(H{"funnel_id": sales})), http.StatusUnauthorized),
			{
				name: "the refused creates made nothing", request: request{method: "GET", path: items, body: nil},
				wantStatus: http.StatusOK, want: map[string]any{"meta.count": 4, "payload.#": 4},
			},
		})
		if c1 == 0 || c2 == 0 || c3 == 0 {
			t.Fatal("no cards to go on with")
		}
		a.run(t, []scenario{
			{name: "show", request: as(agent, one("GET", c1, "", nil)), wantStatus: http.StatusOK, want: map[string]any{"id": c1, "position": 1}},
			status("another account's card is 404", one("GET", cardB, "", nil), http.StatusNotFound),
			status("PATCH of another account's card is 404", one("PATCH", cardB, "", H{"item_details": H{"title": "x"}}), http.StatusNotFound),
			status("move of another account's card is 404", one("POST", cardB, "/move_to_stage", H{"funnel_stage": "new"}), http.StatusNotFound),
			status("an unknown card is 404", one("GET", 999999, "", nil), http.StatusNotFound),
			{
				name: "GET /kanban_items filters by funnel and stage slug", request: request{method: "GET", path: items + "?funnel_id=" + itoa(sales) + "&stage_id=new"},
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{c3, c1, c2}, "meta.count": 3, "meta.current_page": 1, "meta.has_more": false},
			},
			{
				name: "filter by agent", request: request{method: "GET", path: items + "?agent_id=" + itoa(agentID)},
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{c1}},
			},
			{
				name: "agent_id=-1 finds the unassigned cards", request: request{method: "GET", path: items + "?funnel_id=" + itoa(sales) + "&agent_id=-1"},
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{c3, c2}},
			},
			{
				name: "filter by conversation display id", request: request{method: "GET", path: items + "?conversation_id=" + itoa(conv)},
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{c1}},
			},
			{
				// The card is the account's, but its conversation is the inbox's:
				// the filter goes through the conversation's rule.
				name:       "an agent outside the conversation's inbox finds no card by it",
				request:    as(agent, request{method: "GET", path: items + "?conversation_id=" + itoa(conv)}),
				wantStatus: http.StatusOK, want: map[string]any{"payload.#": 0, "meta.count": 0},
			},
			{
				name: "pages", request: request{method: "GET", path: items + "?funnel_id=" + itoa(sales) + "&per_page=2&page=2"},
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{c2}, "meta.count": 3, "meta.current_page": 2, "meta.has_more": false},
			},
			invalid("a page that is not a number is 422", request{method: "GET", path: items + "?page=x"}, "page"),
			{
				name: "batch counts cards per stage slug", request: request{method: "GET", path: items + "/batch?funnel_id=" + itoa(sales)},
				wantStatus: http.StatusOK, want: map[string]any{"meta.stage_counts": H{"new": 3}, "meta.total_items": 3, "payload.#": 3},
			},
			{
				name:       "PATCH changes the sent fields and merges item_details keys",
				request:    as(agent, one("PATCH", c1, "", H{"kanban_item": H{"item_details": H{"title": "Bigger deal", "source": nil, "channel": "web"}, "assigned_agents": []int{agentID}}})),
				wantStatus: http.StatusOK,
				want: map[string]any{"item_details.title": "Bigger deal", "item_details.priority": "high", "item_details.value": 1500.5,
					"item_details.channel": "web", "item_details.source": absent, "assigned_agents.*.id": []int{agentID}, "funnel_stage": "new", "position": 1},
			},
			invalid("PATCH with a blank title is 422", one("PATCH", c1, "", H{"item_details": H{"title": " "}}), "item_details.title"),
			invalid("PATCH with a bad priority and a negative value names both", one("PATCH", c1, "", H{"item_details": H{"priority": "x", "value": -5}}),
				"item_details.priority", "item_details.value"),
			{
				name: "the refused PATCHes changed nothing", request: one("GET", c1, "", nil), wantStatus: http.StatusOK,
				want: map[string]any{"item_details.title": "Bigger deal", "item_details.priority": "high", "item_details.value": 1500.5},
			},
			{
				name: "move_to_stage puts the card last in the new stage and closes the gap", request: as(agent, one("POST", c3, "/move_to_stage", H{"funnel_stage": "qualified"})),
				wantStatus: http.StatusOK, want: map[string]any{"funnel_stage": "qualified", "position": 0, "status": "open"},
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"new": {c1, c2}, "qualified": {c3}})
				},
			},
			{
				name: "move_to_stage with a position inserts there", request: one("POST", c2, "/move_to_stage", H{"funnel_stage": "qualified", "position": 0}),
				wantStatus: http.StatusOK, want: map[string]any{"funnel_stage": "qualified", "position": 0},
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"new": {c1}, "qualified": {c2, c3}})
				},
			},
			{
				name: "move_to_stage in the same stage changes the position only", request: one("POST", c2, "/move_to_stage", H{"funnel_stage": "qualified", "position": 5}),
				wantStatus: http.StatusOK, want: map[string]any{"funnel_stage": "qualified", "position": 1},
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"new": {c1}, "qualified": {c3, c2}})
				},
			},
			invalid("move_to_stage to an unknown stage is 422", one("POST", c2, "/move_to_stage", H{"funnel_stage": "nowhere"}), "funnel_stage"),
			invalid("move_to_stage without a stage is 422", one("POST", c2, "/move_to_stage", H{}), "funnel_stage"),
			invalid("move_to_stage to a negative position is 422", one("POST", c2, "/move_to_stage", H{"funnel_stage": "new", "position": -1}), "position"),
			invalid("move without a funnel is 422", one("POST", c2, "/move", H{"funnel_stage": "a"}), "funnel_id"),
			invalid("move to a stage not in that funnel is 422", one("POST", c2, "/move", H{"funnel_id": other, "funnel_stage": "new"}), "funnel_stage"),
			invalid("move to another account's funnel is 422", one("POST", c2, "/move", H{"funnel_id": funnelB, "funnel_stage": "new"}), "funnel_id"),
			{
				name: "the refused moves changed nothing", request: one("GET", c2, "", nil), wantStatus: http.StatusOK,
				want: map[string]any{"funnel_id": sales, "funnel_stage": "qualified", "position": 1},
			},
			{
				name: "move across funnels", request: one("POST", c2, "/move", H{"funnel_id": other, "funnel_stage": "b"}),
				wantStatus: http.StatusOK, want: map[string]any{"funnel_id": other, "funnel_stage": "b", "position": 0},
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"new": {c1}, "qualified": {c3}})
					board(t, a, other)
				},
			},
			{
				name: "move back, to the top of qualified", request: one("POST", c2, "/move", H{"funnel_id": sales, "funnel_stage": "qualified", "position": 0}),
				wantStatus: http.StatusOK, want: map[string]any{"funnel_id": sales, "funnel_stage": "qualified", "position": 0},
			},
			{
				name: "reorder applies a whole column's order and moves cards between stages",
				request: request{method: "POST", path: items + "/reorder", body: H{"positions": []H{
					{"id": c1, "position": 0, "funnel_stage": "qualified"}, {"id": c3, "position": 1}, {"id": c2, "position": 2},
				}}},
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{c1, c3, c2}, "payload.*.position": []int{0, 1, 2}},
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"qualified": {c1, c3, c2}})
				},
			},
			invalid("reorder naming an unknown card is 422 and changes nothing", request{method: "POST", path: items + "/reorder", body: H{"positions": []H{
				{"id": c2, "position": 0}, {"id": 999999, "position": 1},
			}}}, "positions"),
			invalid("reorder naming another account's card is 422", request{method: "POST", path: items + "/reorder", body: H{"positions": []H{{"id": cardB, "position": 0}}}}, "positions"),
			invalid("reorder with a bad stage is 422", request{method: "POST", path: items + "/reorder", body: H{"positions": []H{
				{"id": c2, "position": 0}, {"id": c1, "position": 1, "funnel_stage": "ghost"},
			}}}, "positions"),
			invalid("reorder without positions is 422", request{method: "POST", path: items + "/reorder", body: H{}}, "positions"),
			invalid("reorder with an entry lacking a position is 422", request{method: "POST", path: items + "/reorder", body: H{"positions": []H{{"id": c2}}}}, "positions"),
			{
				name: "the refused reorders changed nothing", request: one("GET", c2, "", nil), wantStatus: http.StatusOK,
				want: map[string]any{"funnel_stage": "qualified", "position": 2},
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"qualified": {c1, c3, c2}})
				},
			},
			{
				name: "change_status to won keeps the stage", request: as(agent, one("POST", c3, "/change_status", H{"status": "won"})),
				wantStatus: http.StatusOK, want: map[string]any{"status": "won", "item_details.status": "won", "funnel_stage": "qualified", "position": 1, "closed_at": isoTime},
			},
			invalid("change_status to anything else is 422", one("POST", c3, "/change_status", H{"status": "closed"}), "status"),
			invalid("change_status without a status is 422", one("POST", c3, "/change_status", nil), "status"),
			{
				name: "stage_stats counts per stage and status", request: as(agent, request{method: "GET", path: a.path("/funnels/%d/stage_stats", sales)}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"stages.*.slug": []string{"new", "qualified", "won"}, "stages.*.count": []int{0, 3, 0},
					"stages.1.won": 1, "stages.1.open": 2, "stages.1.total_value": 1520.5,
					"total_items": 3, "total_value": 1520.5, "won": 1, "open": 2, "lost": 0,
				},
			},
			status("stage_stats of another account's funnel is 404", request{method: "GET", path: a.path("/funnels/%d/stage_stats", funnelB)}, http.StatusNotFound),
			status("kanban_items of another account's funnel is 404", request{method: "GET", path: a.path("/funnels/%d/kanban_items", funnelB)}, http.StatusNotFound),
			status("an agent's DELETE is 403", as(agent, one("DELETE", c1, "", nil)), http.StatusForbidden),
			status("DELETE of another account's card is 404", one("DELETE", cardB, "", nil), http.StatusNotFound),
			{
				name: "DELETE removes the card and closes the gap", request: one("DELETE", c1, "", nil), wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					expectBoard(t, a, sales, map[string][]int{"qualified": {c3, c2}})
				},
			},
			status("the deleted card is 404", one("GET", c1, "", nil), http.StatusNotFound),
		})

		t.Run("every change went to the webhook outbox", func(t *testing.T) {
			got := map[string]int{}
			for _, ev := range outboxEvents(t, a) {
				got[ev]++
			}
			for _, ev := range []string{"kanban_item.created", "kanban_item.updated", "kanban_item.moved", "kanban_item.status_changed", "kanban_item.deleted"} {
				if got[ev] == 0 {
					t.Errorf("no %s event in the outbox (got %v)", ev, got)
				}
			}
			ds, err := a.srv.DB.Client.WebhookDelivery.Query().Where(webhookdelivery.Event("kanban_item.moved")).Order(webhookdelivery.ByID()).All(sys())
			if err != nil || len(ds) == 0 {
				t.Fatalf("moved events: %v %v", len(ds), err)
			}
			var p map[string]any
			if err := json.Unmarshal([]byte(ds[0].Payload), &p); err != nil {
				t.Fatal(err)
			}
			if p["from_stage"] != "new" || p["to_stage"] != "qualified" || p["kanban_item"] == nil {
				t.Errorf("first moved event: want from new to qualified with the card, got %v", p)
			}
		})
	})
}
