package kanban

import (
	"context"

	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/apperr"
)

// OpenValue is one open card's funnel, value and currency, for summing a
// pipeline's worth (per currency: amounts in different currencies do not
// add up).
type OpenValue struct {
	FunnelID int
	Value    float64
	Currency map[string]string
}

// OpenValues lists the account's open cards' values, reading only the
// three columns it needs.
func (s *Service) OpenValues(ctx context.Context) ([]OpenValue, error) {
	items, err := s.Client(ctx).KanbanItem.Query().Where(kanbanitem.StatusEQ(kanbanitem.StatusOpen)).
		Select(kanbanitem.FieldFunnelID, kanbanitem.FieldValue, kanbanitem.FieldCurrency).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	out := make([]OpenValue, len(items))
	for i, it := range items {
		out[i] = OpenValue{FunnelID: it.FunnelID, Value: it.Value, Currency: it.Currency}
	}
	return out, nil
}
