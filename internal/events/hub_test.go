package events

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// receive waits for the next event of sub, failing after a deadline.
func receive(t *testing.T, sub *Subscription) (Event, bool) {
	t.Helper()
	select {
	case e, ok := <-sub.Events:
		return e, ok
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5 s")
		return Event{}, false
	}
}

func TestSequenceIsPerAccountAndContiguous(t *testing.T) {
	h := NewHub()
	a, b := h.Subscribe(1), h.Subscribe(2)
	defer a.Cancel()
	defer b.Cancel()
	for _, acc := range []int{1, 2, 1, 1} {
		h.Publish(Event{AccountID: acc, Kind: MessageCreated})
	}
	for _, tc := range []struct {
		sub  *Subscription
		want []uint64
	}{{a, []uint64{1, 2, 3}}, {b, []uint64{1}}} {
		for _, want := range tc.want {
			e, _ := receive(t, tc.sub)
			if e.Seq != want || !tc.sub.InOrder(e) {
				t.Errorf("event %+v: want sequence %d, in order", e, want)
			}
		}
	}
}

func TestASubscriptionStartsWhereTheAccountStands(t *testing.T) {
	h := NewHub()
	h.Publish(Event{AccountID: 1, Kind: MessageCreated})
	h.Publish(Event{AccountID: 1, Kind: MessageCreated})
	sub := h.Subscribe(1)
	defer sub.Cancel()
	h.Publish(Event{AccountID: 1, Kind: MessageCreated})
	if e, _ := receive(t, sub); e.Seq != 3 || !sub.InOrder(e) {
		t.Errorf("first event after subscribing: %+v, want sequence 3 and in order", e)
	}
}

func TestASlowListenerIsDroppedNotSkipped(t *testing.T) {
	h := NewHub()
	slow, fast := h.Subscribe(1), h.Subscribe(1)
	defer fast.Cancel()
	for i := 1; i <= SubscriberBuffer+10; i++ {
		h.Publish(Event{AccountID: 1, Kind: KanbanItemMoved}) // never blocks on slow
		if e, ok := receive(t, fast); !ok || !fast.InOrder(e) {
			t.Fatalf("the fast listener lost event %d (%+v, open %v)", i, e, ok)
		}
	}
	n := 0
	for e := range slow.Events { // what it had buffered, then closed
		if !slow.InOrder(e) {
			t.Fatalf("a gap inside the slow listener's buffer at %+v", e)
		}
		n++
	}
	if n != SubscriberBuffer {
		t.Errorf("the slow listener got %d events before it was dropped, want its buffer of %d", n, SubscriberBuffer)
	}
	if h.Dropped() != 1 || h.Listeners(1) != 1 {
		t.Errorf("dropped %d listeners, %d left; want 1 dropped, the fast one left", h.Dropped(), h.Listeners(1))
	}
	slow.Cancel() // after a drop, cancelling is harmless
}

func TestAGapEndsEveryFollowedStream(t *testing.T) {
	h := NewHub()
	busy, quiet := h.Subscribe(1), h.Subscribe(2) // account 2 has had no event yet
	defer busy.Cancel()
	defer quiet.Cancel()
	h.Publish(Event{AccountID: 1, Kind: MessageCreated})
	if e, _ := receive(t, busy); !busy.InOrder(e) {
		t.Fatalf("first event out of order: %+v", e)
	}
	h.Gap()
	if h.Gaps() != 1 {
		t.Errorf("gaps counted: %d, want 1", h.Gaps())
	}
	h.Publish(Event{AccountID: 1, Kind: MessageCreated})
	h.Publish(Event{AccountID: 2, Kind: MessageCreated})
	for name, sub := range map[string]*Subscription{"busy": busy, "quiet": quiet} {
		if e, _ := receive(t, sub); sub.InOrder(e) {
			t.Errorf("%s: the event after a gap (%+v) looks in order", name, e)
		}
	}
}

// loopback is a relay's send that brings every payload straight back, as
// LISTEN does, and records the payloads.
type loopback struct {
	hub      *Hub
	payloads chan string
}

func (l *loopback) send(_ context.Context, payload string) error {
	es, err := decodeBatch(payload)
	if err != nil {
		return err
	}
	l.payloads <- payload
	for _, e := range es {
		l.hub.Deliver(e)
	}
	return nil
}

func TestRelayCarriesEveryEventInOrderInBoundedPayloads(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := NewHub()
	lb := &loopback{hub: h, payloads: make(chan string, 1000)}
	startRelay(ctx, h, lb.send, time.Second)
	sub := h.Subscribe(7)
	defer sub.Cancel()
	const n = 200
	for i := 1; i <= n; i++ {
		h.Publish(Event{AccountID: 7, Kind: KanbanItemMoved, KanbanItemID: i, Origin: strings.Repeat("x", 40)})
	}
	for i := 1; i <= n; i++ {
		e, _ := receive(t, sub)
		if e.KanbanItemID != i || !sub.InOrder(e) {
			t.Fatalf("event %d: got %+v", i, e)
		}
	}
	for len(lb.payloads) > 0 {
		if p := <-lb.payloads; len(p) > maxPayload {
			t.Errorf("a payload of %d bytes, over the %d limit", len(p), maxPayload)
		}
	}
}

