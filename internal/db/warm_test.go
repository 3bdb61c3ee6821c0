package db_test

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Warm leaves n connections open and idle in the pool on PostgreSQL, its
// statement reading every table of the migrated schema without an error,
// and never asks for more than the pool holds (it would wait forever); on
// SQLite it opens nothing.
func TestWarmLeavesWarmConnectionsInThePool(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		d := e.New(t)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		before := d.SQL.Stats().OpenConnections
		for _, tc := range []struct {
			ask, wantOpen int
		}{
			{ask: 6, wantOpen: 6},
			{ask: 1000, wantOpen: d.SQL.Stats().MaxOpenConnections},
		} {
			if err := d.Warm(ctx, tc.ask); err != nil {
				t.Fatalf("Warm(%d): %v", tc.ask, err)
			}
			st := d.SQL.Stats()
			if st.Idle != st.OpenConnections || st.InUse != 0 {
				t.Errorf("Warm(%d): %d open, %d idle, %d in use; want all idle", tc.ask, st.OpenConnections, st.Idle, st.InUse)
			}
			if e.Name == "postgres" && st.OpenConnections < tc.wantOpen {
				t.Errorf("Warm(%d): %d open, want at least %d", tc.ask, st.OpenConnections, tc.wantOpen)
			}
			if e.Name != "postgres" && st.OpenConnections != before {
				t.Errorf("Warm(%d) on %s: %d open, want the %d before", tc.ask, e.Name, st.OpenConnections, before)
			}
		}
	})
}
