package kanban

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/apperr"
)

// StageStat counts the cards of one stage (or of the whole funnel).
type StageStat struct {
	Slug, Name, Color string
	Count             int
	TotalValue        float64
	Open, Won, Lost   int
}

// StageStats are a funnel's figures per stage, in stage order, and in total.
type StageStats struct {
	FunnelID int
	Stages   []StageStat
	Total    StageStat
}

// StageStats counts a funnel's cards and their value per stage and status.
// One grouped query does it; every card counts, whoever it is assigned to.
func (s *Service) StageStats(ctx context.Context, funnelID int) (*StageStats, error) {
	f, err := s.Funnel(ctx, funnelID)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		StageID int     `json:"stage_id"`
		Status  string  `json:"status"`
		Count   int     `json:"count"`
		Sum     float64 `json:"sum"`
	}
	err = s.Client(ctx).KanbanItem.Query().Where(kanbanitem.FunnelID(funnelID)).
		GroupBy(kanbanitem.FieldStageID, kanbanitem.FieldStatus).
		Aggregate(ent.Count(), ent.Sum(kanbanitem.FieldValue)).Scan(ctx, &rows)
	if err != nil {
		return nil, apperr.From(err)
	}
	out := &StageStats{FunnelID: funnelID}
	index := map[int]int{}
	for i, st := range f.Edges.Stages {
		index[st.ID] = i
		out.Stages = append(out.Stages, StageStat{Slug: st.Slug, Name: st.Name, Color: st.Color})
	}
	for _, r := range rows {
		i, ok := index[r.StageID]
		if !ok {
			continue
		}
		addStat(&out.Stages[i], r.Status, r.Count, r.Sum)
		addStat(&out.Total, r.Status, r.Count, r.Sum)
	}
	return out, nil
}

func addStat(st *StageStat, status string, n int, sum float64) {
	st.Count += n
	st.TotalValue += sum
	switch status {
	case "won":
		st.Won += n
	case "lost":
		st.Lost += n
	default:
		st.Open += n
	}
}
