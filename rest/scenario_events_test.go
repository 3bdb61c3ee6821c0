package rest_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/events"
)

// eventLog records the changes told to the app account's listeners from
// the moment it is made (a scenario's wantEvents).
type eventLog struct {
	a   *app
	sub *events.Subscription
}

// listen starts an eventLog for the app's account. Changes made before it
// may still be on their way (through PostgreSQL's NOTIFY): they are passed
// over up to a marker published now.
func (a *app) listen() *eventLog {
	l := &eventLog{a: a, sub: a.srv.Events.Subscribe(a.Account)}
	l.until(a.t, "start")
	return l
}

// until publishes a marker and returns what was heard before it: events
// travel in publishing order, through PostgreSQL's NOTIFY too.
func (l *eventLog) until(t testing.TB, name string) []events.Kind {
	t.Helper()
	marker := events.Kind(fmt.Sprintf("test-%s-%d", name, l.a.next()))
	l.a.srv.Events.Publish(events.Event{AccountID: l.a.Account, Kind: marker})
	var heard []events.Kind
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e, ok := <-l.sub.Events:
			if !ok {
				t.Fatalf("the event listener was dropped after %v", heard)
			}
			if e.Kind == marker {
				return heard
			}
			heard = append(heard, e.Kind)
		case <-deadline:
			t.Fatalf("the %s marker did not come back within 10 s (heard %v)", name, heard)
		}
	}
}

// expect fails unless the kinds heard since listen are exactly want.
func (l *eventLog) expect(t *testing.T, want []events.Kind) {
	t.Helper()
	defer l.sub.Cancel()
	if got := l.until(t, "end"); !slices.Equal(got, want) {
		t.Errorf("events: got %v, want %v", got, want)
	}
}
