package core_test

import (
	"context"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestTxMemoLoadsOncePerTransaction: inside a transaction a key loads once,
// however often asked; outside one it loads each time; a later
// transaction loads afresh.
func TestTxMemoLoadsOncePerTransaction(t *testing.T) {
	e := testdb.Engines(t)[0]
	c := core.New(e.New(t).Client)
	ctx := core.AsBackgroundWork(context.Background())
	loads := 0
	load := func() (any, error) { loads++; return loads, nil }
	ask := func(ctx context.Context, times int) {
		for range times {
			if _, err := c.TxMemo(ctx, "key", load); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name      string
		run       func()
		wantLoads int
	}{
		{"outside a transaction", func() { ask(ctx, 3) }, 3},
		{"in one transaction", func() {
			_ = c.InTx(ctx, func(ctx context.Context, _ *ent.Client) error { ask(ctx, 3); return nil })
		}, 1},
		{"in the next transaction", func() {
			_ = c.InTx(ctx, func(ctx context.Context, _ *ent.Client) error { ask(ctx, 2); return nil })
		}, 1},
	} {
		loads = 0
		tc.run()
		if loads != tc.wantLoads {
			t.Errorf("%s: loaded %d times, want %d", tc.name, loads, tc.wantLoads)
		}
	}
}
