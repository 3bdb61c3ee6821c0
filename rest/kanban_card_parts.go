package rest

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/wire"
)

// Per-card routes: /kanban_items/{id}/assign_agent, get_checklist, ... Their
// parameters are top-level (no wrapper), in the body or, for DELETE, in the
// query string.

// params merges the query string and the body (the body wins).
func params(c *fiber.Ctx) (map[string]any, error) {
	m, err := bodyMap(c)
	if err != nil {
		return nil, err
	}
	c.Context().QueryArgs().VisitAll(func(k, v []byte) {
		if _, ok := m[string(k)]; !ok {
			m[string(k)] = string(v)
		}
	})
	return m, nil
}

// cardPart reads the card id and decodes the parameters of a per-card
// request into dst.
func cardPart(c *fiber.Ctx, dst any) (int, error) {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return 0, err
	}
	m, err := params(c)
	if err != nil {
		return 0, err
	}
	return id, decodeMap(m, "", dst)
}

type cardAgentRequest struct {
	AgentID flexInt `json:"agent_id"`
}

func (a *API) changeCardAgent(assign bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var req cardAgentRequest
		id, err := cardPart(c, &req)
		if err != nil {
			return err
		}
		change := a.svc.RemoveCardAgent
		if assign {
			change = a.svc.AssignCardAgent
		}
		it, err := change(c.UserContext(), id, int(req.AgentID))
		if err != nil {
			return err
		}
		return c.JSON(wire.Card(it))
	}
}

func (a *API) cardAgents(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return err
	}
	it, err := a.svc.Card(c.UserContext(), id)
	if err != nil {
		return err
	}
	p := wire.Card(it)
	agents := p["assigned_agents"].([]map[string]any)
	var primary any
	if len(agents) > 0 {
		primary = agents[0]
	}
	return c.JSON(H{"item_id": id, "assigned_agents": agents, "primary_agent": primary})
}

// checklistFields are a checklist item's fields; null or a blank due_date
// or agent_id clears them.
type checklistFields struct {
	Text      *flexString        `json:"text"`
	Completed *flexBool          `json:"completed"`
	DueDate   clearable[flexDay] `json:"due_date"`
	AgentID   clearable[flexInt] `json:"agent_id"`
}

func (r *checklistFields) input() kanban.ChecklistInput {
	in := kanban.ChecklistInput{
		Text: r.Text.ptr(), Completed: r.Completed.ptr(), ClearDueDate: r.DueDate.clear,
		AgentID: r.AgentID.get().ptr(), ClearAgent: r.AgentID.clear,
	}
	if d := r.DueDate.get(); d != nil {
		t := time.Time(*d)
		in.DueDate = &t
	}
	return in
}

// checklistRef names a checklist item of the card.
type checklistRef struct {
	ItemID flexInt `json:"checklist_item_id"`
}

type checklistUpdate struct {
	checklistRef
	checklistFields
}

func (a *API) getChecklist(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return err
	}
	return a.renderChecklist(c, id, nil)
}

// renderChecklist answers with the card's whole checklist, and the item
// just written when there is one.
func (a *API) renderChecklist(c *fiber.Ctx, cardID int, written *ent.ChecklistItem) error {
	items, err := a.svc.Checklist(c.UserContext(), cardID)
	if err != nil {
		return err
	}
	list := make([]H, 0, len(items))
	done := 0
	for _, ci := range items {
		list = append(list, checklistItemJSON(ci))
		if ci.Completed {
			done++
		}
	}
	out := H{"item_id": cardID, "checklist": list, "checklist_count": len(items), "completed_count": done}
	if written != nil {
		out["checklist_item"] = checklistItemJSON(written)
	}
	return c.JSON(out)
}

func checklistItemJSON(ci *ent.ChecklistItem) H {
	return H{
		"id": ci.ID, "text": ci.Text, "completed": ci.Completed, "due_date": wire.TimePtr(ci.DueDate),
		"agent_id": wire.IntPtr(ci.AgentID), "position": ci.Position,
		"created_at": wire.Time(ci.CreatedAt), "updated_at": wire.Time(ci.UpdatedAt),
	}
}

func (a *API) createChecklistItem(c *fiber.Ctx) error {
	var req checklistFields
	id, err := cardPart(c, &req)
	if err != nil {
		return err
	}
	ci, err := a.svc.CreateChecklistItem(c.UserContext(), id, req.input())
	if err != nil {
		return err
	}
	return a.renderChecklist(c, id, ci)
}

func (a *API) updateChecklistItem(c *fiber.Ctx) error {
	var req checklistUpdate
	id, err := cardPart(c, &req)
	if err != nil {
		return err
	}
	ci, err := a.svc.UpdateChecklistItem(c.UserContext(), id, int(req.ItemID), req.input())
	if err != nil {
		return err
	}
	return a.renderChecklist(c, id, ci)
}

func (a *API) toggleChecklistItem(c *fiber.Ctx) error {
	var req checklistRef
	id, err := cardPart(c, &req)
	if err != nil {
		return err
	}
	ci, err := a.svc.ToggleChecklistItem(c.UserContext(), id, int(req.ItemID))
	if err != nil {
		return err
	}
	return a.renderChecklist(c, id, ci)
}

func (a *API) deleteChecklistItem(c *fiber.Ctx) error {
	var req checklistRef
	id, err := cardPart(c, &req)
	if err != nil {
		return err
	}
	if err := a.svc.DeleteChecklistItem(c.UserContext(), id, int(req.ItemID)); err != nil {
		return err
	}
	return a.renderChecklist(c, id, nil)
}

