package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestCardFiltersKeepToTheAgentsInboxes: a card is the account's, but a
// filter through its conversation (search by the contact, a report by
// inbox) reads conversations, and an agent outside a conversation's inbox
// learns nothing of it that way: not which card hangs on it, nor the
// figures of an inbox it does not work in.
func TestCardFiltersKeepToTheAgentsInboxes(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agent, hidden, worked := a.agentOfOneInbox()
		zed, _ := a.contact(hidden, H{"name": "Zed Secret", "email": "zed@hidden.test"})
		yan, _ := a.contact(worked, H{"name": "Yan Known", "email": "yan@worked.test"})
		sales := a.funnel("Sales", "new")
		cardOn := func(inbox, contact int, title string, value int) int {
			conv := a.conversation(a.Account, inbox, contact)
			return a.mustDo(request{method: "POST", path: a.path("/kanban_items"), body: H{"funnel_id": sales, "funnel_stage": "new",
				"conversation_display_id": conv, "item_details": H{"title": title, "value": value}}}, http.StatusOK).int(t, "id")
		}
		secret := cardOn(hidden, zed, "Q3 renewal", 9000)
		known := cardOn(worked, yan, "Q4 upsell", 300)

		items := a.path("/kanban_items")
		get := func(query string) request { return request{method: "GET", path: items + query} }
		a.run(t, []scenario{
			{name: "the administrator finds a card by its conversation's contact", request: get("/search?query=zed@hidden"),
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{secret}, "meta.total_count": 1}},
			{name: "an agent outside that inbox does not", request: as(agent, get("/search?query=zed@hidden")),
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{}, "meta.total_count": 0}},
			{name: "nor by the contact's name", request: as(agent, get("/search?query=Zed")),
				wantStatus: http.StatusOK, want: map[string]any{"meta.total_count": 0}},
			{name: "the agent finds it by the card's own title", request: as(agent, get("/search?query=Q3")),
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{secret}}},
			{name: "and by the contact of a conversation of its inbox", request: as(agent, get("/search?query=yan@worked")),
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": []int{known}}},
			{name: "the filter route keeps to the same rule", request: as(agent, get("/filter?query=zed")),
				wantStatus: http.StatusOK, want: map[string]any{"meta.total_count": 0}},
			{name: "the administrator's report for the hidden inbox counts its card", request: get("/reports?inbox_id=" + itoa(hidden)),
				wantStatus: http.StatusOK, want: map[string]any{"total_items": 1, "total_value": 9000}},
			{name: "the agent's report for it counts nothing", request: as(agent, get("/reports?inbox_id="+itoa(hidden))),
				wantStatus: http.StatusOK, want: map[string]any{"total_items": 0, "total_value": 0, "by_status.open.count": 0}},
			{name: "the agent's report for its own inbox counts its card", request: as(agent, get("/reports?inbox_id="+itoa(worked))),
				wantStatus: http.StatusOK, want: map[string]any{"total_items": 1, "total_value": 300}},
		})
	})
}

// agentOfOneInbox makes two API inboxes and an agent who works in the
// second only: the inbox it is outside of, and the one it works in.
func (a *app) agentOfOneInbox() (agent string, hidden, worked int) {
	a.t.Helper()
	agentID, agent := a.agent(a.Account)
	hidden, worked = a.apiInbox("Hidden"), a.apiInbox("Worked")
	a.addInboxMembers(worked, agentID)
	return agent, hidden, worked
}
