package web

import (
	"context"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/views"
)

// The board's filter lives in its URL (?agent=&priority=&status=&q=, and
// value_min=&value_max= as the API names them), so a
// filtered board can be shared and reloaded; the columns' counts and totals
// are those of the matching cards.

// boardPageSize and maxBoardPages bound what one board shows.
const (
	boardPageSize = 500
	maxBoardPages = 20
)

// boardFilter reads the URL's filter into the form's values and the
// operations' filter.
func boardFilter(ctx *fiber.Ctx, funnelID int) (views.BoardFilter, kanban.CardFilter, error) {
	vf := views.BoardFilter{
		Agent: strings.TrimSpace(ctx.Query("agent")), Priority: strings.TrimSpace(ctx.Query("priority")),
		Status: strings.TrimSpace(ctx.Query("status")), Query: strings.TrimSpace(ctx.Query("q")),
	}
	f := kanban.CardFilter{FunnelID: funnelID, Query: vf.Query, PerPage: boardPageSize}
	switch vf.Agent {
	case "":
	case "unassigned":
		f.AgentID = kanban.UnassignedAgent
	default:
		id, err := strconv.Atoi(vf.Agent)
		if err != nil || id <= 0 {
			return vf, f, apperr.Invalid("Agent must be an agent's id or unassigned", "agent")
		}
		f.AgentID = id
	}
	if vf.Priority != "" {
		f.Priorities = []string{vf.Priority}
	}
	if vf.Status != "" {
		f.Statuses = []string{vf.Status}
	}
	var err error
	if vf.ValueMin, f.ValueMin, err = amountQuery(ctx, "value_min"); err != nil {
		return vf, f, err
	}
	if vf.ValueMax, f.ValueMax, err = amountQuery(ctx, "value_max"); err != nil {
		return vf, f, err
	}
	return vf, f, nil
}

// amountQuery reads an amount from the URL as typed (blank: none).
func amountQuery(ctx *fiber.Ctx, name string) (string, *float64, error) {
	raw := strings.TrimSpace(ctx.Query(name))
	if raw == "" {
		return "", nil, nil
	}
	v, err := parseAmount(raw)
	if err != nil {
		return raw, nil, apperr.Invalidf(name, "%s must be a number, like 1500 or 1500.50", name)
	}
	return raw, &v, nil
}

// boardCards reads the matching cards in board order, page by page.
func (c *Console) boardCards(ctx context.Context, f kanban.CardFilter) ([]*ent.KanbanItem, error) {
	var all []*ent.KanbanItem
	for page := 1; page <= maxBoardPages; page++ {
		f.Page = page
		p, err := c.svc.Cards(ctx, f)
		if err != nil {
			return nil, err
		}
		all = append(all, p.Items...)
		if !p.HasMore {
			break
		}
	}
	return all, nil
}

// boardAgents lists the account's agents by name.
func (c *Console) boardAgents(ctx context.Context) ([]views.Person, error) {
	agents, err := c.svc.Agents(ctx)
	if err != nil {
		return nil, err
	}
	var out []views.Person
	for _, a := range agents {
		if u := a.Edges.User; u != nil {
			out = append(out, views.Person{ID: u.ID, Name: personName(u)})
		}
	}
	return out, nil
}
