package web

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/views"
)

// A board's stages, for administrators: add, rename and recolour, move left
// or right, delete with its cards moved or deleted as asked. Each form
// calls one kanban operation and answers with a redirect to this screen.
// Agents read the stages there without the forms (the operations refuse
// their changes anyway).

// stages serves GET /funnels/:funnel_id/stages.
func (c *Console) stages(ctx *fiber.Ctx) error {
	id, err := funnelID(ctx)
	if err != nil {
		return err
	}
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	stats, err := c.svc.StageStats(ctx.UserContext(), id)
	if err != nil {
		return err
	}
	f, err := c.svc.Funnel(ctx.UserContext(), id)
	if err != nil {
		return err
	}
	p := views.StagesPage{Nav: nav, FunnelID: f.ID, Name: f.Name}
	for _, st := range stats.Stages {
		p.Stages = append(p.Stages, views.StageRowEdit{Slug: st.Slug, Name: st.Name, Color: st.Color, Cards: st.Count})
	}
	return render(ctx, fiber.StatusOK, views.Stages(p))
}

// stageForm is what the stage forms post.
type stageForm struct {
	Name  *string `form:"name"`
	Color *string `form:"color"`
	// Cards is "move" or "delete": the fate of a deleted stage's cards.
	Cards  string `form:"cards"`
	MoveTo string `form:"move_to"`
	// Direction is "left" or "right"; By, when Direction is not sent, is
	// how many places (negative: to the left), as a column dragged on the
	// board moves.
	Direction string `form:"direction"`
	By        int    `form:"by"`
}

// stagesDone answers a stage form: its refusal, or the stages screen.
func (c *Console) stagesDone(ctx *fiber.Ctx, funnel int, err error) error {
	if err != nil {
		return err
	}
	v, _ := viewer.FromContext(ctx.UserContext())
	return ctx.Redirect(views.AccountURL(v.AccountID, "funnels/"+itoa(funnel)+"/stages"), fiber.StatusSeeOther)
}

// addStage serves POST /funnels/:funnel_id/stages.
func (c *Console) addStage(ctx *fiber.Ctx) error {
	id, f, err := stageRequest(ctx)
	if err != nil {
		return err
	}
	_, err = c.svc.AddStage(ctx.UserContext(), id, kanban.StageInput{Name: f.Name, Color: f.Color})
	return c.stagesDone(ctx, id, err)
}

// editStage serves POST /funnels/:funnel_id/stages/:slug/edit.
func (c *Console) editStage(ctx *fiber.Ctx) error {
	id, f, err := stageRequest(ctx)
	if err != nil {
		return err
	}
	_, err = c.svc.UpdateStage(ctx.UserContext(), id, ctx.Params("slug"), kanban.StageInput{Name: f.Name, Color: f.Color})
	return c.stagesDone(ctx, id, err)
}

// moveStage serves POST /funnels/:funnel_id/stages/:slug/move.
func (c *Console) moveStage(ctx *fiber.Ctx) error {
	id, f, err := stageRequest(ctx)
	if err != nil {
		return err
	}
	delta := map[string]int{"left": -1, "right": 1}[f.Direction]
	if f.Direction == "" {
		delta = f.By
	}
	if delta == 0 || delta > core.MaxFunnelStages || delta < -core.MaxFunnelStages {
		return apperr.Invalid("Direction must be left or right, or by a number of places", "direction")
	}
	_, err = c.svc.MoveStage(ctx.UserContext(), id, ctx.Params("slug"), delta)
	return c.stagesDone(ctx, id, err)
}

// deleteStage serves POST /funnels/:funnel_id/stages/:slug/delete.
func (c *Console) deleteStage(ctx *fiber.Ctx) error {
	id, f, err := stageRequest(ctx)
	if err != nil {
		return err
	}
	how := kanban.StageRemoval{}
	switch f.Cards {
	case "", "none":
	case "move":
		how.MoveTo = f.MoveTo
		if how.MoveTo == "" {
			return apperr.Invalid("Choose the stage the cards move to", "move_to")
		}
	case "delete":
		how.DeleteCards = true
	default:
		return apperr.Invalid("Cards must be move or delete", "cards")
	}
	_, err = c.svc.DeleteStage(ctx.UserContext(), id, ctx.Params("slug"), how)
	return c.stagesDone(ctx, id, err)
}

func stageRequest(ctx *fiber.Ctx) (int, stageForm, error) {
	var f stageForm
	id, err := funnelID(ctx)
	if err != nil {
		return 0, f, err
	}
	return id, f, decodeForm(ctx, &f)
}
