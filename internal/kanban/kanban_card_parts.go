package kanban

import (
	"context"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardnote"
	"github.com/switchboard/switchboard/ent/checklistitem"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// The parts of one card: its agents, checklist, notes and the time it has
// spent in each stage. Every operation first finds the card under the
// viewer's tenancy, so another account's card is a 404 throughout.

// ---- agents ----

// AssignCardAgent adds an agent of the account to a card.
func (s *Service) AssignCardAgent(ctx context.Context, id, agentID int) (*ent.KanbanItem, error) {
	return s.changeCardAgent(ctx, id, agentID, true)
}

// RemoveCardAgent takes an agent off a card.
func (s *Service) RemoveCardAgent(ctx context.Context, id, agentID int) (*ent.KanbanItem, error) {
	return s.changeCardAgent(ctx, id, agentID, false)
}

func (s *Service) changeCardAgent(ctx context.Context, id, agentID int, assign bool) (*ent.KanbanItem, error) {
	if agentID <= 0 {
		return nil, apperr.Invalid("Agent can't be blank: send agent_id", "agent_id")
	}
	var out *ent.KanbanItem
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		it, err := c.KanbanItem.Get(ctx, id)
		if err != nil {
			return core.NotFound(err, "Kanban item")
		}
		if err := checkCardAgents(ctx, c, "agent_id", []int{agentID}); err != nil {
			return err
		}
		has, err := c.KanbanItem.QueryAssignedAgents(it).Where(user.ID(agentID)).Exist(ctx)
		if err != nil {
			return err
		}
		upd := c.KanbanItem.UpdateOne(it)
		switch {
		case assign && has:
			return apperr.Invalidf("agent_id", "Agent %d is already assigned to this card", agentID)
		case !assign && !has:
			return apperr.Invalidf("agent_id", "Agent %d is not assigned to this card", agentID)
		case assign:
			upd.AddAssignedAgentIDs(agentID)
		default:
			upd.RemoveAssignedAgentIDs(agentID)
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		if out, err = s.loadCard(ctx, c, id); err != nil {
			return err
		}
		return s.announceCard(ctx, c, events.KanbanItemUpdated, out, nil)
	})
	return cardWritten(ctx, out, err)
}

// ---- checklist ----

// ChecklistInput carries the fields of a checklist item; nil means "not
// sent" (an update keeps what is not sent); the Clear flags empty a field.
type ChecklistInput struct {
	Text         *string
	Completed    *bool
	DueDate      *time.Time
	ClearDueDate bool
	AgentID      *int
	ClearAgent   bool
}

// Checklist lists a card's checklist in order.
func (s *Service) Checklist(ctx context.Context, cardID int) ([]*ent.ChecklistItem, error) {
	c := s.Client(ctx)
	if _, err := c.KanbanItem.Get(ctx, cardID); err != nil {
		return nil, apperr.From(core.NotFound(err, "Kanban item"))
	}
	items, err := c.ChecklistItem.Query().Where(checklistitem.KanbanItemID(cardID)).
		Order(ent.Asc(checklistitem.FieldPosition), ent.Asc(checklistitem.FieldID)).All(ctx)
	return items, core.ApperrOrNil(err)
}

// CreateChecklistItem adds an item at the end of a card's checklist.
func (s *Service) CreateChecklistItem(ctx context.Context, cardID int, in ChecklistInput) (*ent.ChecklistItem, error) {
	if strings.TrimSpace(core.Deref(in.Text)) == "" {
		return nil, apperr.Invalid("Text can't be blank", "text")
	}
	var out *ent.ChecklistItem
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if _, err := c.KanbanItem.Get(ctx, cardID); err != nil {
			return core.NotFound(err, "Kanban item")
		}
		if in.AgentID != nil {
			if err := checkCardAgents(ctx, c, "agent_id", []int{*in.AgentID}); err != nil {
				return err
			}
		}
		n, err := c.ChecklistItem.Query().Where(checklistitem.KanbanItemID(cardID)).Count(ctx)
		if err != nil {
			return err
		}
		out, err = c.ChecklistItem.Create().SetKanbanItemID(cardID).SetText(strings.TrimSpace(*in.Text)).
			SetNillableCompleted(in.Completed).SetNillableDueDate(in.DueDate).SetNillableAgentID(in.AgentID).
			SetPosition(n).Save(ctx)
		if err != nil {
			return err
		}
		return s.announcePartChange(ctx, c, cardID)
	})
	return core.Written(ctx, out, err)
}

