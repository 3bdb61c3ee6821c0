package kanban

import (
	"context"
	"sort"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardstagehistory"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
)

// ReportInput selects the cards a report covers: created in [From, To),
// in a funnel, assigned to any of UserIDs, linked to a conversation of
// InboxID. Zero values do not filter, but for the period: To defaults to
// now and From to 30 days before To.
type ReportInput struct {
	From, To time.Time
	FunnelID int
	UserIDs  []int
	InboxID  int
	// GroupBy is the period of the report over time (ReportGroupings);
	// empty: the one that fits From and To.
	GroupBy string
}

// Report is the board's figures, every one computed from the cards and
// their stage history.
type Report struct {
	From, To   time.Time
	TotalItems int
	TotalValue float64
	ByStatus   map[string]CountValue
	ByStage    []StageReport
	// WinRate is won / (won + lost); nil while nothing is closed.
	WinRate *float64
	// AvgTimeToWin is the mean seconds from creation to being won; nil
	// when nothing was won.
	AvgTimeToWin *float64
	// GroupBy and ByPeriod are the report over time; ByAgent per agent.
	GroupBy  string
	ByPeriod []PeriodReport
	ByAgent  []AgentReport
}

// CountValue is a number of cards and their summed value.
type CountValue struct {
	Count int
	Value float64
}

// StageReport is one stage's figures: the cards in it now, and the mean
// length of every stay in it by the covered cards.
type StageReport struct {
	FunnelID       int
	Slug, Name     string
	Count          int
	Value          float64
	Stays          int
	AvgTimeSeconds float64
	// Reached is how many of the covered cards were ever in the stage.
	Reached int
}

// KanbanReport computes the report for in.
func (s *Service) KanbanReport(ctx context.Context, in ReportInput) (*Report, error) {
	in, err := completeReportInput(in, s.Now())
	if err != nil {
		return nil, err
	}
	group, err := reportGrouping(in)
	if err != nil {
		return nil, err
	}
	periods, err := emptyPeriods(in.From, in.To, group)
	if err != nil {
		return nil, err
	}
	c := s.Client(ctx)
	q := c.KanbanItem.Query().Where(kanbanitem.CreatedAtGTE(in.From), kanbanitem.CreatedAtLT(in.To)).WithAssignedAgents()
	if in.FunnelID != 0 {
		q.Where(kanbanitem.FunnelID(in.FunnelID))
	}
	if len(in.UserIDs) > 0 {
		q.Where(kanbanitem.HasAssignedAgentsWith(user.IDIn(in.UserIDs...)))
	}
	if in.InboxID != 0 {
		q.Where(kanbanitem.HasConversationWith(visibleConversation(ctx, conversation.InboxID(in.InboxID))...))
	}
	cards, err := q.All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	hist, err := historyOf(ctx, c, cards)
	if err != nil {
		return nil, err
	}
	out := &Report{From: in.From, To: in.To, ByStatus: map[string]CountValue{}, GroupBy: group, ByPeriod: periods}
	fillPeriods(out.ByPeriod, group, cards, hist)
	out.ByAgent = agentReports(cards)
	for _, st := range CardStatuses {
		out.ByStatus[st] = CountValue{}
	}
	stages := map[int]*StageReport{}
	stageOf := func(id, funnelID int) *StageReport {
		if stages[id] == nil {
			stages[id] = &StageReport{FunnelID: funnelID}
		}
		return stages[id]
	}
	var staySeconds = map[int]int64{}
	var wonTotal float64
	won := 0
	for _, it := range cards {
		out.TotalItems++
		out.TotalValue += it.Value
		cv := out.ByStatus[string(it.Status)]
		cv.Count++
		cv.Value += it.Value
		out.ByStatus[string(it.Status)] = cv
		sr := stageOf(it.StageID, it.FunnelID)
		sr.Count++
		sr.Value += it.Value
		reached := map[int]bool{}
		for _, sp := range stageSpans(hist[it.ID], clockEnd(it, s.Now())) {
			stageOf(sp.StageID, sp.FunnelID).Stays++
			staySeconds[sp.StageID] += sp.Seconds
			if !reached[sp.StageID] {
				reached[sp.StageID] = true
				stageOf(sp.StageID, sp.FunnelID).Reached++
			}
		}
		if at, ok := closedAt(hist[it.ID], "won"); ok && it.Status == kanbanitem.StatusWon {
			wonTotal += float64(seconds(it.CreatedAt, at))
			won++
		}
	}
	if closed := out.ByStatus["won"].Count + out.ByStatus["lost"].Count; closed > 0 {
		rate := float64(out.ByStatus["won"].Count) / float64(closed)
		out.WinRate = &rate
	}
	if won > 0 {
		avg := wonTotal / float64(won)
		out.AvgTimeToWin = &avg
	}
	for id, sr := range stages {
		if sr.Stays > 0 {
			sr.AvgTimeSeconds = float64(staySeconds[id]) / float64(sr.Stays)
		}
	}
	if out.ByStage, err = s.orderStageReports(ctx, c, stages); err != nil {
		return nil, err
	}
	return out, nil
}

// maxReportUsers bounds the agents a report may be narrowed to.
const maxReportUsers = 100

// completeReportInput fills in's period left out (to now, from 30 days
// before to) and checks the period and the agents named.
func completeReportInput(in ReportInput, now time.Time) (ReportInput, error) {
	if in.To.IsZero() {
		in.To = now.UTC()
	}
	if in.From.IsZero() {
		in.From = in.To.AddDate(0, 0, -30)
	}
	if !in.From.Before(in.To) {
		return in, apperr.Invalid("from must be before to", "from")
	}
	if len(in.UserIDs) > maxReportUsers {
		return in, apperr.Invalidf("user_ids", "A report covers the cards of at most %d agents", maxReportUsers)
	}
	return in, nil
}

// historyOf loads the stage history of the cards, oldest first per card.
func historyOf(ctx context.Context, c *ent.Client, cards []*ent.KanbanItem) (map[int][]*ent.CardStageHistory, error) {
	out := map[int][]*ent.CardStageHistory{}
	ids := make([]int, len(cards))
	for i, it := range cards {
		ids[i] = it.ID
	}
	for start := 0; start < len(ids); start += 500 { // bounded IN lists
		end := min(start+500, len(ids))
		hs, err := c.CardStageHistory.Query().Where(cardstagehistory.KanbanItemIDIn(ids[start:end]...)).
			Order(ent.Asc(cardstagehistory.FieldCreatedAt), ent.Asc(cardstagehistory.FieldID)).All(ctx)
		if err != nil {
			return nil, apperr.From(err)
		}
		for _, h := range hs {
			out[h.KanbanItemID] = append(out[h.KanbanItemID], h)
		}
	}
	return out, nil
}

// orderStageReports names the stages and orders them by funnel and stage
// order; stays in stages removed since are left out.
func (s *Service) orderStageReports(ctx context.Context, c *ent.Client, stages map[int]*StageReport) ([]StageReport, error) {
	ids := make([]int, 0, len(stages))
	for id := range stages {
		ids = append(ids, id)
	}
	found, err := c.FunnelStage.Query().Where(funnelstage.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.FunnelID != b.FunnelID {
			return a.FunnelID < b.FunnelID
		}
		return a.Position < b.Position || (a.Position == b.Position && a.ID < b.ID)
	})
	out := make([]StageReport, 0, len(found))
	for _, st := range found {
		sr := stages[st.ID]
		sr.Slug, sr.Name, sr.FunnelID = st.Slug, st.Name, st.FunnelID
		out = append(out, *sr)
	}
	return out, nil
}
