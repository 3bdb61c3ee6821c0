package kanban

import (
	"sort"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardstagehistory"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/apperr"
)

// A report over time groups the covered cards by week, month or year: how
// many were created in each, and how many were won and lost in each (when
// they were last closed). Per agent, it counts each agent's cards by status.

// ReportGroupings are the periods a report over time may use.
var ReportGroupings = []string{"week", "month", "year"}

// MaxReportPeriods bounds the periods of a report over time.
const MaxReportPeriods = 520

// PeriodReport is one period of a report over time, from Start.
type PeriodReport struct {
	Start              time.Time
	Created, Won, Lost CountValue
}

// AgentReport is one agent's covered cards (UserID 0: no agent).
type AgentReport struct {
	UserID          int
	Name            string
	Cards           int
	Open, Won, Lost CountValue
}

// reportGrouping is the grouping asked for, or the one that fits the
// period: weeks up to half a year, months up to ten years, then years.
func reportGrouping(in ReportInput) (string, error) {
	g := in.GroupBy
	if g == "" {
		switch days := in.To.Sub(in.From).Hours() / 24; {
		case days <= 183:
			g = "week"
		case days <= 3660:
			g = "month"
		default:
			g = "year"
		}
	}
	valid := false
	for _, ok := range ReportGroupings {
		valid = valid || ok == g
	}
	if !valid {
		return "", apperr.Invalid("group_by must be week, month or year", "group_by")
	}
	return g, nil
}

// periodStart is the start (UTC) of the period holding t: weeks start on
// Monday, as ISO weeks do.
func periodStart(t time.Time, g string) time.Time {
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	switch g {
	case "week":
		return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	case "month":
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
}

func nextPeriod(t time.Time, g string) time.Time {
	switch g {
	case "week":
		return t.AddDate(0, 0, 7)
	case "month":
		return t.AddDate(0, 1, 0)
	}
	return t.AddDate(1, 0, 0)
}

// emptyPeriods lists every period of [from, to), so that a chart shows the
// quiet ones too; more than MaxReportPeriods is refused.
func emptyPeriods(from, to time.Time, g string) ([]PeriodReport, error) {
	var out []PeriodReport
	for p := periodStart(from, g); p.Before(to); p = nextPeriod(p, g) {
		if len(out) == MaxReportPeriods {
			return nil, apperr.Invalidf("group_by", "The period holds more than %d %ss: group by a longer period or shorten it", MaxReportPeriods, g)
		}
		out = append(out, PeriodReport{Start: p})
	}
	return out, nil
}

// closedAt is when the card was last given status (won or lost).
func closedAt(hist []*ent.CardStageHistory, status string) (time.Time, bool) {
	for i := len(hist) - 1; i >= 0; i-- {
		if h := hist[i]; h.Kind == cardstagehistory.KindStatusChanged && h.ToStatus == status {
			return h.CreatedAt, true
		}
	}
	return time.Time{}, false
}

// fillPeriods counts the cards into the periods: created by creation time,
// won and lost by when they were closed, if that falls in the report.
func fillPeriods(periods []PeriodReport, g string, cards []*ent.KanbanItem, hist map[int][]*ent.CardStageHistory) {
	index := map[time.Time]int{}
	for i, p := range periods {
		index[p.Start] = i
	}
	add := func(t time.Time, pick func(*PeriodReport) *CountValue, value float64) {
		if i, ok := index[periodStart(t, g)]; ok {
			cv := pick(&periods[i])
			cv.Count++
			cv.Value += value
		}
	}
	for _, it := range cards {
		add(it.CreatedAt, func(p *PeriodReport) *CountValue { return &p.Created }, it.Value)
		if it.Status == kanbanitem.StatusOpen {
			continue
		}
		if at, ok := closedAt(hist[it.ID], string(it.Status)); ok {
			if it.Status == kanbanitem.StatusWon {
				add(at, func(p *PeriodReport) *CountValue { return &p.Won }, it.Value)
			} else {
				add(at, func(p *PeriodReport) *CountValue { return &p.Lost }, it.Value)
			}
		}
	}
}

// agentReports counts each assigned agent's cards (a card of two agents
// counts for both), the unassigned last, agents by name.
func agentReports(cards []*ent.KanbanItem) []AgentReport {
	byUser := map[int]*AgentReport{}
	add := func(id int, name string, it *ent.KanbanItem) {
		r := byUser[id]
		if r == nil {
			r = &AgentReport{UserID: id, Name: name}
			byUser[id] = r
		}
		r.Cards++
		cv := map[kanbanitem.Status]*CountValue{kanbanitem.StatusOpen: &r.Open, kanbanitem.StatusWon: &r.Won, kanbanitem.StatusLost: &r.Lost}[it.Status]
		if cv != nil {
			cv.Count++
			cv.Value += it.Value
		}
	}
	for _, it := range cards {
		if len(it.Edges.AssignedAgents) == 0 {
			add(0, "", it)
		}
		for _, u := range it.Edges.AssignedAgents {
			name := u.DisplayName
			if name == "" {
				name = u.Name
			}
			add(u.ID, name, it)
		}
	}
	out := make([]AgentReport, 0, len(byUser))
	for _, r := range byUser {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.UserID == 0) != (b.UserID == 0) {
			return b.UserID == 0
		}
		return a.Name < b.Name || (a.Name == b.Name && a.UserID < b.UserID)
	})
	return out
}
