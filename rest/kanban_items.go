package rest

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/wire"
)

// itemDetailKeys are the item_details keys stored in their own columns;
// other keys are kept as sent.
var itemDetailKeys = map[string]bool{
	"title": true, "description": true, "priority": true, "value": true, "currency": true, "status": true,
}

// cardInput reads a card body, wrapped in kanban_item or not.
func cardInput(c *fiber.Ctx) (ops.CardInput, error) {
	m, err := bodyMap(c)
	if err != nil {
		return ops.CardInput{}, err
	}
	return cardInputFrom(unwrap(m, "kanban_item"))
}

func cardInputFrom(m map[string]any) (ops.CardInput, error) {
	var in ops.CardInput
	var err error
	if in.FunnelID, err = optInt(m, "funnel_id", "funnel_id"); err != nil {
		return in, err
	}
	if in.Stage, err = optString(m, "funnel_stage", "funnel_stage"); err != nil {
		return in, err
	}
	if in.Position, err = optInt(m, "position", "position"); err != nil {
		return in, err
	}
	if v, sent := m["conversation_display_id"]; sent && v == nil {
		in.ClearConversation = true
	} else if in.ConversationDisplayID, err = optInt(m, "conversation_display_id", "conversation_display_id"); err != nil {
		return in, err
	}
	if in.AssignedAgents, err = optInts(m, "assigned_agents", "assigned_agents"); err != nil {
		return in, err
	}
	raw, sent := m["item_details"]
	if !sent || raw == nil {
		return in, nil
	}
	details, ok := raw.(map[string]any)
	if !ok {
		return in, invalidField("item_details", "Item details must be an object")
	}
	return in, readItemDetails(details, &in)
}

func readItemDetails(d map[string]any, in *ops.CardInput) error {
	var err error
	if in.Title, err = optString(d, "title", "item_details.title"); err != nil {
		return err
	}
	if in.Description, err = optString(d, "description", "item_details.description"); err != nil {
		return err
	}
	if in.Priority, err = optString(d, "priority", "item_details.priority"); err != nil {
		return err
	}
	if in.Value, err = optFloat(d, "value", "item_details.value"); err != nil {
		return err
	}
	if in.Currency, err = readCurrency(d); err != nil {
		return err
	}
	in.Details = map[string]any{}
	for k, v := range d {
		if !itemDetailKeys[k] {
			in.Details[k] = v
		}
	}
	return nil
}

func readCurrency(d map[string]any) (map[string]string, error) {
	return ops.CurrencyOf(d["currency"], "item_details.currency")
}

// cardFilter reads the index filters shared by the lists and the export.
func cardFilter(c *fiber.Ctx) (ops.CardFilter, error) {
	var f ops.CardFilter
	var err error
	for name, dst := range map[string]*int{"funnel_id": &f.FunnelID, "agent_id": &f.AgentID, "page": &f.Page, "per_page": &f.PerPage} {
		if *dst, err = queryInt(c, name, 0); err != nil {
			return f, err
		}
	}
	conv := c.Query("conversation_id", c.Query("conversation"))
	if conv != "" {
		n, ok := toInt(conv)
		if !ok {
			return f, invalidField("conversation_id", "conversation_id must be an integer")
		}
		f.ConversationDisplayID = n
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

func cardMeta(p *ops.Page[*ent.KanbanItem]) H {
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
	in, err := cardInput(c)
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
	in, err := cardInput(c)
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
		m, err := bodyMap(c)
		if err != nil {
			return err
		}
		m = unwrap(m, "kanban_item")
		var in ops.MoveInput
		if in.Stage, err = optString(m, "funnel_stage", "funnel_stage"); err != nil {
			return err
		}
		if in.Stage == nil {
			if in.Stage, err = optString(m, "new_stage", "funnel_stage"); err != nil {
				return err
			}
		}
		if in.Position, err = optInt(m, "position", "position"); err != nil {
			return err
		}
		if in.FunnelID, err = optInt(m, "funnel_id", "funnel_id"); err != nil {
			return err
		}
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
	m, err := bodyMap(c)
	if err != nil {
		return err
	}
	entries, err := reorderEntries(m)
	if err != nil {
		return err
	}
	items, err := a.svc.ReorderCards(c.UserContext(), entries)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": cardsJSON(items)})
}

// reorderEntries reads the positions of a reorder body.
func reorderEntries(m map[string]any) ([]ops.ReorderEntry, error) {
	list, ok := unwrap(m, "kanban_item")["positions"].([]any)
	if !ok {
		return nil, invalidField("positions", "Positions must be a list of {id, position, funnel_stage?}")
	}
	entries := make([]ops.ReorderEntry, 0, len(list))
	for _, el := range list {
		obj, ok := el.(map[string]any)
		if !ok {
			return nil, invalidField("positions", "Positions must be a list of {id, position, funnel_stage?}")
		}
		id, err := optInt(obj, "id", "positions")
		if err != nil {
			return nil, err
		}
		pos, err := optInt(obj, "position", "positions")
		if err != nil {
			return nil, err
		}
		stage, err := optString(obj, "funnel_stage", "positions")
		if err != nil {
			return nil, err
		}
		if id == nil || pos == nil {
			return nil, invalidField("positions", "Each position needs an id and a position")
		}
		entries = append(entries, ops.ReorderEntry{ID: *id, Position: *pos, Stage: stage})
	}
	return entries, nil
}

func (a *API) changeCardStatus(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return err
	}
	m, err := bodyMap(c)
	if err != nil {
		return err
	}
	status, err := optString(unwrap(m, "kanban_item"), "status", "status")
	if err != nil {
		return err
	}
	it, err := a.svc.ChangeCardStatus(c.UserContext(), id, deref(status))
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
