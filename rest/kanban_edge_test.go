package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Kanban edge cases: values too large to sum, absurd page numbers, agents
// echoing a card's link back, stage renames onto parking-like slugs.
func TestKanbanEdgeCases(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)

		t.Run("a value too large to sum is 422, and the figures stay finite", func(t *testing.T) {
			f := a.funnel("Values", "new")
			r := a.do(request{method: "POST", path: a.path("/kanban_items"), body: H{"funnel_id": f, "funnel_stage": "new",
				"item_details": H{"title": "x", "value": 1e308}}})
			if r.Status != http.StatusUnprocessableEntity {
				t.Errorf("a value of 1e308: %s, want 422", r)
			}
			a.card(f, "new", H{"title": "y", "value": 1e15})
			a.card(f, "new", H{"title": "z", "value": 1e15})
			for _, p := range []string{a.path("/funnels/%d/stage_stats", f), a.path("/kanban_items/reports?funnel_id=%d", f)} {
				if r := a.do(request{method: "GET", path: p}); r.Status != http.StatusOK {
					t.Errorf("%s", r)
				}
			}
		})
		t.Run("a huge page is an empty last page, not a 500", func(t *testing.T) {
			if r := a.do(request{method: "GET", path: a.path("/kanban_items?page=92233720368547760")}); r.Status >= 500 || r.Status == 200 && r.JSON.(map[string]any)["meta"].(map[string]any)["has_more"] == true {
				t.Errorf("%s", r)
			}
		})
		t.Run("an agent may edit a card that echoes its own conversation", func(t *testing.T) {
			f := a.funnel("Echo", "new")
			ib := a.apiInbox("Not the agent's")
			ct, _ := a.contact(ib, H{"name": "Alice"})
			conv := a.conversation(a.Account, ib, ct)
			id := a.mustDo(request{method: "POST", path: a.path("/kanban_items"), body: H{"funnel_id": f, "funnel_stage": "new",
				"conversation_display_id": conv, "item_details": H{"title": "Deal"}}}, http.StatusOK).int(t, "id")
			if r := a.do(as(agent, request{method: "PATCH", path: a.path("/kanban_items/%d", id), body: H{"kanban_item": H{
				"conversation_display_id": conv, "item_details": H{"title": "Deal, renamed"}}}})); r.Status != http.StatusOK {
				t.Errorf("%s", r)
			}
		})
		t.Run("renaming a stage while another stage is slugged tmp-<id>", func(t *testing.T) {
			r := a.mustDo(request{method: "POST", path: a.path("/funnels"), body: H{"funnel": H{"name": "Tmp",
				"stages": []H{{"name": "A", "slug": "a"}}}}}, http.StatusOK)
			f, ida := r.int(t, "id"), r.int(t, "stages.0.id")
			idb := a.mustDo(request{method: "PATCH", path: a.path("/funnels/%d", f), body: H{"funnel": H{"stages": []H{
				{"id": ida}, {"name": "B", "slug": "tmp-" + itoa(ida)}}}}}, http.StatusOK).int(t, "stages.1.id")
			if r := a.do(request{method: "PATCH", path: a.path("/funnels/%d", f), body: H{"funnel": H{"stages": []H{
				{"id": ida, "slug": "x"}, {"id": idb}}}}}); r.Status != http.StatusOK {
				t.Errorf("%s", r)
			}
		})
	})
}
