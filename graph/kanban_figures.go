package graph

import (
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/kanban"
)

// maxStaysListed bounds a time report's stays: the latest are kept, where
// the card is now among them.
const maxStaysListed = 1000

func funnelStageStats(st *kanban.StageStats) *model.FunnelStageStats {
	out := &model.FunnelStageStats{FunnelID: st.FunnelID, Stages: make([]*model.StageStats, len(st.Stages)),
		Count: st.Total.Count, TotalValue: st.Total.TotalValue, Open: st.Total.Open, Won: st.Total.Won, Lost: st.Total.Lost}
	for i, s := range st.Stages {
		out.Stages[i] = &model.StageStats{Slug: s.Slug, Name: s.Name, Color: s.Color, Count: s.Count,
			TotalValue: s.TotalValue, Open: s.Open, Won: s.Won, Lost: s.Lost}
	}
	return out
}

func timeReport(ct *kanban.CardTime) *model.KanbanItemTimeReport {
	it := ct.Card
	out := &model.KanbanItemTimeReport{KanbanItemID: it.ID, Status: string(it.Status), CreatedAt: it.CreatedAt,
		ClosedAt: it.ClosedAt, TotalDurationSeconds: int(ct.Total), StageChanges: max(len(ct.Spans)-1, 0)}
	spans := ct.Spans[max(len(ct.Spans)-maxStaysListed, 0):]
	out.Stays = make([]*model.StageStay, len(spans))
	for i, sp := range spans {
		out.Stays[i] = &model.StageStay{Stage: sp.Slug, StageName: sp.Name, StageID: sp.StageID, FunnelID: sp.FunnelID,
			EnteredAt: sp.EnteredAt, LeftAt: sp.LeftAt, DurationSeconds: int(sp.Seconds)}
	}
	// By stage, in the order the card first entered each.
	seen := map[string]bool{}
	for _, sp := range ct.Spans {
		if !seen[sp.Slug] && len(out.TimePerStage) < maxStaysListed {
			seen[sp.Slug] = true
			out.TimePerStage = append(out.TimePerStage, &model.StageTime{Stage: sp.Slug, Seconds: int(ct.PerStage[sp.Slug])})
		}
	}
	if out.TimePerStage == nil {
		out.TimePerStage = []*model.StageTime{}
	}
	return out
}
