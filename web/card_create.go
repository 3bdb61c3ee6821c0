package web

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/views"
)

// Adding a card from a column: the column's + opens the drawer's form for
// a new card; saving it opens the new card's drawer.

func funnelID(ctx *fiber.Ctx) (int, error) {
	id, err := strconv.Atoi(ctx.Params("funnel_id"))
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("Funnel")
	}
	return id, nil
}

// newCardForm serves GET /funnels/:funnel_id/cards/new?stage=slug.
func (c *Console) newCardForm(ctx *fiber.Ctx) error {
	id, err := funnelID(ctx)
	if err != nil {
		return err
	}
	f, err := c.svc.Funnel(ctx.UserContext(), id)
	if err != nil {
		return err
	}
	v, _ := viewer.FromContext(ctx.UserContext())
	n := views.CardNew{AccountID: v.AccountID, FunnelID: f.ID, Stage: ctx.Query("stage")}
	for _, st := range f.Edges.Stages {
		n.Stages = append(n.Stages, views.StageOption{Slug: st.Slug, Name: st.Name})
	}
	return render(ctx, fiber.StatusOK, views.CardNewBody(n))
}

// createCard serves POST /funnels/:funnel_id/cards and answers with the new
// card's drawer.
func (c *Console) createCard(ctx *fiber.Ctx) error {
	id, err := funnelID(ctx)
	if err != nil {
		return err
	}
	var f cardForm
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	in, err := f.input(nil)
	if err != nil {
		return err
	}
	if in.Currency != nil && in.Currency["code"] == "" {
		in.Currency = nil
	}
	in.FunnelID = &id
	it, err := c.svc.CreateCard(ctx.UserContext(), in)
	if err != nil {
		return err
	}
	return c.renderDrawer(ctx, it.ID)
}

func itoa(n int) string { return strconv.Itoa(n) }
