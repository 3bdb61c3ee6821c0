package rest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/wire"
)

// funnelRequest is a funnel body, wrapped in funnel or not. null stages
// is an empty list of stages.
type funnelRequest struct {
	Name        *flexString         `json:"name"`
	Description *flexString         `json:"description"`
	Active      *flexBool           `json:"active"`
	Settings    *flexObject         `json:"settings"`
	Stages      optional[stageList] `json:"stages"`
}

func (r *funnelRequest) input() kanban.FunnelInput {
	in := kanban.FunnelInput{Name: r.Name.ptr(), Description: r.Description.ptr(), Active: r.Active.ptr(), Settings: objectOrNil(r.Settings)}
	if r.Stages.sent {
		stages := append([]kanban.StageInput{}, r.Stages.value...)
		in.Stages = &stages
	}
	return in
}

// stageList is a funnel's stages in order: the forks' list of {name, slug,
// color?, description?} or, as in their stored shape, an object keyed by
// slug ({"slug": {name, position, ...}}), read in position order.
type stageList []kanban.StageInput

type stageRequest struct {
	ID          *flexInt    `json:"id"`
	Name        *flexString `json:"name"`
	Slug        *flexString `json:"slug"`
	Color       *flexString `json:"color"`
	Description *flexString `json:"description"`
}

func (s *stageRequest) input() kanban.StageInput {
	return kanban.StageInput{ID: s.ID.ptr(), Name: s.Name.ptr(), Slug: s.Slug.ptr(), Color: s.Color.ptr(), Description: s.Description.ptr()}
}

const stagesWanted = "expected a list of {name, slug} objects"

func (l *stageList) UnmarshalJSON(data []byte) error {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return l.readKeyed(t)
	}
	var list []stageRequest
	if err := json.Unmarshal(data, &list); err != nil {
		return listError(err, stagesWanted)
	}
	out := make(stageList, 0, len(list))
	for i := range list {
		out = append(out, list[i].input())
	}
	*l = out
	return nil
}

func (l *stageList) readKeyed(data []byte) error {
	var keyed map[string]struct {
		stageRequest
		Position *flexInt `json:"position"`
	}
	if err := json.Unmarshal(data, &keyed); err != nil {
		return listError(err, stagesWanted)
	}
	type placed struct {
		pos int
		st  kanban.StageInput
	}
	list := make([]placed, 0, len(keyed))
	for slug, el := range keyed {
		st := el.input()
		if st.Slug == nil {
			st.Slug = &slug
		}
		list = append(list, placed{int(deref(el.Position)), st})
	}
	slices.SortFunc(list, func(a, b placed) int { return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(*a.st.Slug, *b.st.Slug)) })
	out := make(stageList, len(list))
	for i, p := range list {
		out[i] = p.st
	}
	*l = out
	return nil
}

// stageOrderRequest is a stage reorder {stages: [slug | {slug}]}.
type stageOrderRequest struct {
	Stages *slugList `json:"stages"`
}

// slugList is a stage reorder: the funnel's stage slugs in their new
// order, each a slug or a {slug} object.
type slugList []string

func (l *slugList) UnmarshalJSON(data []byte) error {
	items, err := listItems(data)
	if err != nil {
		return &fieldError{msg: "expected the list of the funnel's stage slugs in their new order"}
	}
	out := make(slugList, 0, len(items))
	for _, item := range items {
		slug, ok := stageSlug(item)
		if !ok {
			return &fieldError{msg: "each stage must be a slug or a {slug} object"}
		}
		out = append(out, slug)
	}
	*l = out
	return nil
}

// stageSlug reads one stage of a reorder: "slug" or {"slug": "slug"}.
func stageSlug(item json.RawMessage) (string, bool) {
	if isNull(item) {
		return "", false
	}
	var slug string
	if json.Unmarshal(item, &slug) == nil {
		return slug, true
	}
	var ref struct {
		Slug string `json:"slug"`
	}
	return ref.Slug, json.Unmarshal(item, &ref) == nil && ref.Slug != ""
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
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
	var req funnelRequest
	if err := decode(c, "funnel", &req); err != nil {
		return err
	}
	f, err := a.svc.CreateFunnel(c.UserContext(), req.input())
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
	var req funnelRequest
	if err := decode(c, "funnel", &req); err != nil {
		return err
	}
	f, err := a.svc.UpdateFunnel(c.UserContext(), id, req.input())
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
	var req stageOrderRequest
	if err := decode(c, "funnel", &req); err != nil {
		return err
	}
	if req.Stages == nil {
		return invalidField("stages", "Stages must be the list of the funnel's stage slugs in their new order")
	}
	f, err := a.svc.ReorderStages(c.UserContext(), id, *req.Stages)
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
	f, err := cardFilter(c)
	if err != nil {
		return err
	}
	p, err := a.svc.FunnelCards(c.UserContext(), id, f)
	if err != nil {
		return err
	}
	return c.JSON(H{"meta": cardMeta(p), "payload": cardsJSON(p.Items)})
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

func stageStatsJSON(st *kanban.StageStats) H {
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
