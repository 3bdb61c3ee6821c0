package kanban

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// ReorderStages puts a funnel's stages in the given order of slugs, which
// must name every stage exactly once (administrators only).
func (s *Service) ReorderStages(ctx context.Context, id int, slugs []string) (*ent.Funnel, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if err := lockFunnels(ctx, c, id); err != nil {
			return err
		}
		f, err := c.Funnel.Query().Where(funnel.ID(id)).WithStages(orderedStages).Only(ctx)
		if err != nil {
			return core.NotFound(err, "Funnel")
		}
		bySlug := map[string]*ent.FunnelStage{}
		for _, st := range f.Edges.Stages {
			bySlug[st.Slug] = st
		}
		if err := checkSameStages(slugs, bySlug); err != nil {
			return err
		}
		for i, slug := range slugs {
			if err := c.FunnelStage.UpdateOne(bySlug[slug]).SetPosition(i).Exec(ctx); err != nil {
				return err
			}
		}
		s.AnnounceStages(ctx, f.AccountID, id)
		return nil
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Funnel(ctx, id)
}

// checkSameStages refuses an order that misses, repeats or invents a stage.
func checkSameStages(slugs []string, bySlug map[string]*ent.FunnelStage) error {
	seen := map[string]bool{}
	for _, slug := range slugs {
		if bySlug[slug] == nil {
			return apperr.Invalidf("stages", "Stages: %q is not a stage of this funnel", slug)
		}
		if seen[slug] {
			return apperr.Invalidf("stages", "Stages: %q is named twice", slug)
		}
		seen[slug] = true
	}
	if len(seen) != len(bySlug) {
		var missing []string
		for slug := range bySlug {
			if !seen[slug] {
				missing = append(missing, slug)
			}
		}
		return apperr.Invalidf("stages", "Stages must name every stage of the funnel; missing: %s", strings.Join(sortedStrings(missing), ", "))
	}
	return nil
}

// stagePlan is a validated stage list: each entry is the stage as it must
// end up, with existing set when it updates a stage.
type stagePlan []plannedStage

type plannedStage struct {
	existing                       *ent.FunnelStage
	name, slug, color, description string
}

// planStages validates a stage list against the funnel's current stages
// (none for a new funnel) and matches each entry to the stage it updates.
// A funnel made when the cap was higher keeps its stages: it may be edited,
// its stages renamed, moved or removed, but it grows no further.
func planStages(in []StageInput, current []*ent.FunnelStage) (stagePlan, error) {
	if err := core.CheckListLen("stages", len(in), max(core.MaxFunnelStages, len(current))); err != nil {
		return nil, err
	}
	byID := map[int]*ent.FunnelStage{}
	bySlug := map[string]*ent.FunnelStage{}
	for _, st := range current {
		byID[st.ID], bySlug[st.Slug] = st, st
	}
	var plan stagePlan
	used := map[string]bool{}
	matched := map[int]bool{}
	for i, st := range in {
		p, err := planStage(i, st, byID, bySlug)
		if err != nil {
			return nil, err
		}
		if st.Slug == nil && p.existing == nil {
			p.slug = uniqueSlug(p.slug, used)
		}
		if used[p.slug] {
			return nil, apperr.Invalidf("stages", "Stages: slug %q is used twice", p.slug)
		}
		used[p.slug] = true
		if p.existing != nil {
			if matched[p.existing.ID] {
				return nil, apperr.Invalidf("stages", "Stages: stage %q is listed twice", p.existing.Slug)
			}
			matched[p.existing.ID] = true
		}
		plan = append(plan, p)
	}
	return plan, nil
}

