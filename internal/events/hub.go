// Package events fans domain events out to live listeners (GraphQL
// subscriptions, the console) in this process. Events are published after
// the transaction that made them commits, never inside it.
//
// Nothing is lost silently: every event a hub delivers carries its account's
// next sequence number, a listener too slow to keep up is dropped (its
// channel closes) rather than skipping events, and a hub that may have
// missed events from other instances skips a number, so a stream that sees
// a gap (Follow) ends too. A listener that ends resyncs: it refetches what it
// shows and subscribes again.
package events

import (
	"sync"
)

// Event says what changed, in which account.
type Event struct {
	AccountID int
	Kind      Kind
	// Seq is the event's number in its account's stream on this instance,
	// from 1 up; set by the hub when it delivers the event.
	Seq uint64 `json:"-"`
	// ConversationID, MessageID and ContactID are database ids.
	ConversationID int
	MessageID      int
	ContactID      int
	// ScheduleID is a scheduled message's id.
	ScheduleID int
	// InboxID is the inbox of the row the event is about, where the row may
	// be gone (a deleted schedule), so that a listener can apply the inbox
	// rule without it.
	InboxID int
	// FunnelID and KanbanItemID name the card of a kanban_item.* event (the
	// funnel it is in after the change), so a board viewer can pick its own;
	// FromFunnelID is the funnel a card moved out of, whose board sees it go.
	FunnelID     int
	FromFunnelID int `json:",omitempty"`
	KanbanItemID int
	// UserID is the agent of a typing event; 0 when the visitor types.
	UserID int `json:",omitempty"`
	// Origin names the process that published an installation event, so
	// that it can tell its own echo from another instance's news.
	Origin string `json:",omitempty"`
	// Scope is the one account an installation event's change concerns
	// (a cache forgets that account's entries only); 0: every account.
	Scope int `json:",omitempty"`
}

// OnBoard reports whether e is a change of a card on the board of funnelID.
func (e Event) OnBoard(funnelID int) bool {
	return e.Kind.IsCard() && (e.FunnelID == funnelID || e.FromFunnelID == funnelID)
}

// ChangesBoard reports whether e changes what the board of funnelID shows:
// one of its cards, or its stages.
func (e Event) ChangesBoard(funnelID int) bool {
	return e.OnBoard(funnelID) || (e.Kind == FunnelStagesChanged && e.FunnelID == funnelID)
}

// SubscriberBuffer is how many events a listener may lag behind before it
// is dropped.
const SubscriberBuffer = 256

// Subscription is one listener of an account's events.
type Subscription struct {
	// Events delivers the account's events; it closes when Cancel is called
	// or when the hub drops the listener for falling behind.
	Events <-chan Event
	ch     chan Event
	once   sync.Once
	cancel func()
	last   uint64 // the sequence number of the last event seen
}

func (s *Subscription) close() { s.once.Do(func() { close(s.ch) }) }

// Cancel ends the subscription and closes Events.
func (s *Subscription) Cancel() { s.cancel() }

// InOrder reports whether e comes right after the events the subscription
// has seen (or was subscribed to after). After a false, events were missed:
// the listener must resync.
func (s *Subscription) InOrder(e Event) bool {
	ok := e.Seq == s.last+1
	s.last = e.Seq
	return ok
}

// Hub is an in-process publish/subscribe of events by account.
type Hub struct {
	mu    sync.Mutex
	subs  map[int]map[*Subscription]struct{}
	funcs map[int]map[*func(Event)]struct{} // Listen's callbacks
	all   map[*func(Event)]struct{}         // ListenAll's callbacks
	seq   map[int]uint64                    // last sequence number per account
	relay *relay
	// dropped counts listeners dropped for being too slow, gaps the times
	// events may have been missed.
	dropped, gaps uint64
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{subs: map[int]map[*Subscription]struct{}{}, seq: map[int]uint64{}}
}

// Subscribe listens to an account's events until Cancel is called or the
// hub drops the listener for falling SubscriberBuffer events behind.
func (h *Hub) Subscribe(accountID int) *Subscription {
	ch := make(chan Event, SubscriberBuffer)
	s := &Subscription{Events: ch, ch: ch}
	s.cancel = func() {
		h.mu.Lock()
		delete(h.subs[accountID], s)
		h.mu.Unlock()
		s.close()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[accountID] == nil {
		h.subs[accountID] = map[*Subscription]struct{}{}
	}
	h.subs[accountID][s] = struct{}{}
	s.last = h.seq[accountID]
	return s
}

// Publish hands e to every listener without waiting. With a relay (several
// instances on one PostgreSQL database) the event is queued for it and comes
// back to every instance, this one included, through Deliver.
func (h *Hub) Publish(e Event) {
	h.mu.Lock()
	r := h.relay
	h.mu.Unlock()
	if r != nil && r.enqueue(e) {
		return
	}
	h.Deliver(e)
}

// Deliver numbers e in its account's stream and hands it to this instance's
// listeners. A listener whose buffer is full is dropped, never skipped past.
func (h *Hub) Deliver(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq[e.AccountID]++
	e.Seq = h.seq[e.AccountID]
	for s := range h.subs[e.AccountID] {
		select {
		case s.ch <- e:
		default:
			delete(h.subs[e.AccountID], s)
			s.close()
			h.dropped++
		}
	}
	for f := range h.funcs[e.AccountID] {
		(*f)(e)
	}
	for f := range h.all {
		(*f)(e)
	}
}

// Gap says that events may have been missed (a relay's listening connection
// was down): the next event of every account skips a number, so every
// subscription sees the gap and its listener resyncs.
func (h *Hub) Gap() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for account := range h.subs {
		if _, ok := h.seq[account]; !ok {
			h.seq[account] = 0 // followed, but nothing delivered yet
		}
	}
	for account := range h.seq {
		h.seq[account]++
	}
	h.gaps++
}

// Listeners is how many subscriptions follow the account's events.
func (h *Hub) Listeners(accountID int) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[accountID])
}

// Dropped is how many listeners the hub has dropped for being too slow.
func (h *Hub) Dropped() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dropped
}

// Gaps is how many times the hub may have missed events (see Gap).
func (h *Hub) Gaps() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gaps
}

// setRelay makes Publish queue events for r (nil: deliver in process).
func (h *Hub) setRelay(r *relay) {
	h.mu.Lock()
	h.relay = r
	h.mu.Unlock()
}
