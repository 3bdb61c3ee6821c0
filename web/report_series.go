package web

import (
	"fmt"

	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/views"
)

// The reports screen's figures over time, per agent and stage by stage, from
// the same report operation as the rest.

// fillSeries adds the report over time, the per-agent table and the
// stage-by-stage conversion to the screen.
func fillSeries(r *views.Reports, rep *kanban.Report, num func(float64, int) string) {
	r.Timeline = views.Timeline{GroupBy: rep.GroupBy}
	countValue := func(cv kanban.CountValue) string {
		if cv.Count == 0 {
			return "0"
		}
		return fmt.Sprintf("%d · %s", cv.Count, num(cv.Value, 0))
	}
	for _, p := range rep.ByPeriod {
		r.Timeline.Periods = append(r.Timeline.Periods, views.TimelinePeriod{
			Label: periodLabel(p, rep.GroupBy), Created: p.Created.Count, Won: p.Won.Count, Lost: p.Lost.Count,
			CreatedText: countValue(p.Created), WonText: countValue(p.Won), LostText: countValue(p.Lost),
		})
	}
	for _, a := range rep.ByAgent {
		row := views.AgentReportRow{Name: a.Name, Cards: a.Cards, Open: countValue(a.Open), Won: countValue(a.Won),
			Lost: countValue(a.Lost), WinRate: "—"}
		if a.UserID == 0 {
			row.Name = "No agent"
		}
		if closed := a.Won.Count + a.Lost.Count; closed > 0 {
			row.WinRate = num(100*float64(a.Won.Count)/float64(closed), 0) + " %"
		}
		r.AgentRows = append(r.AgentRows, row)
	}
	r.Charts = append([]views.Chart{conversionChart(rep, num)}, r.Charts...)
}

// conversionChart is how many of the covered cards reached each stage, and
// what share of those that entered their board's first stage that is.
func conversionChart(rep *kanban.Report, num func(float64, int) string) views.Chart {
	ch := views.Chart{ID: "chart-conversion", Title: "Cards that reached each stage", Unit: "Stage"}
	first := map[int]int{} // per funnel: the cards that reached its first stage shown
	for _, s := range rep.ByStage {
		if _, ok := first[s.FunnelID]; !ok {
			first[s.FunnelID] = s.Reached
		}
		display := fmt.Sprint(s.Reached)
		if f := first[s.FunnelID]; f > 0 {
			display += " · " + num(100*float64(s.Reached)/float64(f), 0) + " %"
		}
		ch.Rows = append(ch.Rows, views.ChartRow{Label: s.Name, Amount: float64(s.Reached), Display: display})
	}
	return ch
}

// periodLabel names a period as people read it.
func periodLabel(p kanban.PeriodReport, groupBy string) string {
	switch groupBy {
	case "week":
		return p.Start.Format("2 Jan 2006")
	case "month":
		return p.Start.Format("Jan 2006")
	}
	return p.Start.Format("2006")
}
