package graph_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Card search over GraphQL: REST's /kanban_items/search and /filter through
// the same operation (kanban.Cards), with its checks.
func TestSearchKanbanItemsOverGraphQL(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		agent := w.agent(w.Account)
		funnel := w.newFunnel(t, `{name: "Deals", stages: [{name: "New", slug: "new"}, {name: "Won", slug: "won"}]}`)
		card := func(title, priority string, value float64) int {
			return w.newCard(t, fmt.Sprintf(`{funnelID: %d, title: %q, priority: %q, value: %v}`, funnel, title, priority, value))
		}
		acme := card("Acme renewal", "high", 500)
		card("Globex pilot", "low", 50)
		initech := card("Initech upsell", "high", 5000)
		w.gqlOK(t, fmt.Sprintf(`mutation { createCardNote(kanbanItemID: %d, content: "Spoke with the CFO") { cardNote { id } } }`, initech), nil)
		w.gqlOK(t, fmt.Sprintf(`mutation { changeKanbanItemStatus(id: %d, status: "won") { kanbanItem { id } } }`, acme), nil)

		titles := func(ts ...string) []any {
			out := make([]any, len(ts))
			for i, s := range ts {
				out[i] = H{"title": s}
			}
			return out
		}
		q := `query($in: KanbanItemSearchInput, $page: Int, $per: Int) { searchKanbanItems(input: $in, page: $page, perPage: $per) {
			nodes { title } totalCount page hasMore } }`
		w.run(t, []gqlCase{
			{name: "text in a note finds its card, for an agent", token: agent, query: q, vars: H{"in": H{"query": "cfo"}},
				want: H{"searchKanbanItems.nodes": titles("Initech upsell"), "searchKanbanItems.totalCount": 1.0}},
			{name: "text in a title, ignoring case", query: q, vars: H{"in": H{"query": "ACME"}},
				want: H{"searchKanbanItems.nodes": titles("Acme renewal")}},
			{name: "priorities, each listed twice, and a value floor", query: q,
				vars: H{"in": H{"priorities": []any{"high", "high"}, "valueMin": 1000}},
				want: H{"searchKanbanItems.nodes": titles("Initech upsell")}},
			{name: "a status", query: q, vars: H{"in": H{"funnelID": funnel, "statuses": []any{"won"}}},
				want: H{"searchKanbanItems.nodes": titles("Acme renewal")}},
			{name: "pages of two", query: q, vars: H{"in": H{"funnelID": funnel}, "page": 2, "per": 2},
				want: H{"searchKanbanItems.totalCount": 3.0, "searchKanbanItems.page": 2.0, "searchKanbanItems.hasMore": false},
				check: func(t *testing.T, r *gqlResp) {
					if n := len(mustGet(t, r.Data, "searchKanbanItems.nodes").([]any)); n != 1 {
						t.Errorf("page 2 of 3 cards by 2 has %d cards, want 1", n)
					}
				}},
			{name: "an unknown priority is refused", query: q, vars: H{"in": H{"priorities": []any{"extreme"}}}, code: "BAD_USER_INPUT"},
			{name: "a floor over the ceiling is refused", query: q, vars: H{"in": H{"valueMin": 10, "valueMax": 1}}, code: "BAD_USER_INPUT"},
			{name: "the cost is priced at the page asked for: small pages may nest deep",
				query: `{ searchKanbanItems(perPage: 10) { nodes { conversation { messages(first: 100) { edges { node { content } } } } } } }`,
				want:  H{"searchKanbanItems.nodes": []any{H{"conversation": nil}, H{"conversation": nil}, H{"conversation": nil}}}},
			{name: "and large ones may not",
				query: `{ searchKanbanItems(perPage: 500) { nodes { conversation { messages(first: 100) { edges { node { content } } } } } } }`,
				code:  "QUERY_TOO_COMPLEX", status: 422},
			{name: "another account finds none of them", token: w.BAdmin, query: q, vars: H{"in": H{"query": "a"}},
				want: H{"searchKanbanItems.totalCount": 0.0, "searchKanbanItems.nodes": []any{}}},
		})
	})
}
