package web

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/kanban"
)

// The drawer's lists: agents, checklist and notes. Each action calls one
// operation and answers with the drawer.

// partID reads a checklist item's or note's id from the path.
func partID(ctx *fiber.Ctx, name, what string) (int, error) {
	id, err := strconv.Atoi(ctx.Params(name))
	if err != nil || id <= 0 {
		return 0, apperr.NotFound(what)
	}
	return id, nil
}

// cardAgent assigns or unassigns an agent (POST /kanban_items/:id/agents).
func (c *Console) cardAgent(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	var f struct {
		AgentID int    `form:"agent_id"`
		Action  string `form:"action"`
	}
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	switch f.Action {
	case "assign":
		_, err = c.svc.AssignCardAgent(ctx.UserContext(), id, f.AgentID)
	case "remove":
		_, err = c.svc.RemoveCardAgent(ctx.UserContext(), id, f.AgentID)
	default:
		err = apperr.Invalid("Action must be assign or remove", "action")
	}
	if err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

// addChecklistItem adds an item (POST /kanban_items/:id/checklist).
func (c *Console) addChecklistItem(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	var f struct {
		Text string `form:"text"`
	}
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	if _, err := c.svc.CreateChecklistItem(ctx.UserContext(), id, kanban.ChecklistInput{Text: &f.Text}); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

// toggleChecklistItem ticks or unticks an item
// (POST /kanban_items/:id/checklist/:item/toggle).
func (c *Console) toggleChecklistItem(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	item, err := partID(ctx, "item", "Checklist item")
	if err != nil {
		return err
	}
	if _, err := c.svc.ToggleChecklistItem(ctx.UserContext(), id, item); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

// deleteChecklistItem removes an item
// (POST /kanban_items/:id/checklist/:item/delete).
func (c *Console) deleteChecklistItem(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	item, err := partID(ctx, "item", "Checklist item")
	if err != nil {
		return err
	}
	if err := c.svc.DeleteChecklistItem(ctx.UserContext(), id, item); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

// addNote writes a note by the viewer (POST /kanban_items/:id/notes).
func (c *Console) addNote(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	var f struct {
		Content string `form:"content"`
	}
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	if _, err := c.svc.CreateNote(ctx.UserContext(), id, f.Content); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

// deleteNote removes a note: its author's or an administrator's
// (POST /kanban_items/:id/notes/:note/delete).
func (c *Console) deleteNote(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	note, err := partID(ctx, "note", "Note")
	if err != nil {
		return err
	}
	if err := c.svc.DeleteNote(ctx.UserContext(), id, note); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

// editChecklistItem changes an item's text
// (POST /kanban_items/:id/checklist/:item/edit).
func (c *Console) editChecklistItem(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	item, err := partID(ctx, "item", "Checklist item")
	if err != nil {
		return err
	}
	var f struct {
		Text string `form:"text"`
	}
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	if _, err := c.svc.UpdateChecklistItem(ctx.UserContext(), id, item, kanban.ChecklistInput{Text: &f.Text}); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

// editNote changes a note: its author's or an administrator's
// (POST /kanban_items/:id/notes/:note/edit).
func (c *Console) editNote(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	note, err := partID(ctx, "note", "Note")
	if err != nil {
		return err
	}
	var f struct {
		Content string `form:"content"`
	}
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	if _, err := c.svc.UpdateNote(ctx.UserContext(), id, note, &f.Content); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}
