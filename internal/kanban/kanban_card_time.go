package kanban

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardnote"
	"github.com/switchboard/switchboard/ent/cardstagehistory"
	"github.com/switchboard/switchboard/ent/checklistitem"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// CardCounts are the sizes of a card's parts.
type CardCounts struct {
	ChecklistTotal, ChecklistDone, Notes, Agents, StageChanges int
}

// CardCounts counts a card's checklist (done and total), notes, agents and
// stage changes.
func (s *Service) CardCounts(ctx context.Context, cardID int) (*CardCounts, error) {
	c := s.Client(ctx)
	it, err := c.KanbanItem.Get(ctx, cardID)
	if err != nil {
		return nil, apperr.From(core.NotFound(err, "Kanban item"))
	}
	var out CardCounts
	counts := []struct {
		dst *int
		q   interface {
			Count(context.Context) (int, error)
		}
	}{
		{&out.ChecklistTotal, c.ChecklistItem.Query().Where(checklistitem.KanbanItemID(cardID))},
		{&out.ChecklistDone, c.ChecklistItem.Query().Where(checklistitem.KanbanItemID(cardID), checklistitem.Completed(true))},
		{&out.Notes, c.CardNote.Query().Where(cardnote.KanbanItemID(cardID))},
		{&out.Agents, c.KanbanItem.QueryAssignedAgents(it)},
		{&out.StageChanges, c.CardStageHistory.Query().Where(cardstagehistory.KanbanItemID(cardID), cardstagehistory.KindEQ(cardstagehistory.KindStageChanged))},
	}
	for _, q := range counts {
		if *q.dst, err = q.q.Count(ctx); err != nil {
			return nil, apperr.From(err)
		}
	}
	return &out, nil
}

// StageSpan is one stay of a card in a stage, from its stage history.
type StageSpan struct {
	StageID, FunnelID int
	Slug, Name        string
	EnteredAt         time.Time
	LeftAt            *time.Time // nil: still there
	Seconds           int64
}

// CardTime is where a card's time went.
type CardTime struct {
	Card *ent.KanbanItem
	// Spans are the stays in order; PerStage sums them by stage slug.
	Spans    []StageSpan
	PerStage map[string]int64
	// Total runs from creation to now, or to when the card was won or lost.
	Total int64
}

// StageChanges is how many times the card changed stage: its stays less
// the first.
func (ct *CardTime) StageChanges() int { return max(len(ct.Spans)-1, 0) }

// CardTimeReport computes a card's time in each stage from its stage
// history (never from the card's current fields alone).
func (s *Service) CardTimeReport(ctx context.Context, cardID int) (*CardTime, error) {
	c := s.Client(ctx)
	it, err := s.loadCard(ctx, c, cardID)
	if err != nil {
		return nil, err
	}
	hist, err := c.CardStageHistory.Query().Where(cardstagehistory.KanbanItemID(cardID)).
		Order(ent.Asc(cardstagehistory.FieldCreatedAt), ent.Asc(cardstagehistory.FieldID)).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	end := clockEnd(it, s.Now())
	spans := stageSpans(hist, end)
	if err := s.nameSpans(ctx, c, spans); err != nil {
		return nil, err
	}
	out := &CardTime{Card: it, Spans: spans, PerStage: map[string]int64{}, Total: seconds(it.CreatedAt, end)}
	for _, sp := range spans {
		out.PerStage[sp.Slug] += sp.Seconds
	}
	return out, nil
}

// clockEnd is when a card's clock stops: when it was won or lost, else now.
func clockEnd(it *ent.KanbanItem, now time.Time) time.Time {
	if it.Status != kanbanitem.StatusOpen && it.ClosedAt != nil {
		return *it.ClosedAt
	}
	return now
}

// stageSpans turns a card's history (oldest first) into its stays in
// stages; the last stay lasts until end.
func stageSpans(hist []*ent.CardStageHistory, end time.Time) []StageSpan {
	var spans []StageSpan
	for _, h := range hist {
		if h.Kind == cardstagehistory.KindStatusChanged || h.ToStageID == nil {
			continue
		}
		if n := len(spans); n > 0 {
			left := h.CreatedAt
			spans[n-1].LeftAt = &left
			spans[n-1].Seconds = seconds(spans[n-1].EnteredAt, minTime(left, end))
		}
		spans = append(spans, StageSpan{StageID: *h.ToStageID, FunnelID: core.Deref(h.ToFunnelID), EnteredAt: h.CreatedAt})
	}
	if n := len(spans); n > 0 {
		spans[n-1].Seconds = seconds(spans[n-1].EnteredAt, end)
	}
	return spans
}

func (s *Service) nameSpans(ctx context.Context, c *ent.Client, spans []StageSpan) error {
	var ids []int
	for _, sp := range spans {
		ids = append(ids, sp.StageID)
	}
	if len(ids) == 0 {
		return nil
	}
	stages, err := c.FunnelStage.Query().Where(funnelstage.IDIn(core.UniqueInts(ids)...)).All(ctx)
	if err != nil {
		return apperr.From(err)
	}
	byID := map[int]*ent.FunnelStage{}
	for _, st := range stages {
		byID[st.ID] = st
	}
	for i := range spans {
		if st := byID[spans[i].StageID]; st != nil {
			spans[i].Slug, spans[i].Name = st.Slug, st.Name
		} else {
			spans[i].Slug, spans[i].Name = "removed_stage", "(removed stage)"
		}
	}
	return nil
}

func seconds(from, to time.Time) int64 {
	if to.Before(from) {
		return 0
	}
	return int64(to.Sub(from) / time.Second)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
