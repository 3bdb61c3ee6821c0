package kanban

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
)

// BulkDelete deletes cards (administrators only), all or nothing like the
// other bulk operations: one unknown id and none is deleted. Each deleted
// card is announced and its stage closes the gap, as DeleteCard does.
func (s *Service) BulkDelete(ctx context.Context, ids []int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	if err := checkBulkIDs(ids); err != nil {
		return err
	}
	return core.ApperrOrNil(s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if _, err := lockCards(ctx, c, ids, "item_ids"); err != nil {
			return err
		}
		for _, id := range uniqueOrdered(ids) {
			// Read afresh: deleting an earlier card of the same stage
			// shifted this one's position.
			it, err := c.KanbanItem.Get(ctx, id)
			if err != nil {
				return err
			}
			if err := s.deleteLocked(ctx, c, it); err != nil {
				return err
			}
		}
		return nil
	}))
}
