package db_test

import (
	"context"
	"database/sql"
	"fmt"
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

// Warm's writes (warmWrites) are valid for the schema, concurrent ones do
// not wait on each other, and they leave nothing behind: no row, and no id
// taken from the tables' sequences (the next rows get the ids they would
// have had). Without an inbox they write nothing at all.
func TestWarmWritesLeaveNothingBehind(t *testing.T) {
	for _, e := range testdb.Engines(t) {
		if e.Name != "postgres" {
			continue // Warm writes on PostgreSQL only
		}
		d := e.New(t)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, tc := range []struct {
			name   string
			inbox  bool
			warmed int
		}{
			{name: "no inbox yet", inbox: false, warmed: 4},
			{name: "an inbox to write through", inbox: true, warmed: 16},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if tc.inbox {
					mustExec(t, d.SQL, `INSERT INTO accounts (created_at, updated_at, name) VALUES (now(), now(), 'Warm')`)
					mustExec(t, d.SQL, `INSERT INTO inboxes (created_at, updated_at, name, channel_type, channel, account_id)
						SELECT now(), now(), 'API', 'api', '{}', id FROM accounts`)
				}
				before := tableState(t, d.SQL)
				if err := d.Warm(ctx, tc.warmed); err != nil {
					t.Fatalf("Warm(%d): %v", tc.warmed, err)
				}
				if after := tableState(t, d.SQL); after != before {
					t.Errorf("after Warm: %s, want as before: %s", after, before)
				}
			})
		}
	}
}

// tableState is, for the tables Warm writes to, their row counts and the
// next id each would give.
func tableState(t *testing.T, q *sql.DB) string {
	t.Helper()
	var out string
	for _, table := range []string{"contacts", "contact_inboxes", "conversations", "messages"} {
		var rows, next int
		err := q.QueryRow(`SELECT (SELECT count(*) FROM `+table+`),
			(SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM `+table+`_id_seq)`).Scan(&rows, &next)
		if err != nil {
			t.Fatal(err)
		}
		out += fmt.Sprintf("%s: %d rows, next id %d; ", table, rows, next)
	}
	return out
}

func mustExec(t *testing.T, q *sql.DB, stmt string) {
	t.Helper()
	if _, err := q.Exec(stmt); err != nil {
		t.Fatal(err)
	}
}
