package web

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/views"
)

// The card drawer: one card opened beside its board. Every drawer action
// answers with the drawer re-rendered, which the board's script swaps in.

// cardDrawer serves GET /kanban_items/:id/drawer.
func (c *Console) cardDrawer(ctx *fiber.Ctx) error {
	id, err := cardID(ctx)
	if err != nil {
		return err
	}
	return c.renderDrawer(ctx, id)
}

func cardID(ctx *fiber.Ctx) (int, error) {
	id, err := strconv.Atoi(ctx.Params("id"))
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("Kanban item")
	}
	return id, nil
}

// renderDrawer answers with card id's drawer as it now is.
func (c *Console) renderDrawer(ctx *fiber.Ctx, id int) error {
	nav, err := c.nav(ctx)
	if err != nil {
		return err
	}
	d, err := c.loadDrawer(ctx.UserContext(), id, nav)
	if err != nil {
		return err
	}
	ctx.Set("X-Card-Id", strconv.Itoa(id))
	return render(ctx, fiber.StatusOK, views.CardDrawerBody(*d))
}

// loadDrawer reads a card and its parts through the operations the APIs use.
func (c *Console) loadDrawer(ctx context.Context, id int, nav views.Nav) (*views.CardDrawer, error) {
	it, err := c.svc.Card(ctx, id)
	if err != nil {
		return nil, err
	}
	face := boardCard(it, nav.Locale)
	d := &views.CardDrawer{
		AccountID: nav.AccountID, FunnelID: it.FunnelID, ID: it.ID, Title: face.Title, Description: it.Description,
		CurrencyCode: it.Currency["code"], Priority: string(it.Priority), Status: string(it.Status),
		Contact: face.Contact, Assignees: face.Assignees, Admin: nav.Admin,
	}
	if it.Value != 0 {
		d.Value = strconv.FormatFloat(it.Value, 'f', -1, 64)
	}
	if it.Edges.Stage != nil {
		d.Stage = it.Edges.Stage.Name
	}
	steps := []func(context.Context, *views.CardDrawer, *ent.KanbanItem) error{c.drawerAgents, c.drawerChecklist, c.drawerNotes, c.drawerHistory, c.drawerConversation}
	for _, step := range steps {
		if err := step(ctx, d, it); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// drawerAgents lists the account's agents not on the card, to assign.
func (c *Console) drawerAgents(ctx context.Context, d *views.CardDrawer, it *ent.KanbanItem) error {
	agents, err := c.svc.Agents(ctx)
	if err != nil {
		return err
	}
	on := map[int]bool{}
	for _, u := range it.Edges.AssignedAgents {
		on[u.ID] = true
	}
	for _, a := range agents {
		if u := a.Edges.User; u != nil && !on[u.ID] {
			d.Agents = append(d.Agents, views.Person{ID: u.ID, Name: personName(u)})
		}
	}
	return nil
}

func (c *Console) drawerChecklist(ctx context.Context, d *views.CardDrawer, it *ent.KanbanItem) error {
	items, err := c.svc.Checklist(ctx, it.ID)
	if err != nil {
		return err
	}
	for _, ci := range items {
		d.Checklist = append(d.Checklist, views.ChecklistRow{ID: ci.ID, Text: ci.Text, Done: ci.Completed})
	}
	return nil
}

func (c *Console) drawerNotes(ctx context.Context, d *views.CardDrawer, it *ent.KanbanItem) error {
	notes, err := c.svc.Notes(ctx, it.ID)
	if err != nil {
		return err
	}
	authors, err := c.svc.NoteAuthors(ctx, notes)
	if err != nil {
		return err
	}
	// Only their author or an administrator may change a note (the
	// operation says so too); the others see no controls for it.
	v, _ := viewer.FromContext(ctx)
	for _, n := range notes {
		row := views.NoteRow{ID: n.ID, Content: n.Content, Author: "Former member",
			At: n.CreatedAt.UTC().Format("2 Jan 2006, 15:04 UTC"), AtISO: n.CreatedAt.UTC().Format(time.RFC3339)}
		if n.AuthorID != nil && authors[*n.AuthorID] != nil {
			row.Author = personName(authors[*n.AuthorID])
		}
		row.Editable = v.IsAdmin() || (n.AuthorID != nil && *n.AuthorID == v.UserID)
		d.Notes = append(d.Notes, row)
	}
	return nil
}

// drawerHistory lists the card's stays in stages, newest first.
func (c *Console) drawerHistory(ctx context.Context, d *views.CardDrawer, it *ent.KanbanItem) error {
	report, err := c.svc.CardTimeReport(ctx, it.ID)
	if err != nil {
		return err
	}
	for i := len(report.Spans) - 1; i >= 0; i-- {
		sp := report.Spans[i]
		d.History = append(d.History, views.StageRow{
			Stage: sp.Name, Entered: sp.EnteredAt.UTC().Format("2 Jan 2006, 15:04 UTC"),
			EnteredISO: sp.EnteredAt.UTC().Format(time.RFC3339), Spent: spent(sp.Seconds), Current: sp.LeftAt == nil,
		})
	}
	return nil
}

// spent is a duration as people read it: the two largest units.
func spent(seconds int64) string {
	d := time.Duration(seconds) * time.Second
	switch {
	case d < time.Minute:
		return "under a minute"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h %d min", int(d.Hours()), int(d.Minutes())%60)
	}
	days := int(d.Hours()) / 24
	return fmt.Sprintf("%d d %d h", days, int(d.Hours())%24)
}