// UpdateChecklistItem changes the sent fields of a checklist item and keeps
// the others (the forks reset what is not sent).
func (s *Service) UpdateChecklistItem(ctx context.Context, cardID, itemID int, in ChecklistInput) (*ent.ChecklistItem, error) {
	if in.Text != nil && strings.TrimSpace(*in.Text) == "" {
		return nil, apperr.Invalid("Text can't be blank", "text")
	}
	var out *ent.ChecklistItem
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ci, err := s.checklistItem(ctx, c, cardID, itemID)
		if err != nil {
			return err
		}
		upd := ci.Update().SetNillableCompleted(in.Completed).SetNillableDueDate(in.DueDate)
		if in.Text != nil {
			upd.SetText(strings.TrimSpace(*in.Text))
		}
		if in.ClearDueDate {
			upd.ClearDueDate()
		}
		switch {
		case in.ClearAgent:
			upd.ClearAgentID()
		case in.AgentID != nil:
			if err := checkCardAgents(ctx, c, "agent_id", []int{*in.AgentID}); err != nil {
				return err
			}
			upd.SetAgentID(*in.AgentID)
		}
		if out, err = upd.Save(ctx); err != nil {
			return err
		}
		return s.announcePartChange(ctx, c, cardID)
	})
	return core.Written(ctx, out, err)
}

// ToggleChecklistItem flips a checklist item between done and not done.
func (s *Service) ToggleChecklistItem(ctx context.Context, cardID, itemID int) (*ent.ChecklistItem, error) {
	var out *ent.ChecklistItem
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ci, err := s.checklistItem(ctx, c, cardID, itemID)
		if err != nil {
			return err
		}
		if out, err = ci.Update().SetCompleted(!ci.Completed).Save(ctx); err != nil {
			return err
		}
		return s.announcePartChange(ctx, c, cardID)
	})
	return core.Written(ctx, out, err)
}

// DeleteChecklistItem removes a checklist item.
func (s *Service) DeleteChecklistItem(ctx context.Context, cardID, itemID int) error {
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ci, err := s.checklistItem(ctx, c, cardID, itemID)
		if err != nil {
			return err
		}
		if err := c.ChecklistItem.DeleteOne(ci).Exec(ctx); err != nil {
			return err
		}
		return s.announcePartChange(ctx, c, cardID)
	}))
}

// announcePartChange tells the card's listeners that a part of it (its
// checklist, its notes) changed: the card's face shows the checklist's
// progress and the note count, so every board viewer needs it, and webhooks
// hear kanban_item.updated as for any other change of the card.
func (s *Service) announcePartChange(ctx context.Context, c *ent.Client, cardID int) error {
	card, err := s.loadCard(ctx, c, cardID)
	if err != nil {
		return err
	}
	return s.announceCard(ctx, c, events.KanbanItemUpdated, card, nil)
}

// checklistItem finds an item of the card's checklist (404 for another
// card's item too).
func (s *Service) checklistItem(ctx context.Context, c *ent.Client, cardID, itemID int) (*ent.ChecklistItem, error) {
	if _, err := c.KanbanItem.Get(ctx, cardID); err != nil {
		return nil, core.NotFound(err, "Kanban item")
	}
	if itemID <= 0 {
		return nil, apperr.Invalid("Checklist item can't be blank: send checklist_item_id", "checklist_item_id")
	}
	ci, err := c.ChecklistItem.Query().Where(checklistitem.ID(itemID), checklistitem.KanbanItemID(cardID)).Only(ctx)
	return ci, core.NotFound(err, "Checklist item")
}

