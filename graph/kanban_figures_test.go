package graph_test

import (
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// A funnel's per-stage figures and a card's time report over GraphQL: the
// same operations as REST's stage_stats and time_report, read by an agent.
func TestKanbanFiguresOverGraphQL(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		agent := w.agent(w.Account)
		funnel := w.newFunnel(t, `{name: "Sales", stages: [{name: "Lead", slug: "lead", color: "#111111"},
			{name: "Offer", slug: "offer", color: "#222222"}, {name: "Signed", slug: "signed", color: "#333333"}]}`)
		card := func(title, stage string, value float64) int {
			return w.newCard(t, fmt.Sprintf(`{funnelID: %d, stage: %q, title: %q, value: %v}`, funnel, stage, title, value))
		}
		moved := card("Moved and won", "lead", 1000)
		card("Waiting", "lead", 250.5)
		lost := card("Lost", "offer", 99)
		w.gqlOK(t, fmt.Sprintf(`mutation { moveKanbanItem(id: %d, stage: "offer") { kanbanItem { id } } }`, moved), nil)
		w.gqlOK(t, fmt.Sprintf(`mutation { moveKanbanItem(id: %d, stage: "signed") { kanbanItem { id } } }`, moved), nil)
		w.gqlOK(t, fmt.Sprintf(`mutation { changeKanbanItemStatus(id: %d, status: "won") { kanbanItem { id } } }`, moved), nil)
		w.gqlOK(t, fmt.Sprintf(`mutation { changeKanbanItemStatus(id: %d, status: "lost") { kanbanItem { id } } }`, lost), nil)

		stage := func(slug, name, color string, count int, value float64, open, won, lostN int) H {
			return H{"slug": slug, "name": name, "color": color, "count": float64(count), "totalValue": value,
				"open": float64(open), "won": float64(won), "lost": float64(lostN)}
		}
		w.run(t, []gqlCase{
			{name: "an agent reads the funnel's figures per stage, in board order", token: agent,
				query: fmt.Sprintf(`{ funnelStageStats(funnelID: %d) { funnelID count totalValue open won lost stages { slug name color count totalValue open won lost } } }`, funnel),
				want: H{"funnelStageStats.funnelID": gid("Funnel", funnel), "funnelStageStats.count": 3.0,
					"funnelStageStats.totalValue": 1349.5, "funnelStageStats.open": 1.0, "funnelStageStats.won": 1.0, "funnelStageStats.lost": 1.0,
					"funnelStageStats.stages": []any{
						stage("lead", "Lead", "#111111", 1, 250.5, 1, 0, 0),
						stage("offer", "Offer", "#222222", 1, 99, 0, 0, 1),
						stage("signed", "Signed", "#333333", 1, 1000, 0, 1, 0)}}},
			{name: "a card's stays, oldest first, and its time per stage", token: agent,
				query: fmt.Sprintf(`{ kanbanItemTimeReport(id: %d) { kanbanItemID status closedAt stageChanges totalDurationSeconds
					stays { stage stageName stageID funnelID enteredAt leftAt durationSeconds } timePerStage { stage seconds } } }`, moved),
				want: H{"kanbanItemTimeReport.kanbanItemID": gid("KanbanItem", moved), "kanbanItemTimeReport.status": "won",
					"kanbanItemTimeReport.closedAt": nonEmpty, "kanbanItemTimeReport.stageChanges": 2.0,
					"kanbanItemTimeReport.stays.0.stage": "lead", "kanbanItemTimeReport.stays.0.stageName": "Lead",
					"kanbanItemTimeReport.stays.0.leftAt": nonEmpty, "kanbanItemTimeReport.stays.0.funnelID": gid("Funnel", funnel),
					"kanbanItemTimeReport.stays.1.stage": "offer", "kanbanItemTimeReport.stays.2.stage": "signed",
					"kanbanItemTimeReport.stays.2.leftAt":       absent,
					"kanbanItemTimeReport.timePerStage.0.stage": "lead", "kanbanItemTimeReport.timePerStage.1.stage": "offer",
					"kanbanItemTimeReport.timePerStage.2.stage": "signed"},
				check: func(t *testing.T, r *gqlResp) {
					stays := mustGet(t, r.Data, "kanbanItemTimeReport.stays").([]any)
					perStage := mustGet(t, r.Data, "kanbanItemTimeReport.timePerStage").([]any)
					if len(stays) != 3 || len(perStage) != 3 {
						t.Fatalf("want 3 stays and 3 stages, got %d and %d", len(stays), len(perStage))
					}
					var staysSum, stagesSum float64
					for i := range stays {
						staysSum += mustGet(t, stays[i], "durationSeconds").(float64)
						stagesSum += mustGet(t, perStage[i], "seconds").(float64)
					}
					if staysSum != stagesSum || stagesSum > mustGet(t, r.Data, "kanbanItemTimeReport.totalDurationSeconds").(float64) {
						t.Errorf("the stays (%v s) and the stages (%v s) disagree, or pass the total: %s", staysSum, stagesSum, r.Body)
					}
				}},
			{name: "the funnel's report: by status, by stage from the history, the win rate", token: agent,
				query: fmt.Sprintf(`{ kanbanReport(input: {funnelID: %d, groupBy: "month"}) { totalItems totalValue winRate groupBy
					byStatus { status figures { count value } } byStage { slug count value stays reached }
					byPeriod { created { count } won { count } lost { count } } byAgent { userID name cards } } }`, funnel),
				want: H{"kanbanReport.totalItems": 3.0, "kanbanReport.totalValue": 1349.5, "kanbanReport.winRate": 0.5,
					"kanbanReport.groupBy": "month",
					"kanbanReport.byStatus": []any{
						H{"status": "open", "figures": H{"count": 1.0, "value": 250.5}},
						H{"status": "won", "figures": H{"count": 1.0, "value": 1000.0}},
						H{"status": "lost", "figures": H{"count": 1.0, "value": 99.0}}},
					"kanbanReport.byStage": []any{
						H{"slug": "lead", "count": 1.0, "value": 250.5, "stays": 2.0, "reached": 2.0},
						H{"slug": "offer", "count": 1.0, "value": 99.0, "stays": 2.0, "reached": 2.0},
						H{"slug": "signed", "count": 1.0, "value": 1000.0, "stays": 1.0, "reached": 1.0}},
					"kanbanReport.byAgent": []any{H{"userID": nil, "name": "", "cards": 3.0}}},
				check: func(t *testing.T, r *gqlResp) {
					// The last 30 days, by month: this month is the last period.
					periods := mustGet(t, r.Data, "kanbanReport.byPeriod").([]any)
					last := fmt.Sprint(periods[len(periods)-1])
					if len(periods) < 1 || len(periods) > 2 || last != "map[created:map[count:3] lost:map[count:1] won:map[count:1]]" {
						t.Errorf("periods %v, want one or two months with the cards in the last", periods)
					}
				}},
			{name: "a period that ends before it starts is refused",
				query: `{ kanbanReport(input: {from: "2026-06-01T00:00:00Z", to: "2026-05-01T00:00:00Z"}) { totalItems } }`, code: "BAD_USER_INPUT"},
			{name: "an unknown grouping is refused",
				query: `{ kanbanReport(input: {groupBy: "decade"}) { totalItems } }`, code: "BAD_USER_INPUT"},
			{name: "more than 100 agents are refused",
				query: `query($ids: [ID!]) { kanbanReport(input: {userIDs: $ids}) { totalItems } }`,
				vars:  H{"ids": manyIDs(101)}, code: "BAD_USER_INPUT"},
			{name: "another account's funnel is not found", token: w.BAdmin,
				query: fmt.Sprintf(`{ funnelStageStats(funnelID: %d) { count } }`, funnel), code: "NOT_FOUND"},
			{name: "another account's card is not found", token: w.BAdmin,
				query: fmt.Sprintf(`{ kanbanItemTimeReport(id: %d) { status } }`, moved), code: "NOT_FOUND"},
			{name: "an id of another type is refused",
				query: fmt.Sprintf(`{ kanbanItemTimeReport(id: %q) { status } }`, gid("Funnel", funnel)), code: "BAD_USER_INPUT"},
		})
	})
}

// manyIDs is n database ids, 1..n.
func manyIDs(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = id(i + 1)
	}
	return out
}

// newFunnel creates a funnel from input (a FunnelInput literal) and returns
// its database id.
func (a *app) newFunnel(t *testing.T, input string) int {
	t.Helper()
	r := a.gqlOK(t, `mutation { createFunnel(input: `+input+`) { funnel { databaseId } userErrors { field message } } }`, nil)
	return atoi(t, mustGet(t, r.Data, "createFunnel.funnel.databaseId"))
}

// newCard creates a card from input (a KanbanItemInput literal) and returns
// its database id.
func (a *app) newCard(t *testing.T, input string) int {
	t.Helper()
	r := a.gqlOK(t, `mutation { createKanbanItem(input: `+input+`) { kanbanItem { databaseId } userErrors { field message } } }`, nil)
	return atoi(t, mustGet(t, r.Data, "createKanbanItem.kanbanItem.databaseId"))
}
