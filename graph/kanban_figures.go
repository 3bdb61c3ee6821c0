package graph

import (
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/kanban"
)

// maxReportStages bounds a report's stages (those of every funnel its cards
// went through).
const maxReportStages = 1000

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
		ClosedAt: it.ClosedAt, TotalDurationSeconds: int(ct.Total), StageChanges: ct.StageChanges()}
	out.Stays = make([]*model.StageStay, len(ct.Spans))
	for i, sp := range ct.Spans {
		out.Stays[i] = &model.StageStay{Stage: sp.Slug, StageName: sp.Name, StageID: sp.StageID, FunnelID: sp.FunnelID,
			EnteredAt: sp.EnteredAt, LeftAt: sp.LeftAt, DurationSeconds: int(sp.Seconds)}
	}
	for _, slug := range ct.StageOrder {
		out.TimePerStage = append(out.TimePerStage, &model.StageTime{Stage: slug, Seconds: int(ct.PerStage[slug])})
	}
	if out.TimePerStage == nil {
		out.TimePerStage = []*model.StageTime{}
	}
	return out
}

func reportInput(in *model.KanbanReportInput) kanban.ReportInput {
	var out kanban.ReportInput
	if in == nil {
		return out
	}
	out.FunnelID, out.InboxID, out.UserIDs, out.GroupBy = deref(in.FunnelID), deref(in.InboxID), in.UserIDs, deref(in.GroupBy)
	out.From, out.To = deref(in.From), deref(in.To)
	return out
}

func kanbanReport(r *kanban.Report) *model.KanbanReport {
	out := &model.KanbanReport{From: r.From, To: r.To, TotalItems: r.TotalItems, TotalValue: r.TotalValue,
		WinRate: r.WinRate, AvgTimeToWinSeconds: r.AvgTimeToWin, GroupBy: r.GroupBy}
	for _, st := range kanban.CardStatuses {
		out.ByStatus = append(out.ByStatus, &model.KanbanStatusFigures{Status: st, Figures: countValue(r.ByStatus[st])})
	}
	out.ByStage = make([]*model.KanbanStageReport, len(r.ByStage))
	for i, s := range r.ByStage {
		out.ByStage[i] = &model.KanbanStageReport{FunnelID: s.FunnelID, Slug: s.Slug, Name: s.Name, Count: s.Count,
			Value: s.Value, Stays: s.Stays, AvgTimeSeconds: s.AvgTimeSeconds, Reached: s.Reached}
	}
	out.ByPeriod = make([]*model.KanbanPeriodReport, len(r.ByPeriod))
	for i, p := range r.ByPeriod {
		out.ByPeriod[i] = &model.KanbanPeriodReport{Start: p.Start, Created: countValue(p.Created), Won: countValue(p.Won), Lost: countValue(p.Lost)}
	}
	out.ByAgent = make([]*model.KanbanAgentReport, len(r.ByAgent))
	for i, ag := range r.ByAgent {
		a := &model.KanbanAgentReport{Name: ag.Name, Cards: ag.Cards, Open: countValue(ag.Open), Won: countValue(ag.Won), Lost: countValue(ag.Lost)}
		if ag.UserID != 0 { // 0: the cards without an agent
			a.UserID = &ag.UserID
		}
		out.ByAgent[i] = a
	}
	return out
}

func countValue(cv kanban.CountValue) *model.CountValue {
	return &model.CountValue{Count: cv.Count, Value: cv.Value}
}
