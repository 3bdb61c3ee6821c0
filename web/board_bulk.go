package web

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// bulkForm is the bulk bar's request: the selected cards and one action.
type bulkForm struct {
	Action   string `form:"action"`
	Stage    string `form:"stage"`
	AgentID  int    `form:"agent_id"`
	Priority string `form:"priority"`
}

// bulkCards serves POST /kanban_items/bulk: move, assign, set the priority
// of or delete the selected cards, all or nothing, through the bulk
// operations the API uses.
func (c *Console) bulkCards(ctx *fiber.Ctx) error {
	var f bulkForm
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	ids, err := bulkIDs(ctx)
	if err != nil {
		return err
	}
	uc := ctx.UserContext()
	switch f.Action {
	case "move":
		_, err = c.svc.BulkMove(uc, ids, nil, f.Stage)
	case "assign":
		_, err = c.svc.BulkAssignAgent(uc, ids, f.AgentID, false)
	case "priority":
		_, err = c.svc.BulkSetPriority(uc, ids, f.Priority)
	case "delete":
		err = c.svc.BulkDelete(uc, ids)
	default:
		err = apperr.Invalid("Action must be move, assign, priority or delete", "action")
	}
	if err != nil {
		return err
	}
	return ctx.JSON(fiber.Map{"count": len(ids)})
}

// bulkIDs reads the repeated ids field; the operations bound its length.
func bulkIDs(ctx *fiber.Ctx) ([]int, error) {
	var raw [][]byte
	if mf, err := ctx.MultipartForm(); err == nil { // a multipart form, as a plain HTML form may send
		for _, v := range mf.Value["ids"] {
			raw = append(raw, []byte(v))
		}
	} else {
		raw = ctx.Request().PostArgs().PeekMulti("ids")
	}
	if len(raw) > core.MaxIDs {
		return nil, apperr.Invalid("Item ids: at most "+strconv.Itoa(core.MaxIDs)+" cards at once", "item_ids")
	}
	ids := make([]int, 0, len(raw))
	for _, r := range raw {
		id, err := strconv.Atoi(string(r))
		if err != nil || id <= 0 {
			return nil, apperr.Invalid("Item ids must be card ids", "item_ids")
		}
		ids = append(ids, id)
	}
	return ids, nil
}
