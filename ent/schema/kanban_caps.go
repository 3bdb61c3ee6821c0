package schema

import (
	"context"

	"entgo.io/ent"

	gen "github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardnote"
	"github.com/switchboard/switchboard/ent/checklistitem"
	"github.com/switchboard/switchboard/ent/hook"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/apperr"
)

// MaxCardAgents caps the agents assigned to one card: a card is followed
// by a few people, and a board's GraphQL query is priced by this bound
// (every card's assignedAgents counts at most this many).
const MaxCardAgents = 10

// cardAgentsCapHook refuses a change that leaves a card with more than
// MaxCardAgents agents, whichever operation adds them (create, update,
// assign, bulk assign, import).
func cardAgentsCapHook() ent.Hook {
	return hook.On(func(next ent.Mutator) ent.Mutator {
		return hook.KanbanItemFunc(func(ctx context.Context, m *gen.KanbanItemMutation) (ent.Value, error) {
			if err := checkCardAgentsCap(ctx, m); err != nil {
				return nil, err
			}
			return next.Mutate(ctx, m)
		})
	}, ent.OpCreate|ent.OpUpdate|ent.OpUpdateOne)
}

func checkCardAgentsCap(ctx context.Context, m *gen.KanbanItemMutation) error {
	added := m.AssignedAgentsIDs()
	if len(added) == 0 {
		return nil
	}
	if m.Op().Is(ent.OpCreate) {
		return agentsWithin(len(distinct(added)))
	}
	ids, err := m.IDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		agents := map[int]bool{}
		if !m.AssignedAgentsCleared() {
			have, err := m.Client().KanbanItem.Query().Where(kanbanitem.ID(id)).QueryAssignedAgents().IDs(ctx)
			if err != nil {
				return err
			}
			for _, a := range have {
				agents[a] = true
			}
		}
		for _, a := range m.RemovedAssignedAgentsIDs() {
			delete(agents, a)
		}
		for _, a := range added {
			agents[a] = true
		}
		if err := agentsWithin(len(agents)); err != nil {
			return err
		}
	}
	return nil
}

func agentsWithin(n int) error {
	if n > MaxCardAgents {
		return apperr.Invalidf("assigned_agents", "A card takes at most %d agents, this change leaves %d", MaxCardAgents, n)
	}
	return nil
}

func distinct(ids []int) map[int]bool {
	out := make(map[int]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// MaxCardParts caps a card's checklist items, and its notes: REST answers
// both lists whole (get_checklist, get_notes, as the kanban fork does) and
// the console's card drawer shows them all. Two rows created at the same
// moment may pass it by one.
const MaxCardParts = 500

// cardPart is a create of a row that belongs to a card.
type cardPart interface {
	ent.Mutation
	KanbanItemID() (int, bool)
}

// cardPartCap refuses a create that would give a card more than
// MaxCardParts rows of a kind, whichever operation creates it: count counts
// the card's rows, and the refusal names field.
func cardPartCap[M cardPart](kind, field string, count func(context.Context, M, int) (int, error)) ent.Hook {
	return createCap(M.KanbanItemID, count, MaxCardParts, func() error {
		return apperr.Invalidf(field, "A card has at most %d %s; delete one to add another", MaxCardParts, kind)
	})
}

func (ChecklistItem) Hooks() []ent.Hook {
	return []ent.Hook{cardPartCap("checklist items", "text", func(ctx context.Context, m *gen.ChecklistItemMutation, card int) (int, error) {
		return m.Client().ChecklistItem.Query().Where(checklistitem.KanbanItemID(card)).Count(ctx)
	})}
}

func (CardNote) Hooks() []ent.Hook {
	return []ent.Hook{cardPartCap("notes", "content", func(ctx context.Context, m *gen.CardNoteMutation, card int) (int, error) {
		return m.Client().CardNote.Query().Where(cardnote.KanbanItemID(card)).Count(ctx)
	})}
}