// noteFields are a note's content (the forks call it text).
type noteFields struct {
	Content *flexString `json:"content"`
	Text    *flexString `json:"text"`
}

func (r *noteFields) content() *string { return either(r.Content, r.Text).ptr() }

// noteRef names a note of the card.
type noteRef struct {
	NoteID flexInt `json:"note_id"`
}

type noteUpdate struct {
	noteRef
	noteFields
}

func (a *API) getNotes(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return err
	}
	return a.renderNotes(c, id, nil)
}

func (a *API) renderNotes(c *fiber.Ctx, cardID int, written *ent.CardNote) error {
	notes, err := a.svc.Notes(c.UserContext(), cardID)
	if err != nil {
		return err
	}
	all := notes
	if written != nil {
		all = append(all, written)
	}
	authors, err := a.svc.NoteAuthors(c.UserContext(), all)
	if err != nil {
		return err
	}
	list := make([]H, 0, len(notes))
	for _, n := range notes {
		list = append(list, noteJSON(n, authors))
	}
	out := H{"item_id": cardID, "notes": list, "notes_count": len(notes)}
	if written != nil {
		out["note"] = noteJSON(written, authors)
	}
	return c.JSON(out)
}

func noteJSON(n *ent.CardNote, authors map[int]*ent.User) H {
	var author any
	if n.AuthorID != nil {
		if u := authors[*n.AuthorID]; u != nil {
			author = H{"id": u.ID, "name": u.Name, "email": u.Email, "avatar_url": u.AvatarURL}
		}
	}
	return H{
		"id": n.ID, "content": n.Content, "author_id": wire.IntPtr(n.AuthorID), "author": author,
		"created_at": wire.Time(n.CreatedAt), "updated_at": wire.Time(n.UpdatedAt),
	}
}

func (a *API) createNote(c *fiber.Ctx) error {
	var req noteFields
	id, err := cardPart(c, &req)
	if err != nil {
		return err
	}
	n, err := a.svc.CreateNote(c.UserContext(), id, deref(req.content()))
	if err != nil {
		return err
	}
	return a.renderNotes(c, id, n)
}

func (a *API) updateNote(c *fiber.Ctx) error {
	var req noteUpdate
	id, err := cardPart(c, &req)
	if err != nil {
		return err
	}
	n, err := a.svc.UpdateNote(c.UserContext(), id, int(req.NoteID), req.content())
	if err != nil {
		return err
	}
	return a.renderNotes(c, id, n)
}

func (a *API) deleteNote(c *fiber.Ctx) error {
	var req noteRef
	id, err := cardPart(c, &req)
	if err != nil {
		return err
	}
	if err := a.svc.DeleteNote(c.UserContext(), id, int(req.NoteID)); err != nil {
		return err
	}
	return a.renderNotes(c, id, nil)
}

func (a *API) cardCounts(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return err
	}
	n, err := a.svc.CardCounts(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(H{
		"item_id": id, "checklist_count": n.ChecklistTotal, "checklist_completed_count": n.ChecklistDone,
		"notes_count": n.Notes, "assigned_agents_count": n.Agents, "stage_changes_count": n.StageChanges,
	})
}

func (a *API) cardTimeReport(c *fiber.Ctx) error {
	ct, err := a.cardTime(c)
	if err != nil {
		return err
	}
	it := ct.Card
	current := H{}
	if n := len(ct.Spans); n > 0 {
		sp := ct.Spans[n-1]
		current = H{"stage": sp.Slug, "entered_at": wire.Time(sp.EnteredAt), "duration_seconds": sp.Seconds, "duration_formatted": formatDuration(sp.Seconds)}
	}
	return c.JSON(H{
		"item_id": it.ID, "status": string(it.Status), "created_at": wire.Time(it.CreatedAt), "closed_at": wire.TimePtr(it.ClosedAt),
		"total_duration_seconds": ct.Total, "total_duration_formatted": formatDuration(ct.Total),
		"current_stage": current, "time_per_stage": ct.PerStage, "stage_changes": ct.StageChanges(),
	})
}

func (a *API) cardStageBreakdown(c *fiber.Ctx) error {
	ct, err := a.cardTime(c)
	if err != nil {
		return err
	}
	spans := make([]H, 0, len(ct.Spans))
	for _, sp := range ct.Spans {
		spans = append(spans, H{
			"stage": sp.Slug, "stage_name": sp.Name, "stage_id": sp.StageID, "funnel_id": sp.FunnelID,
			"entered_at": wire.Time(sp.EnteredAt), "left_at": wire.TimePtr(sp.LeftAt),
			"duration_seconds": sp.Seconds, "duration_formatted": formatDuration(sp.Seconds),
		})
	}
	return c.JSON(H{"item_id": ct.Card.ID, "stage_breakdown": spans, "time_per_stage": ct.PerStage, "total_stages": ct.Stays})
}

func (a *API) cardTime(c *fiber.Ctx) (*kanban.CardTime, error) {
	id, err := pathID(c, "id", "Kanban item")
	if err != nil {
		return nil, err
	}
	return a.svc.CardTimeReport(c.UserContext(), id)
}

// formatDuration spells seconds as "1h 2m 3s" (days as "2d 1h 0m 0s").
func formatDuration(s int64) string {
	d := time.Duration(s) * time.Second
	days := int64(d / (24 * time.Hour))
	d -= time.Duration(days) * 24 * time.Hour
	h, m, sec := int64(d/time.Hour), int64(d%time.Hour/time.Minute), int64(d%time.Minute/time.Second)
	out := ""
	if days > 0 {
		out = strconv.FormatInt(days, 10) + "d "
	}
	return out + fmt.Sprintf("%dh %dm %ds", h, m, sec)
}
