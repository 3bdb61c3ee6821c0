package kanban

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardnote"
	"github.com/switchboard/switchboard/ent/cardstagehistory"
	"github.com/switchboard/switchboard/ent/checklistitem"
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
	// Spans are the latest MaxStaysListed stays, oldest first; Stays counts
	// every one.
	Spans []StageSpan
	Stays int
	// PerStage sums every stay by stage slug, and StageOrder names those
	// stages in the order the card first entered each (at most
	// MaxStaysListed of them).
	PerStage   map[string]int64
	StageOrder []string
	// Total runs from creation to now, or to when the card was won or lost.
	Total int64
}

// StageChanges is how many times the card changed stage: its stays less
// the first.
func (ct *CardTime) StageChanges() int { return max(ct.Stays-1, 0) }

// CardTimeReport computes a card's time in each stage from its stage
// history (never from the card's current fields alone).
func (s *Service) CardTimeReport(ctx context.Context, cardID int) (*CardTime, error) {
	c := s.Client(ctx)
	it, err := s.loadCard(ctx, c, cardID)
	if err != nil {
		return nil, err
	}
	end := clockEnd(it, s.Now())
	f := newStays(MaxStaysListed, end)
	if err := foldHistory(ctx, c, cardID, f); err != nil {
		return nil, err
	}
	order := f.order[:min(len(f.order), MaxStaysListed)]
	ids := append(append([]int(nil), order...), stayStages(f.listed)...)
	names, err := stageNames(ctx, c, ids)
	if err != nil {
		return nil, err
	}
	out := &CardTime{Card: it, Spans: f.listed, Stays: f.count, PerStage: map[string]int64{}, Total: seconds(it.CreatedAt, end)}
	for i := range out.Spans {
		n := names[out.Spans[i].StageID]
		out.Spans[i].Slug, out.Spans[i].Name = n.slug, n.name
	}
	for _, id := range order {
		slug := names[id].slug
		if _, seen := out.PerStage[slug]; !seen {
			out.StageOrder = append(out.StageOrder, slug)
		}
		out.PerStage[slug] += f.seconds[id]
	}
	return out, nil
}

func stayStages(spans []StageSpan) []int {
	ids := make([]int, len(spans))
	for i, sp := range spans {
		ids[i] = sp.StageID
	}
	return ids
}

// clockEnd is when a card's clock stops: when it was won or lost, else now.
func clockEnd(it *ent.KanbanItem, now time.Time) time.Time {
	if it.Status != kanbanitem.StatusOpen && it.ClosedAt != nil {
		return *it.ClosedAt
	}
	return now
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
