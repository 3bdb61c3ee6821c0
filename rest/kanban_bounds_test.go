package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestCardListsAreBounded: a funnel's cards come a page at a time, with the
// card list's parameters (the kanban fork's route), and a card holds at most
// schema.MaxCardParts checklist items and as many notes, which REST answers
// whole.
func TestCardListsAreBounded(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		sales := a.funnel("Sales", "new", "won")
		k1 := a.card(sales, "new", H{"title": "One"})
		k2 := a.card(sales, "new", H{"title": "Two"})
		k3 := a.card(sales, "won", H{"title": "Three"})
		full := a.card(sales, "won", H{"title": "Full"})
		c := a.srv.DB.Client
		if err := c.ChecklistItem.MapCreateBulk(make([]int, schema.MaxCardParts-1), func(b *ent.ChecklistItemCreate, i int) {
			b.SetAccountID(a.Account).SetKanbanItemID(full).SetText("seeded").SetPosition(i)
		}).Exec(sys()); err != nil {
			t.Fatal(err)
		}
		if err := c.CardNote.MapCreateBulk(make([]int, schema.MaxCardParts-1), func(b *ent.CardNoteCreate, i int) {
			b.SetAccountID(a.Account).SetKanbanItemID(full).SetContent("seeded")
		}).Exec(sys()); err != nil {
			t.Fatal(err)
		}
		funnelCards := func(query string) request {
			return request{method: "GET", path: a.path("/funnels/%d/kanban_items", sales) + query}
		}
		part := func(route string, body H) request {
			return request{method: "POST", path: a.path("/kanban_items/%d/%s", full, route), body: body}
		}
		a.run(t, []scenario{
			{name: "a funnel's cards come a page at a time, in board order", request: funnelCards("?per_page=2"),
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{k1, k2}, "meta.count": 4, "meta.has_more": true}},
			{name: "the next page holds the rest", request: funnelCards("?per_page=2&page=2"),
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{k3, full}, "meta.has_more": false}},
			{name: "and the card list's filters apply", request: funnelCards("?stage_id=won"),
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{k3, full}, "meta.count": 2}},
			status("the last checklist item fits", part("create_checklist_item", H{"text": "last"}), http.StatusOK),
			invalid("one more is refused", part("create_checklist_item", H{"text": "too many"}), "text"),
			status("the last note fits", part("create_note", H{"content": "last"}), http.StatusOK),
			invalid("one more is refused", part("create_note", H{"content": "too many"}), "content"),
			status("another card is not counted", request{method: "POST", path: a.path("/kanban_items/%d/create_note", k1),
				body: H{"content": "mine"}}, http.StatusOK),
			{name: "the checklist holds the cap", request: request{method: "GET", path: a.path("/kanban_items/%d/get_checklist", full)},
				wantStatus: http.StatusOK, want: map[string]any{"checklist.#": schema.MaxCardParts}},
		})
	})
}
