package core_test

import (
	"context"
	"errors"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/testdb"
)

// An InTx inside another runs in the outer transaction: it sees the outer
// work, its own work commits or rolls back with the outer one, Client
// returns the transaction's client inside it and the root client outside,
// and AfterCommit runs once per committed outer transaction, never for a
// rollback.
func TestInTxNestsInTheOuterTransaction(t *testing.T) {
	errOuter := errors.New("outer fails after the inner succeeded")
	for _, tc := range []struct {
		name         string
		outerErr     error
		wantAccounts int
		wantCommits  int
	}{
		{name: "outer commits", wantAccounts: 2, wantCommits: 1},
		{name: "outer rolls back", outerErr: errOuter, wantAccounts: 0, wantCommits: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
				c := core.New(e.New(t).Client)
				commits := 0
				c.AfterCommit = func() { commits++ }
				ctx := core.AsBackgroundWork(context.Background())
				if c.Client(ctx) != c.DB {
					t.Error("Client outside a transaction is not the root client")
				}
				err := c.InTx(ctx, func(outerCtx context.Context, outer *ent.Client) error {
					outerTx := ent.TxFromContext(outerCtx)
					if outerTx == nil || c.Client(outerCtx) != outer {
						t.Fatal("Client inside InTx is not the transaction's client")
					}
					if err := outer.Account.Create().SetName("outer").Exec(outerCtx); err != nil {
						return err
					}
					err := c.InTx(outerCtx, func(innerCtx context.Context, inner *ent.Client) error {
						if ent.TxFromContext(innerCtx) != outerTx || inner != outer {
							t.Error("the inner InTx opened a transaction of its own")
						}
						n, err := inner.Account.Query().Count(innerCtx)
						if err != nil {
							return err
						}
						if n != 1 {
							t.Errorf("the inner InTx sees %d accounts, want the outer's 1", n)
						}
						return inner.Account.Create().SetName("inner").Exec(innerCtx)
					})
					if err != nil {
						return err
					}
					if commits != 0 {
						t.Errorf("AfterCommit ran %d times before the outer transaction ended", commits)
					}
					return tc.outerErr
				})
				if !errors.Is(err, tc.outerErr) {
					t.Fatalf("InTx returned %v, want %v", err, tc.outerErr)
				}
				n, err := c.DB.Account.Query().Count(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if n != tc.wantAccounts {
					t.Errorf("%d accounts after InTx, want %d", n, tc.wantAccounts)
				}
				if commits != tc.wantCommits {
					t.Errorf("AfterCommit ran %d times, want %d", commits, tc.wantCommits)
				}
			})
		})
	}
}

// A failing inner InTx fails the outer one it runs in: the outer
// transaction's work rolls back too.
func TestInTxInnerFailureRollsBackTheOuterWork(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := core.New(e.New(t).Client)
		ctx := core.AsBackgroundWork(context.Background())
		errInner := errors.New("inner")
		err := c.InTx(ctx, func(ctx context.Context, outer *ent.Client) error {
			if err := outer.Account.Create().SetName("outer").Exec(ctx); err != nil {
				return err
			}
			return c.InTx(ctx, func(context.Context, *ent.Client) error { return errInner })
		})
		if !errors.Is(err, errInner) {
			t.Fatalf("InTx returned %v, want %v", err, errInner)
		}
		if n, err := c.DB.Account.Query().Count(ctx); err != nil || n != 0 {
			t.Errorf("%d accounts (err %v) after the inner failure, want 0", n, err)
		}
	})
}
