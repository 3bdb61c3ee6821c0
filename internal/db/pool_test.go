package db

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// TestThePoolKeepsItsConnections: connections opened under concurrency stay
// open once released, so none pays for a reconnect (a schema parse on
// SQLite, a new backend on PostgreSQL) and its cached statements survive.
func TestThePoolKeepsItsConnections(t *testing.T) {
	d, err := Open("sqlite://" + filepath.Join(t.TempDir(), "pool.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	maxOpen := d.SQL.Stats().MaxOpenConnections
	for round := 0; round < 3; round++ {
		conns := make([]*sql.Conn, maxOpen)
		for i := range conns {
			if conns[i], err = d.SQL.Conn(ctx); err != nil {
				t.Fatal(err)
			}
			if err := conns[i].PingContext(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range conns {
			c.Close()
		}
	}
	st := d.SQL.Stats()
	if st.MaxIdleClosed != 0 || st.OpenConnections != maxOpen || st.Idle != maxOpen {
		t.Fatalf("after three rounds of %d connections: %d closed as surplus idle, %d open, %d idle; want 0, %d, %d",
			maxOpen, st.MaxIdleClosed, st.OpenConnections, st.Idle, maxOpen, maxOpen)
	}
}
