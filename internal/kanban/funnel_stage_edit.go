package kanban

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// One stage at a time: adding, changing or moving a stage is an edit of
// the funnel's stage list that the same planner as UpdateFunnel's checks
// and writes, with the list read under the funnel's lock, so a stage added
// meanwhile by someone else is never dropped by a stale list.

// AddStage adds a stage at the end of a funnel (administrators only).
func (s *Service) AddStage(ctx context.Context, funnelID int, in StageInput) (*ent.Funnel, error) {
	return s.editStages(ctx, funnelID, func(current []*ent.FunnelStage) ([]StageInput, error) {
		return append(keepStages(current), StageInput{Name: in.Name, Color: in.Color, Description: in.Description}), nil
	})
}

// UpdateStage changes one stage's name, colour or description, the fields
// sent (administrators only); its slug, and so the API's name for it, stays.
func (s *Service) UpdateStage(ctx context.Context, funnelID int, slug string, in StageInput) (*ent.Funnel, error) {
	return s.editStages(ctx, funnelID, func(current []*ent.FunnelStage) ([]StageInput, error) {
		list := keepStages(current)
		i, err := stageIndex(current, slug)
		if err != nil {
			return nil, err
		}
		list[i].Name, list[i].Color, list[i].Description = in.Name, in.Color, in.Description
		return list, nil
	})
}

// MoveStage moves a stage by delta places (-1: one to the left), within
// the funnel's ends (administrators only).
func (s *Service) MoveStage(ctx context.Context, funnelID int, slug string, delta int) (*ent.Funnel, error) {
	return s.editStages(ctx, funnelID, func(current []*ent.FunnelStage) ([]StageInput, error) {
		list := keepStages(current)
		i, err := stageIndex(current, slug)
		if err != nil {
			return nil, err
		}
		j := min(max(i+delta, 0), len(list)-1)
		st := list[i]
		list = append(list[:i], list[i+1:]...)
		list = append(list[:j], append([]StageInput{st}, list[j:]...)...)
		return list, nil
	})
}

// editStages replaces the funnel's stage list with the one edit makes of
// the current list, in one transaction under the funnel's lock.
func (s *Service) editStages(ctx context.Context, funnelID int, edit func([]*ent.FunnelStage) ([]StageInput, error)) (*ent.Funnel, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if err := lockFunnels(ctx, c, funnelID); err != nil {
			return err
		}
		f, err := c.Funnel.Query().Where(funnel.ID(funnelID)).WithStages(orderedStages).Only(ctx)
		if err != nil {
			return core.NotFound(err, "Funnel")
		}
		list, err := edit(f.Edges.Stages)
		if err != nil {
			return err
		}
		plan, err := planStages(list, f.Edges.Stages)
		if err != nil {
			return err
		}
		if err := applyStagePlan(ctx, c, f.ID, plan, f.Edges.Stages); err != nil {
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

// keepStages is the current list as stage inputs that change nothing.
func keepStages(current []*ent.FunnelStage) []StageInput {
	list := make([]StageInput, len(current))
	for i, st := range current {
		id := st.ID
		list[i] = StageInput{ID: &id}
	}
	return list
}

func stageIndex(current []*ent.FunnelStage, slug string) (int, error) {
	for i, st := range current {
		if st.Slug == slug {
			return i, nil
		}
	}
	return 0, apperr.Invalidf("stage", "Stage %q is not a stage of this funnel", slug)
}