func planStage(i int, st StageInput, byID map[int]*ent.FunnelStage, bySlug map[string]*ent.FunnelStage) (plannedStage, error) {
	var p plannedStage
	if st.ID != nil {
		if p.existing = byID[*st.ID]; p.existing == nil {
			return p, apperr.Invalidf("stages", "Stages: stage %d is not a stage of this funnel", *st.ID)
		}
	}
	name := strings.TrimSpace(core.Deref(st.Name))
	switch {
	case st.Slug != nil:
		p.slug = strings.TrimSpace(*st.Slug)
		if err := schema.ValidStageSlug(p.slug); err != nil {
			return p, apperr.Invalidf("stages", "Stages: %v", err)
		}
	case p.existing != nil:
		p.slug = p.existing.Slug
	default:
		p.slug = slugify(name)
	}
	if p.existing == nil && st.Slug != nil {
		p.existing = bySlug[p.slug] // a stage named by its slug is updated in place
	}
	keep := func(sent *string, stored func(*ent.FunnelStage) string) string {
		if sent == nil && p.existing != nil {
			return stored(p.existing)
		}
		return strings.TrimSpace(core.Deref(sent))
	}
	p.name = keep(st.Name, func(s *ent.FunnelStage) string { return s.Name })
	p.color = keep(st.Color, func(s *ent.FunnelStage) string { return s.Color })
	p.description = keep(st.Description, func(s *ent.FunnelStage) string { return s.Description })
	if p.name == "" {
		return p, apperr.Invalidf("stages", "Stages: stage %d has no name", i+1)
	}
	if err := schema.ValidStageColor(p.color); err != nil {
		return p, apperr.Invalidf("stages", "Stages: %v", err)
	}
	return p, nil
}

// slugify derives a slug from a stage name: lower case, runs of anything
// but a-z and 0-9 become one '_'.
func slugify(name string) string {
	s := strings.Trim(nonSlugRun.ReplaceAllString(strings.ToLower(name), "_"), "_")
	if s == "" {
		s = "stage"
	}
	if len(s) > 90 {
		s = s[:90]
	}
	return s
}

// uniqueSlug adds _2, _3, ... to a derived slug already used in the list.
func uniqueSlug(slug string, used map[string]bool) string {
	if !used[slug] {
		return slug
	}
	for n := 2; ; n++ {
		if cand := fmt.Sprintf("%s_%d", slug, n); !used[cand] {
			return cand
		}
	}
}

// applyStagePlan writes the planned stages in order and removes the current
// ones left out, refusing to remove a stage that holds cards.
func applyStagePlan(ctx context.Context, c *ent.Client, funnelID int, plan stagePlan, current []*ent.FunnelStage) error {
	kept := map[int]bool{}
	for _, p := range plan {
		if p.existing != nil {
			kept[p.existing.ID] = true
		}
	}
	var removed []int
	for _, st := range current {
		if !kept[st.ID] {
			removed = append(removed, st.ID)
		}
	}
	if err := removeEmptyStages(ctx, c, current, removed); err != nil {
		return err
	}
	// Renamed slugs first move aside, so that two stages may swap slugs
	// without meeting the (funnel, slug) unique index half-way. The parking
	// slug is random: any readable one could be a real stage's.
	park := strings.ReplaceAll(uuid.NewString(), "-", "")
	for _, p := range plan {
		if p.existing != nil && p.existing.Slug != p.slug {
			if err := c.FunnelStage.UpdateOne(p.existing).SetSlug(fmt.Sprintf("moving-%s-%d", park, p.existing.ID)).Exec(ctx); err != nil {
				return err
			}
		}
	}
	for i, p := range plan {
		if p.existing != nil {
			err := c.FunnelStage.UpdateOne(p.existing).SetName(p.name).SetSlug(p.slug).SetColor(p.color).
				SetDescription(p.description).SetPosition(i).Exec(ctx)
			if err != nil {
				return err
			}
			continue
		}
		err := c.FunnelStage.Create().SetFunnelID(funnelID).SetName(p.name).SetSlug(p.slug).SetColor(p.color).
			SetDescription(p.description).SetPosition(i).Exec(ctx)
		if err != nil {
			return err
		}
	}
	return nil
}

func removeEmptyStages(ctx context.Context, c *ent.Client, current []*ent.FunnelStage, ids []int) error {
	if len(ids) == 0 {
		return nil
	}
	busy, err := c.KanbanItem.Query().Where(kanbanitem.StageIDIn(ids...)).
		GroupBy(kanbanitem.FieldStageID).Ints(ctx)
	if err != nil {
		return err
	}
	if len(busy) > 0 {
		var slugs []string
		for _, st := range current {
			for _, id := range busy {
				if st.ID == id {
					slugs = append(slugs, st.Slug)
				}
			}
		}
		return apperr.Invalidf("stages", "Stages: %s still hold cards; move them before removing the stage", strings.Join(sortedStrings(slugs), ", "))
	}
	_, err = c.FunnelStage.Delete().Where(funnelstage.IDIn(ids...)).Exec(ctx)
	return err
}
