package kanban

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanitem"
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

// orderedStages reads stages in board order: by position, then id.
func orderedStages(q *ent.FunnelStageQuery) {
	q.Order(ent.Asc(funnelstage.FieldPosition), ent.Asc(funnelstage.FieldID))
}

// InBoardOrder is stages loaded in any order (as GraphQL's field collection
// loads them with their funnels) put in the board order orderedStages reads,
// as a new slice.
func InBoardOrder(stages []*ent.FunnelStage) []*ent.FunnelStage {
	out := append(make([]*ent.FunnelStage, 0, len(stages)), stages...)
	slices.SortFunc(out, func(a, b *ent.FunnelStage) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.ID, b.ID))
	})
	return out
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
			s.AnnounceStages(ctx, f.AccountID, id)
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
		Modify(core.ForUpdateOnPostgres).IDs(ctx)
	return err
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
