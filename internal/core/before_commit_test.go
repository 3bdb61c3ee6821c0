package core_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/account"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/testdb"
)

// BeforeCommit's write runs after the rest of the transaction's work, in
// the transaction: what it writes commits with the rest, and a write that
// fails rolls all of it back and is what InTx answers. Outside a
// transaction it runs at once.
func TestBeforeCommitWritesLast(t *testing.T) {
	errWrite := errors.New("the last write fails")
	for _, tc := range []struct {
		name         string
		writeErr     error
		wantSteps    []string
		wantAccounts []string
	}{
		{name: "the write succeeds", wantSteps: []string{"first", "after", "last"}, wantAccounts: []string{"first", "last"}},
		{name: "the write fails", writeErr: errWrite, wantSteps: []string{"first", "after", "last"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
				c := core.New(e.New(t).Client)
				ctx := core.AsBackgroundWork(context.Background())
				var steps []string
				err := c.InTx(ctx, func(ctx context.Context, tx *ent.Client) error {
					steps = append(steps, "first")
					if err := tx.Account.Create().SetName("first").Exec(ctx); err != nil {
						return err
					}
					err := core.BeforeCommit(ctx, func() error {
						steps = append(steps, "last")
						if err := tx.Account.Create().SetName("last").Exec(ctx); err != nil {
							return err
						}
						return tc.writeErr
					})
					steps = append(steps, "after")
					return err
				})
				if !errors.Is(err, tc.writeErr) || (tc.writeErr == nil && err != nil) {
					t.Errorf("InTx answered %v, want %v", err, tc.writeErr)
				}
				if !slices.Equal(steps, tc.wantSteps) {
					t.Errorf("ran %v, want %v", steps, tc.wantSteps)
				}
				names := c.DB.Account.Query().Order(ent.Asc(account.FieldID)).Select(account.FieldName).StringsX(ctx)
				if !slices.Equal(names, tc.wantAccounts) {
					t.Errorf("accounts %v committed, want %v", names, tc.wantAccounts)
				}
			})
		})
	}

	t.Run("outside a transaction", func(t *testing.T) {
		ran := false
		if err := core.BeforeCommit(context.Background(), func() error { ran = true; return nil }); err != nil || !ran {
			t.Errorf("ran %v, answered %v; want it run at once", ran, err)
		}
	})
}
