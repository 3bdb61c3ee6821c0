package kanban

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/cardstagehistory"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// MaxStaysListed bounds a time report's stays: the latest are listed (the
// card's current one among them), and its totals still count every stay.
// It bounds the stages a report sums by too, in the order the card first
// entered them.
const MaxStaysListed = 1000

// historyPage is how many history rows a time report reads at a time: a
// card moved for years is read in pages, so the report's memory is bounded
// by MaxStaysListed whatever its history holds.
const historyPage = 1000

// removedStage names a stay in a stage deleted since.
var removedStage = stageName{slug: "removed_stage", name: "(removed stage)"}

type stageName struct{ slug, name string }

// stays folds a card's history, oldest first, into its stays in stages:
// the latest keep of them (all when keep is 0), how many there were, and
// every stay's seconds by stage.
type stays struct {
	keep   int
	end    time.Time
	listed []StageSpan
	count  int
	// seconds sums the closed stays by stage id; order has the stage ids in
	// the order the card first entered them.
	seconds map[int]int64
	order   []int
}

func newStays(keep int, end time.Time) *stays {
	return &stays{keep: keep, end: end, seconds: map[int]int64{}}
}

// add takes the next history row: a move closes the open stay and opens
// one in its target stage; a status change is no stay.
func (f *stays) add(h *ent.CardStageHistory) {
	if h.Kind == cardstagehistory.KindStatusChanged || h.ToStageID == nil {
		return
	}
	if n := len(f.listed); n > 0 {
		left := h.CreatedAt
		f.close(&f.listed[n-1], &left)
	}
	if _, seen := f.seconds[*h.ToStageID]; !seen {
		f.seconds[*h.ToStageID] = 0
		f.order = append(f.order, *h.ToStageID)
	}
	f.listed = append(f.listed, StageSpan{StageID: *h.ToStageID, FunnelID: core.Deref(h.ToFunnelID), EnteredAt: h.CreatedAt})
	f.count++
	if f.keep > 0 && len(f.listed) > f.keep {
		f.listed = f.listed[1:] // closed already: its seconds are summed
	}
}

// finish runs the open stay until end.
func (f *stays) finish() {
	if n := len(f.listed); n > 0 {
		f.close(&f.listed[n-1], nil)
	}
}

// close ends a stay at left (nil: still there, counted until end).
func (f *stays) close(sp *StageSpan, left *time.Time) {
	until := f.end
	if left != nil {
		sp.LeftAt = left
		until = minTime(*left, f.end)
	}
	sp.Seconds = seconds(sp.EnteredAt, until)
	f.seconds[sp.StageID] += sp.Seconds
}

// stageSpans turns a card's history (oldest first) into all its stays in
// stages; the last stay lasts until end.
func stageSpans(hist []*ent.CardStageHistory, end time.Time) []StageSpan {
	f := newStays(0, end)
	for _, h := range hist {
		f.add(h)
	}
	f.finish()
	return f.listed
}

// foldHistory reads a card's history into f, a page at a time.
func foldHistory(ctx context.Context, c *ent.Client, cardID int, f *stays) error {
	for offset := 0; ; offset += historyPage {
		page, err := c.CardStageHistory.Query().Where(cardstagehistory.KanbanItemID(cardID)).
			Order(ent.Asc(cardstagehistory.FieldCreatedAt), ent.Asc(cardstagehistory.FieldID)).
			Offset(offset).Limit(historyPage).All(ctx)
		if err != nil {
			return apperr.From(err)
		}
		for _, h := range page {
			f.add(h)
		}
		if len(page) < historyPage {
			f.finish()
			return nil
		}
	}
}

// stageNames reads the slug and name of each stage id; a deleted stage is
// removedStage.
func stageNames(ctx context.Context, c *ent.Client, ids []int) (map[int]stageName, error) {
	out := map[int]stageName{}
	if len(ids) == 0 {
		return out, nil
	}
	stages, err := c.FunnelStage.Query().Where(funnelstage.IDIn(core.UniqueInts(ids)...)).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	for _, st := range stages {
		out[st.ID] = stageName{slug: st.Slug, name: st.Name}
	}
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			out[id] = removedStage
		}
	}
	return out, nil
}
