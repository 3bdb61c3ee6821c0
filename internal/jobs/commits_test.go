package jobs

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestRecordsCommitTogetherAndABadOneAlone: records waiting at once commit
// in one transaction; when one fails, the group rolls back and each commits
// alone, so only the bad one fails and nothing is written twice.
func TestRecordsCommitTogetherAndABadOneAlone(t *testing.T) {
	t.Parallel()
	errBad := errors.New("bad record")
	for _, tc := range []struct {
		name             string
		bad              int // index of the failing record; -1: none
		wantTransactions int64
	}{
		{name: "all good", bad: -1, wantTransactions: 1},
		{name: "one bad", bad: 2, wantTransactions: 1 + 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
				database, _, begins := countedDBWithTx(t, e.New(t))
				r := New(database, ops.New(database.Client), newChannels(), Options{})
				var group []commitRequest
				for i := range 5 {
					group = append(group, commitRequest{ctx: context.Background(), done: make(chan error, 1),
						f: func(ctx context.Context, c *ent.Client) error {
							if err := c.Account.Create().SetName(fmt.Sprint("record ", i)).Exec(ctx); err != nil {
								return err
							}
							if i == tc.bad {
								return errBad
							}
							return nil
						}})
				}
				before := begins.Load()
				r.commitGroup(group)
				if got := begins.Load() - before; got != tc.wantTransactions {
					t.Errorf("%d transactions, want %d", got, tc.wantTransactions)
				}
				for i, req := range group {
					if err := <-req.done; (i == tc.bad) != errors.Is(err, errBad) {
						t.Errorf("record %d: %v", i, err)
					}
				}
				ctx := viewer.SystemContext(context.Background())
				want := 5
				if tc.bad >= 0 {
					want = 4
				}
				if n := database.Client.Account.Query().CountX(ctx); n != want {
					t.Errorf("%d records written, want %d (each once)", n, want)
				}
			})
		})
	}
}
