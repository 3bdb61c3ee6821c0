package kanban

import (
	"context"
	"strconv"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// Bulk operations are all or nothing: every id must name a card of the
// account and every card must accept the change, or nothing changes (the
// forks skip failing cards and report them, leaving half-done batches).

// BulkMove moves cards to a stage slug, of funnelID when set (else of each
// card's own funnel), last in the stage, in the order given.
func (s *Service) BulkMove(ctx context.Context, ids []int, funnelID *int, stage string) ([]*ent.KanbanItem, error) {
	if err := checkBulkIDs(ids); err != nil {
		return nil, err
	}
	if strings.TrimSpace(stage) == "" {
		return nil, apperr.Invalid("Funnel stage can't be blank", "funnel_stage")
	}
	slug := strings.TrimSpace(stage)
	var out []*ent.KanbanItem
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		out = nil
		cards, err := lockCards(ctx, c, ids, "item_ids", core.Deref(funnelID))
		if err != nil {
			return err
		}
		for _, id := range uniqueOrdered(ids) {
			from, err := s.loadCard(ctx, c, id)
			if err != nil {
				return err
			}
			it, err := c.KanbanItem.Get(ctx, id)
			if err != nil {
				return err
			}
			moved, err := s.moveLocked(ctx, c, it, core.Deref(funnelID), &slug, nil)
			if err != nil {
				return bulkItemError(id, err)
			}
			now, err := s.loadCard(ctx, c, id)
			if err != nil {
				return err
			}
			out = append(out, now)
			if moved && now.StageID != cards[id].StageID {
				if err := s.announceMove(ctx, c, from, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return cardsWritten(ctx, out, err)
}

// BulkAssignAgent assigns an agent to cards; with replace, the agent becomes
// each card's only agent.
func (s *Service) BulkAssignAgent(ctx context.Context, ids []int, agentID int, replace bool) ([]*ent.KanbanItem, error) {
	if err := checkBulkIDs(ids); err != nil {
		return nil, err
	}
	if agentID <= 0 {
		return nil, apperr.Invalid("Agent can't be blank: send agent_id", "agent_id")
	}
	return s.bulkUpdate(ctx, ids, func(ctx context.Context, c *ent.Client) error {
		return checkCardAgents(ctx, c, "agent_id", []int{agentID})
	}, func(ctx context.Context, c *ent.Client, it *ent.KanbanItem) error {
		upd := c.KanbanItem.UpdateOne(it)
		if replace {
			upd.ClearAssignedAgents()
		} else if has, err := c.KanbanItem.QueryAssignedAgents(it).Where(user.ID(agentID)).Exist(ctx); err != nil || has {
			return err
		}
		return upd.AddAssignedAgentIDs(agentID).Exec(ctx)
	})
}

// BulkSetPriority sets the priority of cards.
func (s *Service) BulkSetPriority(ctx context.Context, ids []int, priority string) ([]*ent.KanbanItem, error) {
	if err := checkBulkIDs(ids); err != nil {
		return nil, err
	}
	if !core.ContainsString(CardPriorities, priority) {
		return nil, apperr.Invalid("Priority must be one of "+strings.Join(CardPriorities, ", "), "priority")
	}
	return s.bulkUpdate(ctx, ids, nil, func(ctx context.Context, c *ent.Client, it *ent.KanbanItem) error {
		return c.KanbanItem.UpdateOne(it).SetPriority(kanbanitem.Priority(priority)).Exec(ctx)
	})
}

// bulkUpdate applies change to every card in one transaction, after check,
// and announces each as updated. It locks the cards' funnels first, like a
// move: it writes many card rows, and taking those row locks in another
// order than a concurrent renumbering would let the two deadlock.
func (s *Service) bulkUpdate(ctx context.Context, ids []int, check func(context.Context, *ent.Client) error,
	change func(context.Context, *ent.Client, *ent.KanbanItem) error) ([]*ent.KanbanItem, error) {
	var out []*ent.KanbanItem
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		out = nil // a retried transaction starts over
		cards, err := lockCards(ctx, c, ids, "item_ids")
		if err != nil {
			return err
		}
		if check != nil {
			if err := check(ctx, c); err != nil {
				return err
			}
		}
		for _, id := range uniqueOrdered(ids) {
			if err := change(ctx, c, cards[id]); err != nil {
				return bulkItemError(id, err)
			}
			card, err := s.loadCard(ctx, c, id)
			if err != nil {
				return err
			}
			out = append(out, card)
			if err := s.announceCard(ctx, c, events.KanbanItemUpdated, card, nil); err != nil {
				return err
			}
		}
		return nil
	})
	return cardsWritten(ctx, out, err)
}

func checkBulkIDs(ids []int) error {
	if len(ids) == 0 {
		return apperr.Invalid("Item ids can't be blank: send the ids of the cards", "item_ids")
	}
	if len(ids) > core.MaxIDs {
		return apperr.Invalid("Item ids: at most "+strconv.Itoa(core.MaxIDs)+" cards at once", "item_ids")
	}
	return nil
}

// bulkItemError names the card a refused change was for.
func bulkItemError(id int, err error) error {
	if ae, ok := err.(*apperr.Error); ok && ae.Kind == apperr.KindInvalid {
		return apperr.Invalid("Card "+strconv.Itoa(id)+": "+ae.Message, ae.Fields...)
	}
	return err
}

func uniqueOrdered(ids []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
