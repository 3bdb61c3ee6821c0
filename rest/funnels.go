package rest

import (
	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/wire"
)

// funnelInput reads a funnel body (wrapped in "funnel" or not). stages is
// the forks' list of {name, slug, color?, description?}; as in the forks'
// stored shape, an object keyed by slug is accepted too.
func funnelInput(c *fiber.Ctx) (ops.FunnelInput, error) {
	m, err := bodyMap(c)
	if err != nil {
		return ops.FunnelInput{}, err
	}
	m = unwrap(m, "funnel")
	var in ops.FunnelInput
	if in.Name, err = optString(m, "name", "name"); err != nil {
		return in, err
	}
	if in.Description, err = optString(m, "description", "description"); err != nil {
		return in, err
	}
	if in.Active, err = optBool(m, "active", "active"); err != nil {
		return in, err
	}
	if v, ok := m["settings"]; ok && v != nil {
		obj, ok := v.(map[string]any)
		if !ok {
			return in, invalidField("settings", "Settings must be an object")
		}
		in.Settings = obj
	}
	if v, ok := m["stages"]; ok {
		stages, err := stageInputs(v)
		if err != nil {
			return in, err
		}
		in.Stages = &stages
	}
	return in, nil
}

func stageInputs(v any) ([]ops.StageInput, error) {
	switch x := v.(type) {
	case nil:
		return []ops.StageInput{}, nil
	case []any:
		out := make([]ops.StageInput, 0, len(x))
		for _, el := range x {
			obj, ok := el.(map[string]any)
			if !ok {
				return nil, invalidField("stages", "Stages must be a list of {name, slug} objects")
			}
			st, err := stageInput(obj, nil)
			if err != nil {
				return nil, err
			}
			out = append(out, st)
		}
		return out, nil
	case map[string]any:
		return keyedStages(x)
	}
	return nil, invalidField("stages", "Stages must be a list of {name, slug} objects")
}

// keyedStages reads the forks' {"slug": {name, position, ...}} object, in
// the order of each stage's position.
func keyedStages(x map[string]any) ([]ops.StageInput, error) {
	type keyed struct {
		pos int
		st  ops.StageInput
	}
	var list []keyed
	for slug, el := range x {
		obj, ok := el.(map[string]any)
		if !ok {
			return nil, invalidField("stages", "Stages must be a list of {name, slug} objects")
		}
		s := slug
		st, err := stageInput(obj, &s)
		if err != nil {
			return nil, err
		}
		pos, _ := optInt(obj, "position", "stages")
		list = append(list, keyed{deref(pos), st})
	}
	sortStable(list, func(a, b keyed) bool { return a.pos < b.pos || (a.pos == b.pos && *a.st.Slug < *b.st.Slug) })
	out := make([]ops.StageInput, len(list))
	for i, k := range list {
		out[i] = k.st
	}
	return out, nil
}

func stageInput(obj map[string]any, slug *string) (ops.StageInput, error) {
	var st ops.StageInput
	var err error
	if st.ID, err = optInt(obj, "id", "stages"); err != nil {
		return st, err
	}
	for key, dst := range map[string]**string{"name": &st.Name, "slug": &st.Slug, "color": &st.Color, "description": &st.Description} {
		if *dst, err = optString(obj, key, "stages"); err != nil {
			return st, err
		}
	}
	if slug != nil && st.Slug == nil {
		st.Slug = slug
	}
	return st, nil
}

func (a *API) listFunnels(c *fiber.Ctx) error {
	fs, err := a.svc.Funnels(c.UserContext())
	if err != nil {
		return err
	}
	out := make([]H, 0, len(fs))
	for _, f := range fs {
		out = append(out, funnelJSON(f))
	}
	return c.JSON(H{"payload": out})
}

func (a *API) showFunnel(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Funnel")
	if err != nil {
		return err
	}
	f, err := a.svc.Funnel(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(funnelJSON(f))
}

func (a *API) createFunnel(c *fiber.Ctx) error {
	in, err := funnelInput(c)
	if err != nil {
		return err
	}
	f, err := a.svc.CreateFunnel(c.UserContext(), in)
	if err != nil {
		return err
	}
	return c.JSON(funnelJSON(f))
}

func (a *API) updateFunnel(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Funnel")
	if err != nil {
		return err
	}
	in, err := funnelInput(c)
	if err != nil {
		return err
	}
	f, err := a.svc.UpdateFunnel(c.UserContext(), id, in)
	if err != nil {
		return err
	}
	return c.JSON(funnelJSON(f))
}

func (a *API) deleteFunnel(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Funnel")
	if err != nil {
		return err
	}
	if err := a.svc.DeleteFunnel(c.UserContext(), id); err != nil {
		return err
	}
	return emptyOK(c)
}

// reorderStages serves PATCH /funnels/{id}/reorder {stages: [slug | {slug}]}.
func (a *API) reorderStages(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Funnel")
	if err != nil {
		return err
	}
	m, err := bodyMap(c)
	if err != nil {
		return err
	}
	list, ok := unwrap(m, "funnel")["stages"].([]any)
	if !ok {
		return invalidField("stages", "Stages must be the list of the funnel's stage slugs in their new order")
	}
	slugs := make([]string, 0, len(list))
	for _, el := range list {
		switch x := el.(type) {
		case string:
			slugs = append(slugs, x)
		case map[string]any:
			s, _ := x["slug"].(string)
			if s == "" {
				return invalidField("stages", "Each stage must be a slug or a {slug} object")
			}
			slugs = append(slugs, s)
		default:
			return invalidField("stages", "Each stage must be a slug or a {slug} object")
		}
	}
	f, err := a.svc.ReorderStages(c.UserContext(), id, slugs)
	if err != nil {
		return err
	}
	return c.JSON(funnelJSON(f))
}

func (a *API) funnelStageStats(c *fiber.Ctx) error {
	id, err := pathID(c, "id", "Funnel")
	if err != nil {
		return err
	}
	st, err := a.svc.StageStats(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(stageStatsJSON(st))
}

func (a *API) funnelCards(c *fiber.Ctx) error {
	id, err := pathID(c, "funnel_id", "Funnel")
	if err != nil {
		return err
	}
	items, err := a.svc.FunnelCards(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(H{"payload": cardsJSON(items), "meta": H{"count": len(items)}})
}

func funnelJSON(f *ent.Funnel) H {
	stages := make([]H, 0, len(f.Edges.Stages))
	for _, st := range f.Edges.Stages {
		stages = append(stages, H{
			"id": st.ID, "name": st.Name, "slug": st.Slug, "color": st.Color,
			"description": st.Description, "position": st.Position,
		})
	}
	return H{
		"id":          f.ID,
		"account_id":  f.AccountID,
		"name":        f.Name,
		"description": f.Description,
		"active":      f.Active,
		"settings":    wire.OrEmptyMap(f.Settings),
		"stages":      stages,
		"created_at":  wire.Time(f.CreatedAt),
		"updated_at":  wire.Time(f.UpdatedAt),
	}
}

func stageStatsJSON(st *ops.StageStats) H {
	stages := make([]H, 0, len(st.Stages))
	for _, s := range st.Stages {
		stages = append(stages, H{
			"slug": s.Slug, "name": s.Name, "color": s.Color, "count": s.Count, "total_value": s.TotalValue,
			"open": s.Open, "won": s.Won, "lost": s.Lost,
		})
	}
	return H{
		"funnel_id": st.FunnelID, "stages": stages, "total_items": st.Total.Count, "total_value": st.Total.TotalValue,
		"open": st.Total.Open, "won": st.Total.Won, "lost": st.Total.Lost,
	}
}
