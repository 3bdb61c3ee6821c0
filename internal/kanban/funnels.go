package kanban

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// A funnel is an ordered list of stages; cards name their stage by slug on
// the wire but hold its id, so renaming a stage or its slug never orphans a
// card (the forks keep the slug in the card and lose cards on renames).

// FunnelInput carries the fields of a funnel create or update; nil means "not sent".
type FunnelInput struct {
	Name        *string
	Description *string
	Active      *bool
	Settings    map[string]any
	// Stages, when sent, is the whole new list of stages in order.
	Stages *[]StageInput
}

// StageInput is one stage of a funnel request. A stage with an ID (or a
// slug of an existing stage) updates that stage; others are new.
type StageInput struct {
	ID          *int
	Name        *string
	Slug        *string
	Color       *string
	Description *string
}

var (
	nonSlugRun = regexp.MustCompile(`[^a-z0-9]+`)
)

// Funnels lists the account's funnels by name, each with its stages in order.
func (s *Service) Funnels(ctx context.Context) ([]*ent.Funnel, error) {
	fs, err := s.Client(ctx).Funnel.Query().WithStages(orderedStages).
		Order(ent.Asc(funnel.FieldName), ent.Asc(funnel.FieldID)).All(ctx)
	return fs, core.ApperrOrNil(err)
}

// Funnel returns one funnel with its stages in order.
func (s *Service) Funnel(ctx context.Context, id int) (*ent.Funnel, error) {
	f, err := s.Client(ctx).Funnel.Query().Where(funnel.ID(id)).WithStages(orderedStages).Only(ctx)
	return f, core.ApperrOrNil(core.NotFound(err, "Funnel"))
}

func orderedStages(q *ent.FunnelStageQuery) {
	q.Order(ent.Asc(funnelstage.FieldPosition), ent.Asc(funnelstage.FieldID))
}

// CreateFunnel creates a funnel with its stages (administrators only).
func (s *Service) CreateFunnel(ctx context.Context, in FunnelInput) (*ent.Funnel, error) {
	if err := core.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	var id int
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		name, err := s.checkFunnelName(ctx, c, 0, in.Name, true)
		if err != nil {
			return err
		}
		var stages []StageInput
		if in.Stages != nil {
			stages = *in.Stages
		}
		plan, err := planStages(stages, nil)
		if err != nil {
			return err
		}
		f, err := c.Funnel.Create().SetName(name).SetNillableDescription(in.Description).
			SetNillableActive(in.Active).SetSettings(orEmptySettings(in.Settings)).Save(ctx)
		if err != nil {
			return err
		}
		id = f.ID
		return applyStagePlan(ctx, c, f.ID, plan, nil)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Funnel(ctx, id)
}

// UpdateFunnel changes a funnel (administrators only). Sent stages replace
// the list: stages matched by id or slug are updated, new ones created, and
// left-out ones removed, which is refused while they still hold cards.
func (s *Service) UpdateFunnel(ctx context.Context, id int, in FunnelInput) (*ent.Funnel, error) {
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
		upd := f.Update().SetNillableDescription(in.Description).SetNillableActive(in.Active)
		if in.Name != nil {
			name, err := s.checkFunnelName(ctx, c, id, in.Name, true)
			if err != nil {
				return err
			}
			upd.SetName(name)
		}
		if in.Settings != nil {
			upd.SetSettings(in.Settings)
		}
		if in.Stages != nil {
			plan, err := planStages(*in.Stages, f.Edges.Stages)
			if err != nil {
				return err
			}
			if err := applyStagePlan(ctx, c, id, plan, f.Edges.Stages); err != nil {
				return err
			}
		}
		return upd.Exec(ctx)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Funnel(ctx, id)
}

// DeleteFunnel deletes a funnel with its stages and cards (administrators
// only); each card's deletion is announced like a single delete.
func (s *Service) DeleteFunnel(ctx context.Context, id int) error {
	if err := core.RequireAdmin(ctx); err != nil {
		return err
	}
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if err := lockFunnels(ctx, c, id); err != nil {
			return err
		}
		f, err := c.Funnel.Get(ctx, id)
		if err != nil {
			return core.NotFound(err, "Funnel")
		}
		cards, err := s.loadCards(ctx, c, c.KanbanItem.Query().Where(kanbanitem.FunnelID(id)))
		if err != nil {
			return err
		}
		for _, it := range cards {
			if err := s.announceCard(ctx, c, events.KanbanItemDeleted, it, nil); err != nil {
				return err
			}
		}
		if _, err := c.KanbanItem.Delete().Where(kanbanitem.FunnelID(id)).Exec(ctx); err != nil {
			return err
		}
		if _, err := c.FunnelStage.Delete().Where(funnelstage.FunnelID(id)).Exec(ctx); err != nil {
			return err
		}
		return c.Funnel.DeleteOne(f).Exec(ctx)
	}))
}

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

func (s *Service) checkFunnelName(ctx context.Context, c *ent.Client, selfID int, raw *string, required bool) (string, error) {
	name := strings.TrimSpace(core.Deref(raw))
	if name == "" {
		if !required && raw == nil {
			return "", nil
		}
		return "", apperr.Invalid("Name can't be blank", "name")
	}
	if len(name) > 255 {
		return "", apperr.Invalid("Name is too long (at most 255 characters)", "name")
	}
	taken, err := c.Funnel.Query().Where(funnel.Name(name), funnel.IDNEQ(selfID)).Exist(ctx)
	if err != nil {
		return "", err
	}
	if taken {
		return "", apperr.Invalid("Name has already been taken", "name")
	}
	return name, nil
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
func planStages(in []StageInput, current []*ent.FunnelStage) (stagePlan, error) {
	if err := core.CheckListLen("stages", len(in), core.MaxFunnelStages); err != nil {
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

// lockFunnels serialises the card moves of the given funnels. On PostgreSQL
// it takes the funnels' row locks (in id order, so two operations never wait
// on each other crosswise) until the transaction ends; every operation that
// changes positions takes them first, so positions are always renumbered by
// one transaction at a time. SQLite needs nothing: its transactions begin
// IMMEDIATE, so a writer holds the database's one write lock from its start.
func lockFunnels(ctx context.Context, c *ent.Client, ids ...int) error {
	ids = core.UniqueInts(ids)
	if len(ids) == 0 {
		return nil
	}
	_, err := c.Funnel.Query().Where(funnel.IDIn(ids...)).Unique(false).Order(ent.Asc(funnel.FieldID)).
		Modify(forUpdateOnPostgres).IDs(ctx)
	return err
}

// forUpdateOnPostgres adds FOR UPDATE on PostgreSQL; SQLite has no such clause.
func forUpdateOnPostgres(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForUpdate()
	}
}

func orEmptySettings(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func sortedStrings(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}
