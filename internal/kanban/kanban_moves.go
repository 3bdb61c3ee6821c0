package kanban

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/kanbanitem"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Positions. Within a stage the cards hold the positions 0, 1, ... n-1, one
// each. Every operation that changes positions first locks the funnels it
// touches (lockFunnels), then renumbers with a few set-based UPDATEs inside
// its transaction, so concurrent moves queue up instead of interleaving,
// and positions never repeat (rest's kanban concurrency tests check 0..n-1
// after concurrent moves). The (stage, position) index is not unique: a
// unique one is checked row by row, so a range could not move by one in a
// single UPDATE, and moving it away and back updated every row twice (a
// move to the top of a stage of 1,000 cards took about three times as long).

// MoveInput says where a card goes: a stage slug of the card's funnel (or of
// FunnelID when set), and optionally a position in it (default: last).
type MoveInput struct {
	FunnelID *int
	Stage    *string
	Position *int
}

// ReorderEntry places one card of a reorder request.
type ReorderEntry struct {
	ID       int
	Position int
	// Stage is a slug of the card's funnel; nil keeps the card's stage.
	Stage *string
}

// MoveCard moves a card to a stage (and funnel) and position.
func (s *Service) MoveCard(ctx context.Context, id int, in MoveInput) (*ent.KanbanItem, error) {
	var errs core.FieldErrors
	if in.Stage == nil || strings.TrimSpace(*in.Stage) == "" {
		errs.Add("funnel_stage", "Funnel stage can't be blank")
	}
	if in.Position != nil && *in.Position < 0 {
		errs.Add("position", "Position must be 0 or more")
	}
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
		moved, err := s.moveLocked(ctx, c, it, core.Deref(in.FunnelID), in.Stage, in.Position)
		if err != nil {
			return err
		}
		if out, err = s.loadCard(ctx, c, id); err != nil || !moved {
			return err
		}
		return s.announceMove(ctx, c, from, out)
	})
	return cardWritten(ctx, out, err)
}

// ReorderCards places several cards at once, all or nothing. Entries are
// applied in order of their target positions, so a whole column sent as
// 0..n-1 comes out exactly in that order.
func (s *Service) ReorderCards(ctx context.Context, entries []ReorderEntry) ([]*ent.KanbanItem, error) {
	if len(entries) == 0 {
		return nil, apperr.Invalid("Positions can't be blank: send [{id, position, funnel_stage?}]", "positions")
	}
	if err := core.CheckListLen("positions", len(entries), core.MaxReorderEntries); err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	for _, e := range entries {
		switch {
		case e.Position < 0:
			return nil, apperr.Invalidf("positions", "Positions: position of card %d must be 0 or more", e.ID)
		case seen[e.ID]:
			return nil, apperr.Invalidf("positions", "Positions: card %d is listed twice", e.ID)
		case e.Stage != nil && strings.TrimSpace(*e.Stage) == "":
			return nil, apperr.Invalidf("positions", "Positions: funnel_stage of card %d is blank", e.ID)
		}
		seen[e.ID] = true
	}
	sorted := append([]ReorderEntry(nil), entries...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Position < sorted[j].Position })
	var out []*ent.KanbanItem
	err := s.cardTx(ctx, func(ctx context.Context, c *ent.Client) error {
		out = nil // a retried transaction starts over
		cards, err := lockCards(ctx, c, idsOf(entries), "positions")
		if err != nil {
			return err
		}
		var moves [][2]*ent.KanbanItem
		for _, e := range sorted {
			from, err := s.loadCard(ctx, c, e.ID)
			if err != nil {
				return err
			}
			it, err := c.KanbanItem.Get(ctx, e.ID) // earlier entries may have shifted it
			if err != nil {
				return err
			}
			pos := e.Position
			moved, err := s.moveLocked(ctx, c, it, cards[e.ID].FunnelID, stageOrKeep(e.Stage), &pos)
			if err != nil {
				if ae, ok := err.(*apperr.Error); ok && ae.Kind == apperr.KindInvalid {
					return apperr.Invalidf("positions", "Positions: card %d: %s", e.ID, ae.Message)
				}
				return err
			}
			if moved {
				moves = append(moves, [2]*ent.KanbanItem{from, nil})
			}
		}
		for _, e := range entries {
			card, err := s.loadCard(ctx, c, e.ID)
			if err != nil {
				return err
			}
			out = append(out, card)
		}
		for _, m := range moves {
			now, err := s.loadCard(ctx, c, m[0].ID)
			if err != nil {
				return err
			}
			if err := s.announceMove(ctx, c, m[0], now); err != nil {
				return err
			}
		}
		return nil
	})
	return cardsWritten(ctx, out, err)
}

