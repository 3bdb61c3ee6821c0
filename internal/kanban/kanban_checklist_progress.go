package kanban

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/checklistitem"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// ChecklistProgress is how much of a card's checklist is done.
type ChecklistProgress struct {
	Done, Total int
}

// ChecklistProgressOf counts the checklist items (done and total) of many
// cards in one grouped query per batch, for a board's card faces; a card
// without a checklist is absent from the result.
func (s *Service) ChecklistProgressOf(ctx context.Context, cardIDs []int) (map[int]ChecklistProgress, error) {
	out := map[int]ChecklistProgress{}
	ids := core.UniqueInts(cardIDs)
	for start := 0; start < len(ids); start += 500 { // bounded IN lists
		end := min(start+500, len(ids))
		var rows []struct {
			KanbanItemID int  `json:"kanban_item_id"`
			Completed    bool `json:"completed"`
			Count        int  `json:"count"`
		}
		err := s.Client(ctx).ChecklistItem.Query().Where(checklistitem.KanbanItemIDIn(ids[start:end]...)).
			GroupBy(checklistitem.FieldKanbanItemID, checklistitem.FieldCompleted).
			Aggregate(ent.Count()).Scan(ctx, &rows)
		if err != nil {
			return nil, apperr.From(err)
		}
		for _, r := range rows {
			p := out[r.KanbanItemID]
			p.Total += r.Count
			if r.Completed {
				p.Done += r.Count
			}
			out[r.KanbanItemID] = p
		}
	}
	return out, nil
}
