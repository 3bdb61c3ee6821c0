package core_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/testdb"
)

// A Handoff claims rows while it has room for their table, and hands over
// the rows of the transactions that commit, not of those that roll back
// (a failing last write included).
func TestAHandoffHandsOverOnlyCommittedRows(t *testing.T) {
	errLast := errors.New("the last write fails")
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := core.New(e.New(t).Client)
		var commits atomic.Uint64
		commits.Store(6) // the runner's earlier hand-offs
		h := core.NewHandoff(time.Now(), map[string]int{"messages": 3}, &commits)
		ctx := core.WithHandoff(core.AsBackgroundWork(context.Background()), h)
		write := func(id int, fail, failLast bool) error {
			return c.InTx(ctx, func(ctx context.Context, tx *ent.Client) error {
				if !core.HandoffOf(ctx).Claim("messages") {
					return nil
				}
				core.HandoffOf(ctx).Written(ctx, core.HandedRow{Table: "messages", ID: id})
				if fail {
					return errors.New("the transaction fails")
				}
				return core.BeforeCommit(ctx, func() error {
					if failLast {
						return errLast
					}
					return nil
				})
			})
		}
		_ = write(1, false, false)
		_ = write(2, true, false)
		if err := write(3, false, true); !errors.Is(err, errLast) {
			t.Fatalf("the failing last write answered %v", err)
		}
		_ = write(4, false, false) // no room left: written as without a hand-off
		var ids []int
		rows, first, last := h.Handed()
		for _, row := range rows {
			ids = append(ids, row.ID)
		}
		if !slices.Equal(ids, []int{1}) {
			t.Errorf("handed over %v, want [1]: 2 and 3 rolled back, 4 found no room", ids)
		}
		if first != 7 || last != 7 || commits.Load() != 7 {
			t.Errorf("commits numbered %d to %d (runner at %d), want the one commit 7", first, last, commits.Load())
		}
		if core.HandoffOf(context.Background()).Claim("messages") {
			t.Error("no hand-off claimed a row")
		}
	})
}