// TestRelayBatchesAStreamOfEvents: an event published a moment after
// another travels with it, where the relay used to send the first at once,
// alone.
func TestRelayBatchesAStreamOfEvents(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := NewHub()
	lb := &loopback{hub: h, payloads: make(chan string, 10)}
	startRelay(ctx, h, lb.send, time.Second)
	sub := h.Subscribe(8)
	defer sub.Cancel()
	start := time.Now()
	h.Publish(Event{AccountID: 8, Kind: MessageCreated, MessageID: 1})
	time.Sleep(time.Millisecond) // the pace of two commits, not a wait for an event
	h.Publish(Event{AccountID: 8, Kind: MessageCreated, MessageID: 2})
	between := time.Since(start)
	for i := 1; i <= 2; i++ {
		if e, _ := receive(t, sub); e.MessageID != i || !sub.InOrder(e) {
			t.Fatalf("event %d: got %+v", i, e)
		}
	}
	if between >= relayLinger {
		t.Logf("the machine took %v between the two publications, past the linger: nothing to tell", between)
		return
	}
	if got := len(lb.payloads); got != 1 {
		t.Errorf("two events published %v apart went in %d notifications, want 1", between, got)
	}
}

func TestAStuckRelayNeitherBlocksPublishersNorLosesLocalListeners(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := NewHub()
	release := make(chan struct{})
	defer close(release)
	startRelay(ctx, h, func(ctx context.Context, _ string) error {
		select { // a database that does not answer: the timeout ends the wait
		case <-ctx.Done():
			return ctx.Err()
		case <-release:
			return errors.New("released")
		}
	}, 50*time.Millisecond)
	sub := h.Subscribe(3)
	defer sub.Cancel()
	published := make(chan struct{})
	go func() {
		h.Publish(Event{AccountID: 3, Kind: MessageCreated, MessageID: 42})
		close(published)
	}()
	select {
	case <-published:
	case <-time.After(time.Second):
		t.Fatal("Publish waited for the stuck relay")
	}
	if e, _ := receive(t, sub); e.MessageID != 42 || !sub.InOrder(e) {
		t.Errorf("after the relay timed out, the local listener got %+v, want message 42 in order", e)
	}
}

func TestBatchesRoundTrip(t *testing.T) {
	var many []Event
	for i := 0; i < 500; i++ {
		many = append(many, Event{AccountID: 1, Kind: ContactUpdated, ContactID: i})
	}
	batches := encodeBatches(many)
	if len(batches) < 2 {
		t.Fatalf("500 events in %d payload(s): want them split under %d bytes", len(batches), maxPayload)
	}
	next := 0
	for _, b := range batches {
		if len(b.payload) > maxPayload {
			t.Errorf("payload of %d bytes", len(b.payload))
		}
		got, err := decodeBatch(b.payload)
		if err != nil || len(got) != len(b.events) {
			t.Fatalf("decoding a batch: %v (%d events, want %d)", err, len(got), len(b.events))
		}
		for _, e := range got {
			if e.ContactID != next {
				t.Fatalf("event %d came as %d", next, e.ContactID)
			}
			next++
		}
	}
	// An instance from before batching sends one event per notification.
	one, err := decodeBatch(`{"AccountID":4,"Kind":"message_created","MessageID":9}`)
	if err != nil || len(one) != 1 || one[0].MessageID != 9 || one[0].Kind != MessageCreated {
		t.Errorf("a single-event payload decoded as %+v, %v", one, err)
	}
	if _, err := decodeBatch(`[{"AccountID":`); err == nil {
		t.Error("a truncated payload decoded without error")
	}
}

// TestRelayTakesAnInstallationEventOncePerBatch: the same "forget" from
// one origin, queued many times among account events, travels once in
// the batch; each account event, and another origin's, kind's or
// account's announcement, still travels, in order, and comes out of its
// payload whole.
func TestRelayTakesAnInstallationEventOncePerBatch(t *testing.T) {
	forget := Event{AccountID: Installation, Kind: KindConversationsChanged, Origin: "a"}
	other := Event{AccountID: Installation, Kind: KindConversationsChanged, Origin: "b"}
	inboxes := Event{AccountID: Installation, Kind: KindInboxesChanged, Origin: "a"}
	forgetOne := Event{AccountID: Installation, Kind: KindConversationsChanged, Origin: "a", Scope: 5}
	msg := func(id int) Event { return Event{AccountID: 3, Kind: MessageCreated, MessageID: id} }
	queued := []Event{msg(1), forget, msg(2), forget, other, inboxes, forgetOne, forget, msg(3), other, forgetOne}
	r := &relay{queue: make(chan Event, len(queued))}
	for _, e := range queued[1:] {
		r.queue <- e
	}
	got := r.collect(context.Background(), queued[0])
	want := []Event{msg(1), forget, msg(2), other, inboxes, forgetOne, msg(3)}
	if !slices.Equal(got, want) {
		t.Errorf("batch:\n got %+v\nwant %+v", got, want)
	}
	// The account a "forget" concerns travels with it.
	for _, b := range encodeBatches(got) {
		decoded, err := decodeBatch(b.payload)
		if err != nil || !slices.Equal(decoded, b.events) {
			t.Errorf("a batch came back as %+v (%v), want %+v", decoded, err, b.events)
		}
	}
}
