package kanban

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// StageRemoval says what becomes of a stage's cards when it is deleted:
// moved to the stage MoveTo (last, in their order), or deleted with it
// (DeleteCards). A stage that holds cards is deleted only when one of the
// two is asked for, so no card is ever lost by accident.
type StageRemoval struct {
	MoveTo      string
	DeleteCards bool
}

// DeleteStage deletes a funnel's stage and, as asked, moves or deletes its
// cards in the same transaction (administrators only). Each card's move or
// deletion is announced like a single one.
func (s *Service) DeleteStage(ctx context.Context, funnelID int, slug string, how StageRemoval) (*ent.Funnel, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	slug, how.MoveTo = strings.TrimSpace(slug), strings.TrimSpace(how.MoveTo)
	if how.MoveTo != "" && how.DeleteCards {
		return nil, apperr.Invalid("Either move the stage's cards or delete them, not both", "move_to")
	}
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if err := lockFunnels(ctx, c, funnelID); err != nil {
			return err
		}
		f, err := c.Funnel.Query().Where(funnel.ID(funnelID)).WithStages(orderedStages).Only(ctx)
		if err != nil {
			return core.NotFound(err, "Funnel")
		}
		stage, err := stageNamed(f, slug)
		if err != nil {
			return err
		}
		cards, err := c.KanbanItem.Query().Where(kanbanitem.StageID(stage.ID)).Order(kanbanitem.ByPosition()).All(ctx)
		if err != nil {
			return err
		}
		if err := s.emptyStage(ctx, c, f, stage, cards, how); err != nil {
			return err
		}
		if err := c.FunnelStage.DeleteOne(stage).Exec(ctx); err != nil {
			return err
		}
		s.AnnounceStages(ctx, f.AccountID, f.ID)
		return nil
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Funnel(ctx, funnelID)
}

// stageNamed is the funnel's stage with slug, or a refusal naming it.
func stageNamed(f *ent.Funnel, slug string) (*ent.FunnelStage, error) {
	for _, st := range f.Edges.Stages {
		if st.Slug == slug {
			return st, nil
		}
	}
	return nil, apperr.Invalidf("stage", "Stage %q is not a stage of this funnel", slug)
}

// emptyStage moves or deletes the cards of a stage about to go, refusing
// when it holds cards and nothing was asked for them.
func (s *Service) emptyStage(ctx context.Context, c *ent.Client, f *ent.Funnel, stage *ent.FunnelStage, cards []*ent.KanbanItem, how StageRemoval) error {
	switch {
	case how.MoveTo != "":
		to, err := stageNamed(f, how.MoveTo)
		if err != nil {
			return apperr.Invalidf("move_to", "Cards can't move to %q: it is not a stage of this funnel", how.MoveTo)
		}
		if to.ID == stage.ID {
			return apperr.Invalid("Cards can't move to the stage being deleted", "move_to")
		}
		for _, it := range cards {
			if err := s.moveOut(ctx, c, it, to.Slug); err != nil {
				return err
			}
		}
	case how.DeleteCards:
		// Last first: each delete closes its gap, which then shifts no card
		// still to be deleted.
		for i := len(cards) - 1; i >= 0; i-- {
			if err := s.deleteLocked(ctx, c, cards[i]); err != nil {
				return err
			}
		}
	case len(cards) > 0:
		return apperr.Invalidf("move_to", "Stage %q holds %d card(s): move them to another stage or delete them with it", stage.Slug, len(cards))
	}
	return nil
}

// moveOut moves a card, in a locked funnel, to the end of another stage.
func (s *Service) moveOut(ctx context.Context, c *ent.Client, it *ent.KanbanItem, slug string) error {
	from, err := s.loadCard(ctx, c, it.ID)
	if err != nil {
		return err
	}
	// The card's position may have shifted as earlier ones left the stage.
	if it, err = c.KanbanItem.Get(ctx, it.ID); err != nil {
		return err
	}
	if _, err := s.moveLocked(ctx, c, it, 0, &slug, nil); err != nil {
		return err
	}
	now, err := s.loadCard(ctx, c, it.ID)
	if err != nil {
		return err
	}
	return s.announceMove(ctx, c, from, now)
}

// AnnounceStages tells the funnel's live viewers that its stages changed
// (added, renamed, reordered, removed), once the transaction commits. Only
// live listeners hear of it: no webhook names stage changes.
func (s *Service) AnnounceStages(ctx context.Context, accountID, funnelID int) {
	s.PublishAfterCommit(ctx, events.Event{AccountID: accountID, Kind: events.FunnelStagesChanged, FunnelID: funnelID})
}
