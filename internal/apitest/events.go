package apitest

import (
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/events"
)

// EventLog records the kinds of change told to an account's listeners
// from the moment it is made: a scenario's expected events.
type EventLog struct {
	hub     *events.Hub
	account int
	sub     *events.Subscription
}

var markers atomic.Int64

// Listen starts an EventLog for account. Changes made before it may still
// be on their way (through PostgreSQL's NOTIFY): they are passed over up to
// a marker published now.
func Listen(t testing.TB, hub *events.Hub, account int) *EventLog {
	t.Helper()
	l := &EventLog{hub: hub, account: account, sub: hub.Subscribe(account)}
	l.until(t, "start")
	return l
}

// until publishes a marker and returns what was heard before it: events
// travel in publishing order, through PostgreSQL's NOTIFY too.
func (l *EventLog) until(t testing.TB, name string) []events.Kind {
	t.Helper()
	marker := events.Kind(fmt.Sprintf("test-%s-%d", name, markers.Add(1)))
	l.hub.Publish(events.Event{AccountID: l.account, Kind: marker})
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

// Expect fails unless the kinds heard since Listen are exactly want, in
// order, and ends the log.
func (l *EventLog) Expect(t testing.TB, want []events.Kind) {
	t.Helper()
	defer l.sub.Cancel()
	if got := l.until(t, "end"); !slices.Equal(got, want) {
		t.Errorf("events: got %v, want %v", got, want)
	}
}

// Heard ends the log and answers the kinds heard since Listen, in order:
// for changes made together, whose order among themselves is not the
// point.
func (l *EventLog) Heard(t testing.TB) []events.Kind {
	t.Helper()
	defer l.sub.Cancel()
	return l.until(t, "end")
}

// Await is Expect for changes made in the background (a mail fetcher, a
// job): their rows may be visible before the events are told (after the
// commit), so it first waits, up to 10 s, for as many events as wanted.
func (l *EventLog) Await(t testing.TB, want []events.Kind) {
	t.Helper()
	defer l.sub.Cancel()
	var got []events.Kind
	deadline := time.After(10 * time.Second)
wait:
	for len(got) < len(want) {
		select {
		case e, ok := <-l.sub.Events:
			if !ok {
				t.Fatalf("the event listener was dropped after %v", got)
			}
			got = append(got, e.Kind)
		case <-deadline:
			break wait
		}
	}
	if got = append(got, l.until(t, "end")...); !slices.Equal(got, want) {
		t.Errorf("events: got %v, want %v", got, want)
	}
}

// Settle waits until every event of account published so far has reached
// the hub's listeners (on PostgreSQL, come back through NOTIFY), so that a
// listener made next hears only what happens from now on.
func Settle(t testing.TB, hub *events.Hub, account int) {
	t.Helper()
	Listen(t, hub, account).sub.Cancel()
}
