package rest_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardstagehistory"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/testdb"
)

// A card moved more often than a time report lists: REST, GraphQL (and the
// console's drawer, through the same operation) list its latest
// kanban.MaxStaysListed stays, while the totals count every stay.
func TestATimeReportListsTheLatestStaysAndCountsThemAll(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		sales := a.funnel("Sales", "new", "qualified")
		card := a.card(sales, "new", H{"title": "Bounced"})
		stages := map[string]int{}
		sts, err := a.srv.DB.Client.FunnelStage.Query().Where(funnelstage.FunnelID(sales)).All(sys())
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range sts {
			stages[st.Slug] = st.ID
		}

		// Stay k is in "new" when k is even, else in "qualified", and lasts
		// a minute: the created row is stay 0, then moves 1..moves.
		const moves = kanban.MaxStaysListed + 500
		base := time.Now().UTC().Truncate(time.Second).Add(-(moves + 10) * time.Minute)
		hs, err := a.srv.DB.Client.CardStageHistory.Query().Where(cardstagehistory.KanbanItemID(card)).All(sys())
		if err != nil || len(hs) != 1 {
			t.Fatalf("want the created row, got %d (%v)", len(hs), err)
		}
		setTime(t, a, e, "card_stage_histories", "created_at", hs[0].ID, base)
		setTime(t, a, e, "kanban_items", "created_at", card, base)
		for from := 1; from <= moves; from += 500 {
			var rows []*ent.CardStageHistoryCreate
			for k := from; k < from+500 && k <= moves; k++ {
				to := stages["qualified"]
				if k%2 == 0 {
					to = stages["new"]
				}
				rows = append(rows, a.srv.DB.Client.CardStageHistory.Create().SetAccountID(a.Account).
					SetKanbanItemID(card).SetKind(cardstagehistory.KindStageChanged).
					SetToFunnelID(sales).SetToStageID(to).SetCreatedAt(base.Add(time.Duration(k)*time.Minute)))
			}
			if err := a.srv.DB.Client.CardStageHistory.CreateBulk(rows...).Exec(sys()); err != nil {
				t.Fatal(err)
			}
		}
		// Won a minute into the last stay, which stops its clock.
		a.mustDo(request{method: "POST", path: a.path("/kanban_items/%d/change_status", card), body: H{"status": "won"}}, http.StatusOK)
		setTime(t, a, e, "kanban_items", "closed_at", card, base.Add((moves+1)*time.Minute))

		newSeconds, qualifiedSeconds := (moves/2+1)*60, moves/2*60
		firstListed := moves + 1 - kanban.MaxStaysListed
		a.run(t, []scenario{
			{
				name: "stage_time_breakdown lists the latest stays and totals every one", request: request{method: "GET", path: a.path("/kanban_items/%d/stage_time_breakdown", card)},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"stage_breakdown.#": kanban.MaxStaysListed, "total_stages": moves + 1,
					"stage_breakdown.0.entered_at": base.Add(time.Duration(firstListed) * time.Minute).Format("2006-01-02T15:04:05.000Z"),
					"stage_breakdown.0.stage":      "qualified", "stage_breakdown.999.left_at": nil,
					"time_per_stage": H{"new": newSeconds, "qualified": qualifiedSeconds},
				},
			},
			{
				name: "time_report counts every stage change", request: request{method: "GET", path: a.path("/kanban_items/%d/time_report", card)},
				wantStatus: http.StatusOK,
				want: map[string]any{"stage_changes": moves, "total_duration_seconds": (moves + 1) * 60,
					"time_per_stage": H{"new": newSeconds, "qualified": qualifiedSeconds}},
			},
			{
				name: "GraphQL's time report is the same operation's", request: request{method: "POST", path: "/graphql",
					header: map[string]string{"X-Account-Id": strconv.Itoa(a.Account)},
					body: H{"query": `query($id: ID!) { kanbanItemTimeReport(id: $id) { stageChanges stays { stage } timePerStage { stage seconds } } }`,
						"variables": H{"id": card}}},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"data.kanbanItemTimeReport.stageChanges": moves, "data.kanbanItemTimeReport.stays.#": kanban.MaxStaysListed,
					"data.kanbanItemTimeReport.stays.0.stage":          "qualified",
					"data.kanbanItemTimeReport.timePerStage.*.stage":   []string{"new", "qualified"},
					"data.kanbanItemTimeReport.timePerStage.*.seconds": []int{newSeconds, qualifiedSeconds},
				},
			},
		})
	})
}
