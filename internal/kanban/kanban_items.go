package kanban

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Cards (kanban items). Every agent of the account sees and works every
// card (the forks' assigned-only rule is what their users complain about);
// deleting a card is for administrators.

// CardPriorities are the allowed values of a card's priority.
var CardPriorities = []string{"none", "low", "medium", "high", "urgent"}

// CardStatuses are the allowed values of a card's status.
var CardStatuses = []string{"open", "won", "lost"}

// CardInput carries the fields of a card create or update; nil means "not sent".
type CardInput struct {
	FunnelID *int
	// Stage is the slug of a stage of the funnel.
	Stage    *string
	Position *int
	// ConversationDisplayID links the card to a conversation;
	// ClearConversation unlinks it.
	ConversationDisplayID *int
	ClearConversation     bool
	AssignedAgents        *[]int
	Title                 *string
	Description           *string
	Priority              *string
	Value                 *float64
	Currency              map[string]string
	// Details are further item_details keys, kept as sent; on update they
	// are merged into the stored ones (a nil value removes a key).
	Details map[string]any
}

// UnassignedAgent as CardFilter.AgentID selects the cards nobody is
// assigned to (agent_id=-1, as the forks' clients send it).
const UnassignedAgent = -1

// Card page sizes: the forks' fixed 100, with a ceiling for boards that
// load a whole stage at once.
const (
	DefaultCardPage = 100
	MaxCardPage     = 500
)

// CreateCard adds a card to a funnel stage, at the given position or last.
func (s *Service) CreateCard(ctx context.Context, in CardInput) (*ent.KanbanItem, error) {
	var errs core.FieldErrors
	if in.FunnelID == nil {
		errs.Add("funnel_id", "Funnel can't be blank")
	}
	if strings.TrimSpace(core.Deref(in.Title)) == "" {
		errs.Add("item_details.title", "Title can't be blank")
	}
	checkCardFields(in, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var out *ent.KanbanItem
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if err := lockFunnels(ctx, c, *in.FunnelID); err != nil {
			return err
		}
		stage, err := resolveStage(ctx, c, *in.FunnelID, in.Stage)
		if err != nil {
			return err
		}
		convID, err := resolveConversation(ctx, c, in.ConversationDisplayID)
		if err != nil {
			return err
		}
		agents := core.UniqueInts(derefInts(in.AssignedAgents))
		if err := checkCardAgents(ctx, c, "assigned_agents", agents); err != nil {
			return err
		}
		pos, err := openSlot(ctx, c, stage.ID, in.Position, 0)
		if err != nil {
			return err
		}
		v, _ := viewer.FromContext(ctx)
		create := c.KanbanItem.Create().SetFunnelID(stage.FunnelID).SetStageID(stage.ID).SetPosition(pos).
			SetNillableConversationID(convID).SetTitle(strings.TrimSpace(*in.Title)).
			SetNillableDescription(in.Description).SetNillableValue(in.Value).
			SetItemDetails(core.MergeAttributes(nil, in.Details)).AddAssignedAgentIDs(agents...).
			SetStageEnteredAt(s.Now())
		if in.Priority != nil {
			create.SetPriority(kanbanitem.Priority(*in.Priority))
		}
		if in.Currency != nil {
			create.SetCurrency(in.Currency)
		}
		if v.UserID != 0 {
			create.SetCreatedByID(v.UserID)
		}
		it, err := create.Save(ctx)
		if err != nil {
			return err
		}
		if err := s.recordCreated(ctx, c, it.ID, stage); err != nil {
			return err
		}
		out, err = s.loadCard(ctx, c, it.ID)
		if err != nil {
			return err
		}
		return s.announceCard(ctx, c, events.KanbanItemCreated, out, nil)
	})
	return cardWritten(ctx, out, err)
}

// UpdateCard changes a card. A sent funnel, stage or position moves it, as
// MoveCard does.
func (s *Service) UpdateCard(ctx context.Context, id int, in CardInput) (*ent.KanbanItem, error) {
	var errs core.FieldErrors
	if in.Title != nil && strings.TrimSpace(*in.Title) == "" {
		errs.Add("item_details.title", "Title can't be blank")
	}
	checkCardFields(in, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var out *ent.KanbanItem
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		it, err := lockCard(ctx, c, id, core.Deref(in.FunnelID))
		if err != nil {
			return err
		}
		from, err := s.loadCard(ctx, c, id)
		if err != nil {
			return err
		}
		if err := s.updateCardFields(ctx, c, it, in); err != nil {
			return err
		}
		moved := false
		if in.FunnelID != nil || in.Stage != nil || in.Position != nil {
			if moved, err = s.moveLocked(ctx, c, it, core.Deref(in.FunnelID), in.Stage, in.Position); err != nil {
				return err
			}
		}
		if out, err = s.loadCard(ctx, c, id); err != nil {
			return err
		}
		if err := s.announceCard(ctx, c, events.KanbanItemUpdated, out, nil); err != nil {
			return err
		}
		if moved {
			return s.announceMove(ctx, c, from, out)
		}
		return nil
	})
	return cardWritten(ctx, out, err)
}

