package web

import (
	"encoding/json"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/kanban"
)

// moveCard is a drop on the board: the card goes to a stage and position,
// through the operation the APIs use.
func (c *Console) moveCard(ctx *fiber.Ctx) error {
	id, err := strconv.Atoi(ctx.Params("id"))
	if err != nil {
		return apperr.NotFound("Kanban item")
	}
	var body struct {
		Stage    string `json:"funnel_stage"`
		Position *int   `json:"position"`
	}
	if err := json.Unmarshal(ctx.Body(), &body); err != nil {
		return apperr.BadRequest("Malformed JSON body: %v", err)
	}
	it, err := c.svc.MoveCard(ctx.UserContext(), id, kanban.MoveInput{Stage: &body.Stage, Position: body.Position})
	if err != nil {
		return err
	}
	return ctx.JSON(fiber.Map{"id": it.ID, "position": it.Position})
}
