package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of funnels and their stages (spec §2 Funnel, §4 Funnels;
// issue 6).

// funnel creates a funnel with stages (slugs) in the bootstrapped account
// and returns its id.
func (a *app) funnel(name string, slugs ...string) int {
	a.t.Helper()
	stages := make([]H, 0, len(slugs))
	for _, s := range slugs {
		stages = append(stages, H{"name": "Stage " + s, "slug": s})
	}
	return a.mustDo(request{method: "POST", path: a.path("/funnels"), body: H{"funnel": H{"name": name, "stages": stages}}},
		http.StatusOK).int(a.t, "id")
}

func TestFunnels(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		accB, adminB := a.otherAccount("Globex")
		funnelB := a.mustDo(request{method: "POST", path: accountPath(accB, "/funnels"), token: adminB,
			body: H{"funnel": H{"name": "B", "stages": []H{{"name": "New"}}}}}, http.StatusOK).int(t, "id")

		funnels := a.path("/funnels")
		create := func(body any) request { return request{method: "POST", path: funnels, body: body} }
		one := func(method string, id int, body any) request {
			return request{method: method, path: a.path("/funnels/%d", id), body: body}
		}
		var sales int
		a.run(t, []scenario{
			{
				name: "GET /funnels is an empty payload at first", request: request{method: "GET", path: funnels},
				wantStatus: http.StatusOK, want: map[string]any{"payload.#": 0},
			},
			{
				name: "create with stages in order, slugs given or derived from the name",
				request: create(H{"funnel": H{"name": "Sales", "description": "Deals", "stages": []H{
					{"name": "New Lead", "slug": "new", "color": "#1f93ff"},
					{"name": "Proposal Sent!"},
					{"name": "Won deals", "slug": "won-deals", "description": "closed"},
				}}}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "name": "Sales", "description": "Deals", "active": true, "account_id": a.Account,
					"stages.*.slug":  []string{"new", "proposal_sent", "won-deals"},
					"stages.*.name":  []string{"New Lead", "Proposal Sent!", "Won deals"},
					"stages.0.color": "#1f93ff", "stages.2.description": "closed", "stages.*.position": []int{0, 1, 2},
					"created_at": isoTime,
				},
				check: func(t *testing.T, r *response) { sales = r.int(t, "id") },
			},
			{
				name:       "create unwrapped; derived slugs that collide get a suffix",
				request:    create(H{"name": "Support", "stages": []H{{"name": "To do"}, {"name": "To-do"}}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"stages.*.slug": []string{"to_do", "to_do_2"}},
			},
			{
				name: "the forks' stages object keyed by slug is read in position order",
				request: create(H{"funnel": H{"name": "Keyed", "stages": H{
					"b": H{"name": "Second", "position": 2}, "a": H{"name": "First", "position": 1},
				}}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"stages.*.slug": []string{"a", "b"}},
			},
			invalid("a slug with capitals or spaces is 422 naming stages",
				create(H{"name": "Bad", "stages": []H{{"name": "A", "slug": "Not Valid"}}}), "stages"),
			invalid("a slug used twice is 422", create(H{"name": "Dup", "stages": []H{{"name": "A", "slug": "a"}, {"name": "B", "slug": "a"}}}), "stages"),
			invalid("a stage without a name is 422", create(H{"name": "Nameless", "stages": []H{{"slug": "a"}}}), "stages"),
			invalid("a stage colour that is not hex is 422", create(H{"name": "Colour", "stages": []H{{"name": "A", "color": "blue"}}}), "stages"),
			invalid("stages that is not a list is 422", create(H{"name": "Wrong", "stages": "new,won"}), "stages"),
			invalid("no name is 422 naming name", create(H{"stages": []H{{"name": "A"}}}), "name"),
			invalid("a name already used is 422", create(H{"name": "Sales"}), "name"),
			invalid("active that is not a boolean is 422", create(H{"name": "X", "active": "maybe"}), "active"),
			status("malformed JSON is 400", create("{not json"), http.StatusBadRequest),
			status("an agent's create is 403", as(agent, create(H{"name": "Agent's"})), http.StatusForbidden),
			status("no token is 401", as(noToken, create(H{"name": "Anon"})), http.StatusUnauthorized),
			{
				name: "the refused creates made nothing; agents may list", request: as(agent, request{method: "GET", path: funnels}),
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.name": []string{"Keyed", "Sales", "Support"}},
			},
		})
		if sales == 0 {
			t.Fatal("no funnel to go on with")
		}
		a.run(t, []scenario{
			{
				name: "show includes the ordered stages", request: as(agent, one("GET", sales, nil)), wantStatus: http.StatusOK,
				want: map[string]any{"name": "Sales", "stages.*.slug": []string{"new", "proposal_sent", "won-deals"}},
			},
			status("another account's funnel is 404", one("GET", funnelB, nil), http.StatusNotFound),
			status("PATCH of another account's funnel is 404", one("PATCH", funnelB, H{"name": "x"}), http.StatusNotFound),
			status("DELETE of another account's funnel is 404", one("DELETE", funnelB, nil), http.StatusNotFound),
			status("an unknown funnel is 404", one("GET", 999999, nil), http.StatusNotFound),
			status("a non-numeric id is 404", request{method: "GET", path: a.path("/funnels/abc")}, http.StatusNotFound),
			status("an agent's PATCH is 403", as(agent, one("PATCH", sales, H{"name": "Mine"})), http.StatusForbidden),
			status("an agent's DELETE is 403", as(agent, one("DELETE", sales, nil)), http.StatusForbidden),
			status("an agent's reorder is 403", as(agent, request{method: "PATCH", path: a.path("/funnels/%d/reorder", sales),
				body: H{"stages": []string{"won-deals", "proposal_sent", "new"}}}), http.StatusForbidden),
			{
				name: "PATCH renames and keeps unsent fields", request: one("PATCH", sales, H{"funnel": H{"name": "Sales 2026"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"name": "Sales 2026", "description": "Deals", "stages.#": 3},
			},
			{
				name: "PATCH stages: update by slug (unsent fields kept), add one, drop an empty one",
				request: one("PATCH", sales, H{"stages": []H{
					{"slug": "new", "name": "Lead"},
					{"name": "Qualified", "slug": "qualified"},
					{"name": "Won", "slug": "won-deals"},
				}}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"stages.*.slug": []string{"new", "qualified", "won-deals"}, "stages.*.name": []string{"Lead", "Qualified", "Won"},
					"stages.0.color": "#1f93ff",
				},
			},
			{
				name: "reorder takes slugs or {slug} objects", request: request{method: "PATCH", path: a.path("/funnels/%d/reorder", sales),
					body: H{"stages": []any{"won-deals", H{"slug": "qualified"}, "new"}}},
				wantStatus: http.StatusOK, want: map[string]any{"stages.*.slug": []string{"won-deals", "qualified", "new"}},
			},
			invalid("reorder missing a stage is 422", request{method: "PATCH", path: a.path("/funnels/%d/reorder", sales),
				body: H{"stages": []string{"won-deals", "new"}}}, "stages"),
			invalid("reorder with an unknown stage is 422", request{method: "PATCH", path: a.path("/funnels/%d/reorder", sales),
				body: H{"stages": []string{"won-deals", "qualified", "new", "ghost"}}}, "stages"),
			invalid("reorder naming a stage twice is 422", request{method: "PATCH", path: a.path("/funnels/%d/reorder", sales),
				body: H{"stages": []string{"won-deals", "qualified", "new", "new"}}}, "stages"),
			invalid("reorder without stages is 422", request{method: "PATCH", path: a.path("/funnels/%d/reorder", sales), body: H{}}, "stages"),
			status("reorder of another account's funnel is 404", request{method: "PATCH", path: a.path("/funnels/%d/reorder", funnelB),
				body: H{"stages": []string{"new"}}}, http.StatusNotFound),
			{
				name: "the refused reorders changed nothing", request: one("GET", sales, nil), wantStatus: http.StatusOK,
				want: map[string]any{"stages.*.slug": []string{"won-deals", "qualified", "new"}},
			},
		})
		card := a.card(sales, "qualified", H{"title": "Deal", "value": 100})
		a.run(t, []scenario{
			invalid("PATCH dropping a stage that holds cards is 422, nothing changed", one("PATCH", sales, H{"name": "Renamed", "stages": []H{
				{"slug": "new", "name": "Lead"}, {"slug": "won-deals", "name": "Won"},
			}}), "stages"),
			{
				name: "the funnel is as it was", request: one("GET", sales, nil), wantStatus: http.StatusOK,
				want: map[string]any{"name": "Sales 2026", "stages.*.slug": []string{"won-deals", "qualified", "new"}},
			},
			{
				name: "renaming a stage's slug keeps its cards in it",
				request: one("PATCH", sales, H{"stages": []H{
					{"slug": "won-deals", "name": "Won"}, {"id": stageID(t, a, sales, "qualified"), "slug": "hot", "name": "Hot"}, {"slug": "new", "name": "Lead"},
				}}),
				wantStatus: http.StatusOK, want: map[string]any{"stages.*.slug": []string{"won-deals", "hot", "new"}},
			},
			{
				name: "the card is now in stage hot", request: request{method: "GET", path: a.path("/kanban_items/%d", card)},
				wantStatus: http.StatusOK, want: map[string]any{"funnel_stage": "hot", "position": 0},
			},
			{
				name: "DELETE removes the funnel", request: one("DELETE", sales, nil), wantStatus: http.StatusOK,
			},
			status("the funnel is gone", one("GET", sales, nil), http.StatusNotFound),
			status("and so are its cards", request{method: "GET", path: a.path("/kanban_items/%d", card)}, http.StatusNotFound),
		})
	})
}

// stageID looks up the id of a funnel's stage by slug.
func stageID(t *testing.T, a *app, funnelID int, slug string) int {
	t.Helper()
	r := a.mustDoT(t, request{method: "GET", path: a.path("/funnels/%d", funnelID)}, http.StatusOK)
	slugs, _ := r.get("stages.*.slug")
	for i, s := range slugs.([]any) {
		if s == slug {
			return r.int(t, "stages."+itoa(i)+".id")
		}
	}
	t.Fatalf("funnel %d has no stage %q", funnelID, slug)
	return 0
}

// card creates a card in a funnel stage with item_details and returns its id.
func (a *app) card(funnelID int, stage string, details H) int {
	a.t.Helper()
	return a.mustDo(request{method: "POST", path: a.path("/kanban_items"), body: H{"kanban_item": H{
		"funnel_id": funnelID, "funnel_stage": stage, "item_details": details,
	}}}, http.StatusOK).int(a.t, "id")
}
