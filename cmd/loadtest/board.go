package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/funnel"
	"github.com/switchboard/switchboard/ent/funnelstage"
	"github.com/switchboard/switchboard/ent/kanbanitem"
)

// The board and the schedules: a funnel of two stages whose cards the card
// move route moves, and the schedule create route.

// board is the seeded funnel.
type board struct {
	funnelID int
	slugs    [2]string
	stageIDs [2]int
	cards    []int // ids
}

var boardSlugs = [2]string{"new", "won"}

// seedBoard makes the funnel through the API, then n cards in bulk, split
// between its stages with positions 0, 1, ... in each.
func seedBoard(ctx, sys context.Context, c *ent.Client, w *world, n int, progress io.Writer) error {
	var f struct {
		ID     int
		Stages []struct {
			ID   int
			Slug string
		}
	}
	stages := []map[string]any{{"name": "New lead", "slug": boardSlugs[0]}, {"name": "Won", "slug": boardSlugs[1]}}
	if err := w.call(ctx, "POST", "/funnels", map[string]any{"funnel": map[string]any{"name": "Pipeline", "stages": stages}}, &f); err != nil {
		return err
	}
	if len(f.Stages) != 2 {
		return fmt.Errorf("the funnel has %d stages, want 2", len(f.Stages))
	}
	w.board = board{funnelID: f.ID, slugs: boardSlugs, stageIDs: [2]int{f.Stages[0].ID, f.Stages[1].ID}}
	now := time.Now().UTC()
	return inBatches(sys, c, "cards", n, progress, func(tx *ent.Tx, from, to int) error {
		builders := make([]*ent.KanbanItemCreate, 0, to-from)
		for i := from; i < to; i++ {
			builders = append(builders, tx.KanbanItem.Create().SetAccountID(w.accountID).SetFunnelID(f.ID).
				SetStageID(f.Stages[i%2].ID).SetPosition(int64(i/2)).SetTitle(fmt.Sprintf("Deal %d", i+1)).
				SetValue(float64(100*(1+i%50))).SetCreatedByID(w.userID).SetStageEnteredAt(now))
		}
		created, err := tx.KanbanItem.CreateBulk(builders...).Save(sys)
		for _, card := range created {
			w.board.cards = append(w.board.cards, card.ID)
		}
		return err
	})
}

// attachBoard finds the seeded funnel and its cards (-reuse).
func attachBoard(sys context.Context, c *ent.Client, w *world) error {
	f, err := c.Funnel.Query().Where(funnel.AccountID(w.accountID)).Order(ent.Asc(funnel.FieldID)).
		WithStages(func(q *ent.FunnelStageQuery) { q.Order(ent.Asc(funnelstage.FieldPosition)) }).First(sys)
	if err != nil {
		return fmt.Errorf("reading the seeded funnel (a database seeded before the harness seeded cards: seed it again): %w", err)
	}
	if len(f.Edges.Stages) < 2 {
		return fmt.Errorf("the seeded funnel has %d stages, want 2", len(f.Edges.Stages))
	}
	w.board = board{funnelID: f.ID}
	for i := range 2 {
		w.board.slugs[i], w.board.stageIDs[i] = f.Edges.Stages[i].Slug, f.Edges.Stages[i].ID
	}
	w.board.cards, err = c.KanbanItem.Query().Where(kanbanitem.FunnelID(f.ID)).Order(ent.Asc(kanbanitem.FieldID)).IDs(sys)
	if err == nil && len(w.board.cards) == 0 {
		err = fmt.Errorf("the seeded funnel has no cards")
	}
	return err
}

// cardMove moves a random card to a random stage, at one of the first ten
// positions: a move across stages or within one, as agents drag cards.
func cardMove(w *world, rng *rand.Rand) (string, string, any) {
	card := w.board.cards[rng.IntN(len(w.board.cards))]
	return "POST", fmt.Sprintf("/kanban_items/%d/move_to_stage", card),
		map[string]any{"funnel_stage": w.board.slugs[rng.IntN(2)], "position": rng.IntN(10)}
}

// scheduleCreate schedules a message to a random seeded contact through the
// inbox, a day to a month ahead (none fires while the harness runs).
func scheduleCreate(w *world, rng *rand.Rand) (string, string, any) {
	at := time.Now().UTC().Add(24*time.Hour + time.Duration(rng.Int64N(int64(30*24*time.Hour)))).Truncate(time.Second)
	return "POST", "/scheduled_messages", map[string]any{"inbox_id": w.inboxID,
		"contact_id": w.contacts[rng.IntN(len(w.contacts))], "content": "A reminder about your order", "scheduled_at": at.Format(time.RFC3339)}
}

