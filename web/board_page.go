package web

import (
	"context"
	"fmt"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/views"
)

// The kanban screens: the account's funnels, and one funnel's board, where
// agents drag cards and see every viewer's moves live.

// board is a funnel's board; with ?fragment=1 only its columns (what the
// board's script swaps in after a change).
func (c *Console) board(ctx *fiber.Ctx) error {
	id, err := strconv.Atoi(ctx.Params("funnel_id"))
	if err != nil {
		return apperr.NotFound("Funnel")
	}
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	vf, f, err := boardFilter(ctx, id)
	if err != nil {
		return err
	}
	b, err := c.loadBoard(ctx.UserContext(), f, nav)
	if err != nil {
		return err
	}
	b.Filter = vf
	if ctx.Query("fragment") == "1" {
		return render(ctx, fiber.StatusOK, views.BoardColumns(*b))
	}
	if b.Drawer, err = c.linkedCard(ctx, b.FunnelID, nav); err != nil {
		return err
	}
	if b.Agents, err = c.boardAgents(ctx.UserContext()); err != nil {
		return err
	}
	return render(ctx, fiber.StatusOK, views.BoardPage(*b))
}

// linkedCard is the drawer of the board's card the URL names (?card=id);
// a card since deleted or moved to another board just leaves it closed.
func (c *Console) linkedCard(ctx *fiber.Ctx, funnelID int, nav views.Nav) (*views.CardDrawer, error) {
	id, err := strconv.Atoi(ctx.Query("card"))
	if err != nil || id <= 0 {
		return nil, nil
	}
	d, err := c.loadDrawer(ctx.UserContext(), id, nav)
	if ae, ok := err.(*apperr.Error); ok && ae.Kind == apperr.KindNotFound {
		return nil, nil
	}
	if err != nil || d.FunnelID != funnelID {
		return nil, err
	}
	return d, nil
}

// loadBoard reads a funnel's stages and the cards matching filter in board
// order, with what the card faces show.
func (c *Console) loadBoard(ctx context.Context, filter kanban.CardFilter, nav views.Nav) (*views.Board, error) {
	f, err := c.svc.Funnel(ctx, filter.FunnelID)
	if err != nil {
		return nil, err
	}
	cards, err := c.boardCards(ctx, filter)
	if err != nil {
		return nil, err
	}
	ids := make([]int, len(cards))
	for i, it := range cards {
		ids[i] = it.ID
	}
	progress, err := c.svc.ChecklistProgressOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	byStage := map[int][]views.BoardCard{}
	values := map[int][]money{}
	for _, it := range cards {
		face := boardCard(it, nav.Locale)
		face.ChecklistDone, face.ChecklistTotal = progress[it.ID].Done, progress[it.ID].Total
		byStage[it.StageID] = append(byStage[it.StageID], face)
		if it.Status != kanbanitem.StatusLost { // a lost deal is out of the pipeline's value
			values[it.StageID] = append(values[it.StageID], money{Value: it.Value, Currency: it.Currency})
		}
	}
	b := &views.Board{Nav: nav, FunnelID: f.ID, Name: f.Name}
	for _, st := range f.Edges.Stages {
		b.Stages = append(b.Stages, views.BoardStage{
			Slug: st.Slug, Name: st.Name, Color: st.Color, Cards: byStage[st.ID],
			Totals: totalsByCurrency(values[st.ID], nav.Locale),
		})
	}
	return b, nil
}

// boardCard is a card's face: a zero value shows no amount.
func boardCard(it *ent.KanbanItem, locale string) views.BoardCard {
	title := it.Title
	if title == "" {
		title = fmt.Sprintf("Card %d", it.ID)
	}
	face := views.BoardCard{ID: it.ID, Title: title, Priority: string(it.Priority), Status: string(it.Status), Position: it.Position}
	if it.Edges.Stage != nil {
		face.Stage = it.Edges.Stage.Slug
	}
	if it.Value != 0 {
		face.Value = formatMoney(money{Value: it.Value, Currency: it.Currency}, locale)
	}
	for _, u := range it.Edges.AssignedAgents {
		face.Assignees = append(face.Assignees, views.Person{ID: u.ID, Name: personName(u)})
	}
	if cv := it.Edges.Conversation; cv != nil && cv.Edges.Contact != nil {
		face.Contact = cv.Edges.Contact.Name
	}
	return face
}

// personName is how the console names a user.
func personName(u *ent.User) string {
	if u.DisplayName != "" {
		return u.DisplayName
	}
	return u.Name
}