func (s *Service) updateCardFields(ctx context.Context, c *ent.Client, it *ent.KanbanItem, in CardInput) error {
	upd := c.KanbanItem.UpdateOne(it).SetNillableDescription(in.Description).SetNillableValue(in.Value)
	if in.Title != nil {
		upd.SetTitle(strings.TrimSpace(*in.Title))
	}
	if in.Priority != nil {
		upd.SetPriority(kanbanitem.Priority(*in.Priority))
	}
	if in.Currency != nil {
		upd.SetCurrency(in.Currency)
	}
	if in.Details != nil {
		upd.SetItemDetails(core.MergeAttributes(it.ItemDetails, in.Details))
	}
	switch {
	case in.ClearConversation:
		upd.ClearConversationID()
	case in.ConversationDisplayID != nil && !sameConversation(ctx, c, it, *in.ConversationDisplayID):
		convID, err := resolveConversation(ctx, c, in.ConversationDisplayID)
		if err != nil {
			return err
		}
		upd.SetNillableConversationID(convID)
	}
	if in.AssignedAgents != nil {
		agents := core.UniqueInts(*in.AssignedAgents)
		if err := checkCardAgents(ctx, c, "assigned_agents", agents); err != nil {
			return err
		}
		upd.ClearAssignedAgents().AddAssignedAgentIDs(agents...)
	}
	return upd.Exec(ctx)
}

// DeleteCard deletes a card (administrators only) and closes the gap it
// leaves in its stage.
func (s *Service) DeleteCard(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		it, err := lockCard(ctx, c, id, 0)
		if err != nil {
			return err
		}
		return s.deleteLocked(ctx, c, it)
	}))
}

// deleteLocked deletes card it, locked in this transaction: its listeners
// hear of it while it can still be read, and its stage closes the gap.
func (s *Service) deleteLocked(ctx context.Context, c *ent.Client, it *ent.KanbanItem) error {
	card, err := s.loadCard(ctx, c, it.ID)
	if err != nil {
		return err
	}
	if err := s.announceCard(ctx, c, events.KanbanItemDeleted, card, nil); err != nil {
		return err
	}
	if err := c.KanbanItem.DeleteOne(it).Exec(ctx); err != nil {
		return err
	}
	return closeSlot(ctx, c, it.StageID, it.Position)
}

// ChangeCardStatus sets a card's status (open, won or lost); the stage stays.
func (s *Service) ChangeCardStatus(ctx context.Context, id int, status string) (*ent.KanbanItem, error) {
	status = strings.TrimSpace(status)
	if !core.ContainsString(CardStatuses, status) {
		return nil, apperr.Invalidf("status", "Status must be one of %s", strings.Join(CardStatuses, ", "))
	}
	var out *ent.KanbanItem
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		it, err := lockCard(ctx, c, id, 0)
		if err != nil {
			return err
		}
		changed, err := s.setStatus(ctx, c, it, kanbanitem.Status(status))
		if err != nil {
			return err
		}
		if out, err = s.loadCard(ctx, c, id); err != nil || !changed {
			return err
		}
		return s.announceCard(ctx, c, events.KanbanItemStatusChanged, out,
			map[string]any{"changes": map[string]any{"status": map[string]any{"from": string(it.Status), "to": status}}})
	})
	return cardWritten(ctx, out, err)
}

// setStatus changes the status and records it; closed_at marks when a card
// was won or lost. It reports whether anything changed.
func (s *Service) setStatus(ctx context.Context, c *ent.Client, it *ent.KanbanItem, status kanbanitem.Status) (bool, error) {
	if it.Status == status {
		return false, nil
	}
	upd := c.KanbanItem.UpdateOne(it).SetStatus(status)
	if status == kanbanitem.StatusOpen {
		upd.ClearClosedAt()
	} else {
		upd.SetClosedAt(s.Now())
	}
	if err := upd.Exec(ctx); err != nil {
		return false, err
	}
	hist := c.CardStageHistory.Create().SetKanbanItemID(it.ID).SetKind("status_changed").
		SetFromStatus(string(it.Status)).SetToStatus(string(status)).
		SetFromStageID(it.StageID).SetToStageID(it.StageID).
		SetFromFunnelID(it.FunnelID).SetToFunnelID(it.FunnelID).SetCreatedAt(s.Now())
	return true, withActor(ctx, hist).Exec(ctx)
}
