package web

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/views"
)

// The boards screen: every funnel with its open cards' count and value;
// administrators create, rename and delete boards. Writes answer with a
// redirect to the screen to show (fetch follows it; a plain form too).

// maxNewStages bounds the stages typed into the new-board form.
const maxNewStages = 50

// funnels lists the account's funnels.
func (c *Console) funnels(ctx *fiber.Ctx) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	fs, err := c.svc.Funnels(ctx.UserContext())
	if err != nil {
		return err
	}
	open, err := c.svc.OpenValues(ctx.UserContext())
	if err != nil {
		return err
	}
	values := map[int][]money{}
	counts := map[int]int{}
	for _, v := range open {
		counts[v.FunnelID]++
		values[v.FunnelID] = append(values[v.FunnelID], money{Value: v.Value, Currency: v.Currency})
	}
	l := views.BoardList{Nav: nav}
	for _, f := range fs {
		link := views.BoardLink{ID: f.ID, Name: f.Name, OpenCards: counts[f.ID], OpenValue: totalsByCurrency(values[f.ID], nav.Locale)}
		for _, st := range f.Edges.Stages {
			link.Stages = append(link.Stages, st.Name)
		}
		l.Funnels = append(l.Funnels, link)
	}
	return render(ctx, fiber.StatusOK, views.Boards(l))
}

// createFunnel serves POST /funnels: a name and its stages, one per line.
func (c *Console) createFunnel(ctx *fiber.Ctx) error {
	var f struct {
		Name   string `form:"name"`
		Stages string `form:"stages"`
	}
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	var stages []kanban.StageInput
	for _, line := range strings.Split(f.Stages, "\n") {
		if name := strings.TrimSpace(line); name != "" {
			stages = append(stages, kanban.StageInput{Name: &name})
		}
	}
	if len(stages) > maxNewStages {
		return apperr.Invalidf("stages", "At most %d stages", maxNewStages)
	}
	fn, err := c.svc.CreateFunnel(ctx.UserContext(), kanban.FunnelInput{Name: &f.Name, Stages: &stages})
	if err != nil {
		return err
	}
	return ctx.Redirect(views.AccountURL(fn.AccountID, "funnels/"+itoa(fn.ID)+"/board"), fiber.StatusSeeOther)
}

// renameFunnel serves POST /funnels/:funnel_id/rename.
func (c *Console) renameFunnel(ctx *fiber.Ctx) error {
	id, err := funnelID(ctx)
	if err != nil {
		return err
	}
	var f struct {
		Name string `form:"name"`
	}
	if err := decodeForm(ctx, &f); err != nil {
		return err
	}
	fn, err := c.svc.UpdateFunnel(ctx.UserContext(), id, kanban.FunnelInput{Name: &f.Name})
	if err != nil {
		return err
	}
	return ctx.Redirect(views.AccountURL(fn.AccountID, "funnels"), fiber.StatusSeeOther)
}

// deleteFunnel serves POST /funnels/:funnel_id/delete; its cards go with it
// (the form asks first).
func (c *Console) deleteFunnel(ctx *fiber.Ctx) error {
	id, err := funnelID(ctx)
	if err != nil {
		return err
	}
	fn, err := c.svc.Funnel(ctx.UserContext(), id)
	if err != nil {
		return err
	}
	if err := c.svc.DeleteFunnel(ctx.UserContext(), id); err != nil {
		return err
	}
	return ctx.Redirect(views.AccountURL(fn.AccountID, "funnels"), fiber.StatusSeeOther)
}