func stageOrKeep(slug *string) *string {
	if slug == nil {
		return nil
	}
	s := strings.TrimSpace(*slug)
	return &s
}

func idsOf(entries []ReorderEntry) []int {
	ids := make([]int, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	return ids
}

// lockCard locks the funnel of a card (and extraFunnel, when the card is
// going there) and returns the card as it is under the lock. A card moved
// to another funnel while we waited is looked up again.
func lockCard(ctx context.Context, c *ent.Client, id, extraFunnel int) (*ent.KanbanItem, error) {
	cards, err := lockCards(ctx, c, []int{id}, "", extraFunnel)
	if err != nil {
		return nil, err
	}
	return cards[id], nil
}

// lockCards locks the funnels holding the cards (plus extra funnels) and
// returns the cards by id, read under the locks. Every id must name a card
// of the account: a missing one is a 404, or a 422 on field when set.
func lockCards(ctx context.Context, c *ent.Client, ids []int, field string, extraFunnels ...int) (map[int]*ent.KanbanItem, error) {
	before, err := cardsByID(ctx, c, ids, field)
	if err != nil {
		return nil, err
	}
	funnels := append([]int(nil), extraFunnels...)
	for _, it := range before {
		funnels = append(funnels, it.FunnelID)
	}
	if err := lockFunnels(ctx, c, funnels...); err != nil {
		return nil, err
	}
	after, err := cardsByID(ctx, c, ids, field)
	if err != nil {
		return nil, err
	}
	if !sameFunnels(before, after) {
		return nil, errCardsMoved
	}
	return after, nil
}

func cardsByID(ctx context.Context, c *ent.Client, ids []int, field string) (map[int]*ent.KanbanItem, error) {
	items, err := c.KanbanItem.Query().Where(kanbanitem.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := map[int]*ent.KanbanItem{}
	for _, it := range items {
		out[it.ID] = it
	}
	var missing []int
	for _, id := range core.UniqueInts(ids) {
		if out[id] == nil {
			missing = append(missing, id)
		}
	}
	switch {
	case len(missing) == 0:
		return out, nil
	case field == "":
		return nil, apperr.NotFound("Kanban item")
	}
	return nil, apperr.Invalidf(field, "Kanban items %v do not exist in this account", missing)
}

func sameFunnels(a, b map[int]*ent.KanbanItem) bool {
	for id, it := range a {
		if b[id] == nil || b[id].FunnelID != it.FunnelID {
			return false
		}
	}
	return true
}

// moveLocked moves a card whose funnels are locked: to the stage slug of
// funnelID (0: the card's funnel; nil slug: keep the stage, or the first
// stage of another funnel) at pos (nil: last; beyond the end: last). It
// reports whether the card's place changed.
func (s *Service) moveLocked(ctx context.Context, c *ent.Client, it *ent.KanbanItem, funnelID int, slug *string, pos *int) (bool, error) {
	target := it.FunnelID
	if funnelID != 0 {
		target = funnelID
	}
	var stage *ent.FunnelStage
	var err error
	if slug == nil && target == it.FunnelID {
		stage, err = c.FunnelStage.Get(ctx, it.StageID)
	} else {
		stage, err = resolveStage(ctx, c, target, slug)
	}
	if err != nil {
		return false, err
	}
	return s.placeCard(ctx, c, it, stage, pos)
}

// placeCard takes the card out of its stage (closing the gap) and puts it
// into stage at want (opening one). A change of stage is recorded in the
// card's stage history.
func (s *Service) placeCard(ctx context.Context, c *ent.Client, it *ent.KanbanItem, stage *ent.FunnelStage, want *int) (bool, error) {
	if it.StageID == stage.ID {
		if want == nil || int64(*want) == it.Position {
			return false, nil
		}
		return s.shiftWithinStage(ctx, c, it, int64(*want))
	}
	// -1 is free: real positions are 0 or more, and the funnel lock keeps
	// every other move out until this one has put its card back.
	if err := c.KanbanItem.UpdateOneID(it.ID).SetPosition(-1).Exec(ctx); err != nil {
		return false, err
	}
	if err := closeSlot(ctx, c, it.StageID, it.Position); err != nil {
		return false, err
	}
	pos, err := openSlot(ctx, c, stage.ID, want, it.ID)
	if err != nil {
		return false, err
	}
	err = c.KanbanItem.UpdateOneID(it.ID).SetPosition(pos).SetStageID(stage.ID).SetFunnelID(stage.FunnelID).
		SetStageEnteredAt(s.Now()).Exec(ctx)
	if err != nil {
		return false, err
	}
	if err := s.recordStageChange(ctx, c, it, stage); err != nil {
		return false, err
	}
	return true, nil
}

// shiftWithinStage moves a card to another position of its own stage,
// renumbering only the cards between the old and the new position.
func (s *Service) shiftWithinStage(ctx context.Context, c *ent.Client, it *ent.KanbanItem, want int64) (bool, error) {
	n, err := c.KanbanItem.Query().Where(kanbanitem.StageID(it.StageID)).Count(ctx)
	if err != nil {
		return false, err
	}
	pos := min(want, int64(n-1))
	if pos == it.Position {
		return false, nil
	}
	if err := c.KanbanItem.UpdateOneID(it.ID).SetPosition(-1).Exec(ctx); err != nil {
		return false, err
	}
	if pos < it.Position {
		err = shiftRange(ctx, c, it.StageID, pos, it.Position-1, 1)
	} else {
		err = shiftRange(ctx, c, it.StageID, it.Position+1, pos, -1)
	}
	if err != nil {
		return false, err
	}
	return true, c.KanbanItem.UpdateOneID(it.ID).SetPosition(pos).Exec(ctx)
}

// openSlot makes room at want in a stage (clamped to the end; nil: the end)
// and returns that position. exclude is a card to leave out of the count.
func openSlot(ctx context.Context, c *ent.Client, stageID int, want *int, exclude int) (int64, error) {
	n, err := c.KanbanItem.Query().Where(kanbanitem.StageID(stageID), kanbanitem.IDNEQ(exclude),
		kanbanitem.PositionGTE(0)).Count(ctx)
	if err != nil {
		return 0, err
	}
	pos := int64(n)
	if want != nil && int64(*want) < pos {
		pos = int64(*want)
	}
	return pos, shiftRange(ctx, c, stageID, pos, math.MaxInt64, 1)
}

// closeSlot moves the cards after pos one place up.
func closeSlot(ctx context.Context, c *ent.Client, stageID int, pos int64) error {
	return shiftRange(ctx, c, stageID, pos+1, math.MaxInt64, -1)
}

// shiftRange adds delta to every position in [from, to] of a stage.
func shiftRange(ctx context.Context, c *ent.Client, stageID int, from, to, delta int64) error {
	return c.KanbanItem.Update().Where(kanbanitem.StageID(stageID), kanbanitem.PositionGTE(from),
		kanbanitem.PositionLTE(to)).AddPosition(delta).Exec(ctx)
}

// recordCreated starts a card's stage history.
func (s *Service) recordCreated(ctx context.Context, c *ent.Client, itemID int, stage *ent.FunnelStage) error {
	h := c.CardStageHistory.Create().SetKanbanItemID(itemID).SetKind("created").
		SetToFunnelID(stage.FunnelID).SetToStageID(stage.ID).SetToStatus("open").SetCreatedAt(s.Now())
	return withActor(ctx, h).Exec(ctx)
}

// recordStageChange notes that a card left its stage for another.
func (s *Service) recordStageChange(ctx context.Context, c *ent.Client, it *ent.KanbanItem, to *ent.FunnelStage) error {
	h := c.CardStageHistory.Create().SetKanbanItemID(it.ID).SetKind("stage_changed").
		SetFromFunnelID(it.FunnelID).SetFromStageID(it.StageID).
		SetToFunnelID(to.FunnelID).SetToStageID(to.ID).
		SetFromStatus(string(it.Status)).SetToStatus(string(it.Status)).SetCreatedAt(s.Now())
	return withActor(ctx, h).Exec(ctx)
}

func withActor(ctx context.Context, h *ent.CardStageHistoryCreate) *ent.CardStageHistoryCreate {
	if v, _ := viewer.FromContext(ctx); v.UserID != 0 {
		h.SetUserID(v.UserID)
	}
	return h
}