// replayCardMove moves a card as the route does, in one transaction, with
// the dense positions 0..n-1 of a stage: the funnel locked (moves queue),
// the card read and parked at -1, the positions after it in its stage and
// from the target on in the other moved by one (an UPDATE each), the card
// put in place, and the stage change recorded.
func replayCardMove(ctx context.Context, r *replayer, rng *rand.Rand) error {
	to, want := int64(r.w.board.stageIDs[rng.IntN(2)]), int64(rng.IntN(10))
	card := r.w.board.cards[rng.IntN(len(r.w.board.cards))]
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	if r.postgres {
		if _, err := tx.ExecContext(ctx, `SELECT id FROM funnels WHERE id = $1 FOR UPDATE`, r.w.board.funnelID); err != nil {
			return err
		}
	}
	var from, at int64
	err = tx.QueryRowContext(ctx, r.rebind(`SELECT stage_id, position FROM kanban_items WHERE id = ? AND account_id = ?`),
		card, r.w.accountID).Scan(&from, &at)
	if err != nil {
		return err
	}
	exec := func(q string, args ...any) error {
		_, err := tx.ExecContext(ctx, r.rebind(q), args...)
		return err
	}
	shift := func(stage, lo, hi, delta int64) error {
		return exec(`UPDATE kanban_items SET position = position + ? WHERE stage_id = ? AND position >= ? AND position <= ?`,
			delta, stage, lo, hi)
	}
	if err := exec(`UPDATE kanban_items SET position = -1 WHERE id = ?`, card); err != nil {
		return err
	}
	now := time.Now().UTC()
	if from == to {
		var n int64
		if err := tx.QueryRowContext(ctx, r.rebind(`SELECT COUNT(*) FROM kanban_items WHERE stage_id = ?`), to).Scan(&n); err != nil {
			return err
		}
		pos := min(want, n-1)
		if pos < at {
			err = shift(to, pos, at-1, 1)
		} else {
			err = shift(to, at+1, pos, -1)
		}
		if err != nil {
			return err
		}
		if err := exec(`UPDATE kanban_items SET position = ?, updated_at = ? WHERE id = ?`, pos, now, card); err != nil {
			return err
		}
		return tx.Commit()
	}
	if err := shift(from, at+1, math.MaxInt64, -1); err != nil {
		return err
	}
	var n int64
	if err := tx.QueryRowContext(ctx, r.rebind(`SELECT COUNT(*) FROM kanban_items WHERE stage_id = ? AND position >= 0`), to).Scan(&n); err != nil {
		return err
	}
	pos := min(want, n)
	if err := shift(to, pos, math.MaxInt64, 1); err != nil {
		return err
	}
	if err := exec(`UPDATE kanban_items SET stage_id = ?, position = ?, stage_entered_at = ?, updated_at = ? WHERE id = ?`,
		to, pos, now, now, card); err != nil {
		return err
	}
	err = exec(`INSERT INTO card_stage_histories (kind, created_at, account_id, kanban_item_id, from_funnel_id, to_funnel_id,
		from_stage_id, to_stage_id, user_id) VALUES ('stage_changed', ?, ?, ?, ?, ?, ?, ?, ?)`,
		now, r.w.accountID, card, r.w.board.funnelID, r.w.board.funnelID, from, to, r.w.userID)
	if err != nil {
		return err
	}
	return tx.Commit()
}

// replayScheduleCreate checks that the contact is reachable through the
// inbox and stores the schedule.
func replayScheduleCreate(ctx context.Context, r *replayer, rng *rand.Rand) error {
	contact := r.w.contacts[rng.IntN(len(r.w.contacts))]
	ci, err := r.ids(ctx, r.db, `SELECT id FROM contact_inboxes WHERE contact_id = ? AND inbox_id = ? AND account_id = ?`,
		contact, r.w.inboxID, r.w.accountID)
	if err != nil || len(ci) == 0 {
		return fmt.Errorf("contact %d's inbox: %v", contact, err)
	}
	now := time.Now().UTC()
	at := now.Add(24 * time.Hour).Truncate(time.Second)
	_, err = r.ids(ctx, r.db, `INSERT INTO scheduled_messages (created_at, updated_at, content, scheduled_at, status,
		content_attributes, private, recurrence_type, recurrence_interval, recurrence_days, recurrence_end_type,
		occurrences_count, contact_id, inbox_id, account_id, author_id, next_occurrence_at)
		VALUES (?, ?, ?, ?, 'pending', '{}', ?, 'none', 1, '[]', 'never', 0, ?, ?, ?, ?, ?) RETURNING id`,
		now, now, "A reminder about your order", at, false, contact, r.w.inboxID, r.w.accountID, r.w.userID, at)
	return err
}
