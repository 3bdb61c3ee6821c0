package web

import (
	"github.com/gofiber/fiber/v2"
)

// editCard saves the drawer's fields of a card (POST /kanban_items/:id/edit).
func (c *Console) editCard(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	var f cardForm
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	f.Stage = nil // the drawer edits fields; moves are the board's
	it, err := c.svc.Card(ctx.UserContext(), id)
	if err != nil {
		return err
	}
	in, err := f.input(it.Currency)
	if err != nil {
		return err
	}
	if _, err := c.svc.UpdateCard(ctx.UserContext(), id, in); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

// cardStatus marks a card won or lost, or reopens it
// (POST /kanban_items/:id/status).
func (c *Console) cardStatus(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	var f struct {
		Status string `form:"status"`
	}
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	if _, err := c.svc.ChangeCardStatus(ctx.UserContext(), id, f.Status); err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

// deleteCard deletes a card (administrators; POST /kanban_items/:id/delete).
func (c *Console) deleteCard(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	if err := c.svc.DeleteCard(ctx.UserContext(), id); err != nil {
		return err
	}
	return ctx.SendStatus(fiber.StatusNoContent)
}