// ---- notes ----

// Notes lists a card's notes, oldest first, with their authors.
func (s *Service) Notes(ctx context.Context, cardID int) ([]*ent.CardNote, error) {
	c := s.Client(ctx)
	if _, err := c.KanbanItem.Get(ctx, cardID); err != nil {
		return nil, apperr.From(core.NotFound(err, "Kanban item"))
	}
	ns, err := c.CardNote.Query().Where(cardnote.KanbanItemID(cardID)).Order(ent.Asc(cardnote.FieldID)).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	return ns, nil
}

// CreateNote adds a note by the viewer to a card.
func (s *Service) CreateNote(ctx context.Context, cardID int, content string) (*ent.CardNote, error) {
	if strings.TrimSpace(content) == "" {
		return nil, apperr.Invalid("Content can't be blank", "content")
	}
	var out *ent.CardNote
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if _, err := c.KanbanItem.Get(ctx, cardID); err != nil {
			return core.NotFound(err, "Kanban item")
		}
		create := c.CardNote.Create().SetKanbanItemID(cardID).SetContent(content)
		if v, _ := viewer.FromContext(ctx); v.UserID != 0 {
			create.SetAuthorID(v.UserID)
		}
		var err error
		if out, err = create.Save(ctx); err != nil {
			return err
		}
		return s.announcePartChange(ctx, c, cardID)
	})
	return core.Written(ctx, out, err)
}

// UpdateNote changes a note's content: its author or an administrator may.
func (s *Service) UpdateNote(ctx context.Context, cardID, noteID int, content *string) (*ent.CardNote, error) {
	if content == nil || strings.TrimSpace(*content) == "" {
		return nil, apperr.Invalid("Content can't be blank", "content")
	}
	var out *ent.CardNote
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		n, err := s.ownNote(ctx, c, cardID, noteID)
		if err != nil {
			return err
		}
		if out, err = n.Update().SetContent(*content).Save(ctx); err != nil {
			return err
		}
		return s.announcePartChange(ctx, c, cardID)
	})
	return core.Written(ctx, out, err)
}

// DeleteNote removes a note: its author or an administrator may.
func (s *Service) DeleteNote(ctx context.Context, cardID, noteID int) error {
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		n, err := s.ownNote(ctx, c, cardID, noteID)
		if err != nil {
			return err
		}
		if err := c.CardNote.DeleteOne(n).Exec(ctx); err != nil {
			return err
		}
		return s.announcePartChange(ctx, c, cardID)
	}))
}

func (s *Service) ownNote(ctx context.Context, c *ent.Client, cardID, noteID int) (*ent.CardNote, error) {
	if _, err := c.KanbanItem.Get(ctx, cardID); err != nil {
		return nil, core.NotFound(err, "Kanban item")
	}
	if noteID <= 0 {
		return nil, apperr.Invalid("Note can't be blank: send note_id", "note_id")
	}
	n, err := c.CardNote.Query().Where(cardnote.ID(noteID), cardnote.KanbanItemID(cardID)).Only(ctx)
	if err != nil {
		return nil, core.NotFound(err, "Note")
	}
	if err := core.PolicyAllows(ctx, cardnote.Policy, c.CardNote.UpdateOneID(n.ID).Mutation()); err != nil {
		return nil, err
	}
	return n, nil
}

// NoteAuthors returns the users who wrote the notes, by id, among the
// account's current users.
func (s *Service) NoteAuthors(ctx context.Context, notes []*ent.CardNote) (map[int]*ent.User, error) {
	var ids []int
	for _, n := range notes {
		if n.AuthorID != nil {
			ids = append(ids, *n.AuthorID)
		}
	}
	// Read as the viewer: an author who has left the account is no longer
	// one of its users (the note keeps author_id, without the profile).
	return core.UsersByID(ctx, s.Client(ctx), ids)
}

// ---- counts and time ----
