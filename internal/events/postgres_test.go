package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// Two instances on one PostgreSQL database: what one publishes reaches the
// other's listeners (and its own, through the same round trip), numbered
// alike, and a burst arrives whole and in order.
func TestEventsTravelBetweenInstancesThroughPostgres(t *testing.T) {
	for _, e := range testdb.Engines(t) {
		if e.Name != "postgres" {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			d := e.New(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			a, b := events.NewHub(), events.NewHub()
			for _, h := range []*events.Hub{a, b} {
				if err := events.RelayThroughPostgres(ctx, h, d.DSN, d.SQL); err != nil {
					t.Fatal(err)
				}
			}
			onA, onB := a.Subscribe(5), b.Subscribe(5)
			defer onA.Cancel()
			defer onB.Cancel()
			const n = 200 // under a listener's buffer: one is read while the other waits
			for i := 1; i <= n; i++ {
				a.Publish(events.Event{AccountID: 5, Kind: events.KanbanItemMoved, FunnelID: 2, KanbanItemID: i})
			}
			for name, sub := range map[string]*events.Subscription{"publisher": onA, "other instance": onB} {
				for i := 1; i <= n; i++ {
					select {
					case ev := <-sub.Events:
						if ev.KanbanItemID != i || ev.Seq != uint64(i) || !sub.InOrder(ev) || !ev.OnBoard(2) {
							t.Fatalf("%s: event %d arrived as %+v", name, i, ev)
						}
					case <-time.After(10 * time.Second):
						t.Fatalf("%s: event %d did not arrive within 10 s", name, i)
					}
				}
			}
		})
	}
}
