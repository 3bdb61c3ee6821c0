package rest

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/coerce"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/wire"
)

// cardFilter reads the index filters shared by the lists and the export.
func cardFilter(c *fiber.Ctx) (kanban.CardFilter, error) {
	var f kanban.CardFilter
	var err error
	for name, dst := range map[string]*int{"funnel_id": &f.FunnelID, "agent_id": &f.AgentID, "page": &f.Page, "per_page": &f.PerPage} {
		if *dst, err = queryInt(c, name, 0); err != nil {
			return f, err
		}
	}
	conv := c.Query("conversation_id", c.Query("conversation"))
	if strings.TrimSpace(conv) != "" {
		if f.ConversationDisplayID, err = coerce.Int(conv); err != nil {
			return f, invalidField("conversation_id", "conversation_id must be an integer")
		}
	}
	f.Stage = strings.TrimSpace(c.Query("stage_id", c.Query("funnel_stage")))
	return f, nil
}

func (a *API) listCards(c *fiber.Ctx) error {
	f, err := cardFilter(c)
	if err != nil {
		return err
	}
	p, err := a.svc.Cards(c.UserContext(), f)
	if err != nil {
		return err
	}
	return c.JSON(H{"meta": cardMeta(p), "payload": cardsJSON(p.Items)})
}

func (a *API) batchCards(c *fiber.Ctx) error {
	f, err := cardFilter(c)
	if err != nil {
		return err
	}
	b, err := a.svc.CardsBatch(c.UserContext(), f)
	if err != nil {
		return err
	}
	meta := cardMeta(&b.Page)
	meta["stage_counts"] = b.StageCounts
	meta["total_items"] = b.Total
	return c.JSON(H{"meta": meta, "payload": cardsJSON(b.Items)})
}

func cardMeta(p *core.Page[*ent.KanbanItem]) H {
	return H{"count": p.Total, "total_count": p.Total, "current_page": p.Page, "has_more": p.HasMore}
}

func (a *API) showCard(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return err
	}
	it, err := a.svc.Card(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(wire.Card(it))
}

func (a *API) createCard(c *fiber.Ctx) error {
	var req cardRequest
	if err := decode(c, "kanban_item", &req); err != nil {
		return err
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	it, err := a.svc.CreateCard(c.UserContext(), in)
	if err != nil {
		return err
	}
	return c.JSON(wire.Card(it))
}

func (a *API) updateCard(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return err
	}
	var req cardRequest
	if err := decode(c, "kanban_item", &req); err != nil {
		return err
	}
	in, err := req.input()
	if err != nil {
		return err
	}
	it, err := a.svc.UpdateCard(c.UserContext(), id, in)
	if err != nil {
		return err
	}
	return c.JSON(wire.Card(it))
}

func (a *API) deleteCard(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteCard(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}

// moveCard serves move_to_stage {funnel_stage, position?} and move
// {funnel_id, funnel_stage, position?}.
func (a *API) moveCard(acrossFunnels bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := pathID(c, "id", "Kanban item")
		if err != nil {
			return err
		}
		var req moveRequest
		if err := decode(c, "kanban_item", &req); err != nil {
			return err
		}
		in := req.input()
		if acrossFunnels && in.FunnelID == nil {
			return invalidField("funnel_id", "Funnel can't be blank: move names the funnel and stage to go to")
		}
		it, err := a.svc.MoveCard(c.UserContext(), id, in)
		if err != nil {
			return err
		}
		return c.JSON(wire.Card(it))
	}
}

// reorderCards serves POST /kanban_items/reorder {positions: [{id, position, funnel_stage?}]}.
func (a *API) reorderCards(c *fiber.Ctx) error {
	var req reorderRequest
	if err := decode(c, "kanban_item", &req); err != nil {
		return err
	}
	if req.Positions == nil {
		return invalidField("positions", "Positions must be a list of {id, position, funnel_stage?}")
	}
	items, err := a.svc.ReorderCards(c.UserContext(), *req.Positions)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": cardsJSON(items)})
}

func (a *API) changeCardStatus(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return err
	}
	var req statusRequest
	if err := decode(c, "kanban_item", &req); err != nil {
		return err
	}
	it, err := a.svc.ChangeCardStatus(c.UserContext(), id, string(req.Status))
	if err != nil {
		return err
	}
	return c.JSON(wire.Card(it))
}

func cardsJSON(items []*ent.KanbanItem) []map[string]any {
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		out = append(out, wire.Card(it))
	}
	return out
}
