package schema

import (
	"context"

	"entgo.io/ent"

	gen "github.com/switchboard/switchboard/ent"
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
