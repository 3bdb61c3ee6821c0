package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/testdb"
)

// boardQuery is the query a board shows: its stages, a page of cards in
// each, and each card's agents. cards is the page; agent the agents'
// selection.
func boardQuery(cards int, agent string) string {
	return fmt.Sprintf(`query($id: ID!) { funnel(id: $id) { name stages { name slug items(first: %d) {
		edges { node { title priority value assignedAgents { %s } } } } } } }`, cards, agent)
}

// TestBoardQueryFitsTheCostLimit: a funnel's stages and a card's agents
// are priced by their caps (MaxFunnelStages, MaxCardAgents) instead of the
// default list bound, so the board query passes the cost limit while a
// bigger one still fails; and the caps hold where stages and agents are
// written.
func TestBoardQueryFitsTheCostLimit(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		agents := []int{a.AdminID}
		for range schema.MaxCardAgents {
			id, _ := a.agentUser(a.Account)
			agents = append(agents, id)
		}
		funnel := atoi(t, mustGet(t, a.mustREST("POST", base+"/funnels", a.Admin, H{"name": "Deals",
			"stages": []H{{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}}, http.StatusOK), "id"))
		card := atoi(t, mustGet(t, a.mustREST("POST", base+"/kanban_items", a.Admin, H{"funnel_id": funnel,
			"funnel_stage": "new", "item_details": H{"title": "Ann's deal"}, "assigned_agents": agents[:schema.MaxCardAgents]},
			http.StatusOK), "id"))
		stages := make([]H, core.MaxFunnelStages+1)
		for i := range stages {
			stages[i] = H{"name": fmt.Sprintf("Stage %d", i)}
		}
		assign := `mutation($c: ID!, $a: ID!) { assignKanbanItemAgent(id: $c, agentID: $a) { kanbanItem { id } userErrors { field message code } } }`
		a.run(t, []gqlCase{
			{name: "the board: stages, 50 cards each, their agents", query: boardQuery(50, "id name"),
				vars: H{"id": funnel}, want: H{"funnel.stages.*.slug": []any{"new", "won"},
					"funnel.stages.0.items.edges.0.node.title": "Ann's deal"},
				check: func(t *testing.T, r *gqlResp) {
					got := mustGet(t, r.Data, "funnel.stages.0.items.edges.0.node.assignedAgents").([]any)
					if len(got) != schema.MaxCardAgents {
						t.Errorf("the card shows %d agents, want %d", len(got), schema.MaxCardAgents)
					}
				}},
			{name: "a page of 100 cards with more of each agent is over the limit", query: boardQuery(100, "id name email avatarURL"),
				vars: H{"id": funnel}, status: http.StatusUnprocessableEntity, code: "QUERY_TOO_COMPLEX", check: messageHas("limit of 50000")},
			{name: "the board twice over is over the limit",
				query: `query($id: ID!) { a: funnel(id: $id) { stages { items(first: 50) { edges { node { assignedAgents { id name } } } } } }
					b: funnel(id: $id) { stages { items(first: 50) { edges { node { assignedAgents { id name } } } } } } }`,
				vars: H{"id": funnel}, status: http.StatusUnprocessableEntity, code: "QUERY_TOO_COMPLEX"},
			{name: "a card takes no agent past the cap", query: assign, vars: H{"c": card, "a": agents[schema.MaxCardAgents]},
				code: "INVALID", check: func(t *testing.T, r *gqlResp) {
					if m := gqlMessage(r); !strings.Contains(m, "at most 10 agents") {
						t.Errorf("the refusal says %q, want the card's cap of 10 agents", m)
					}
				}},
			{name: "nor at creation", query: `mutation($in: KanbanItemInput!) { createKanbanItem(input: $in) { kanbanItem { id } userErrors { field message code } } }`,
				vars: H{"in": H{"funnelID": funnel, "stage": "won", "title": "Crowded", "assignedAgents": agents}},
				code: "INVALID", attrs: []string{"input.assignedAgents"}},
			{name: "a funnel takes no stage past the cap", query: `mutation($in: FunnelInput!) { createFunnel(input: $in) { funnel { id } userErrors { field message code } } }`,
				vars: H{"in": H{"name": "Huge", "stages": stages}}, code: "INVALID", attrs: []string{"input.stages"}},
		})
	})
}
