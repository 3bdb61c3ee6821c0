// Package events fans domain events out to live listeners (GraphQL
// subscriptions, the console) in this process. Events are published after
// the transaction that made them commits, never inside it.
package events

import (
	"log/slog"
	"strings"
	"sync"
)

// Event says what changed, in which account.
type Event struct {
	AccountID int
	Kind      string // "message_created", ...
	// ConversationID and MessageID are database ids.
	ConversationID int
	MessageID      int
	// ScheduleID is a scheduled message's id.
	ScheduleID int
	// InboxID is the inbox of the row the event is about, where the row may
	// be gone (a deleted schedule), so that a listener can apply the inbox
	// rule without it.
	InboxID int
	// FunnelID and KanbanItemID name the card of a kanban_item.* event (the
	// funnel it is in after the change), so a board viewer can pick its own.
	FunnelID     int
	KanbanItemID int
	// Origin names the process that published an installation event, so
	// that it can tell its own echo from another instance's news.
	Origin string `json:",omitempty"`
}

// OnBoard reports whether e is a change of a card on the board of funnelID.
func (e Event) OnBoard(funnelID int) bool {
	return strings.HasPrefix(e.Kind, "kanban_item.") && e.FunnelID == funnelID
}

// subscriberBuffer is how many events a slow listener may lag behind
// before it misses some (it refetches on its next look, like a reconnect).
const subscriberBuffer = 64

// Hub is an in-process publish/subscribe of events by account.
type Hub struct {
	mu    sync.Mutex
	subs  map[int]map[chan Event]struct{}
	funcs map[int]map[*func(Event)]struct{} // Listen's callbacks
	relay func(Event) error
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[int]map[chan Event]struct{}{}} }

// Subscribe listens to an account's events until cancel is called.
func (h *Hub) Subscribe(accountID int) (events <-chan Event, cancel func()) {
	ch := make(chan Event, subscriberBuffer)
	h.mu.Lock()
	if h.subs[accountID] == nil {
		h.subs[accountID] = map[chan Event]struct{}{}
	}
	h.subs[accountID][ch] = struct{}{}
	h.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.subs[accountID], ch)
			h.mu.Unlock()
			close(ch)
		})
	}
}

// Publish hands e to every listener of its account without waiting: a
// listener whose buffer is full misses it rather than stall the publisher.
// With a relay (several instances on one PostgreSQL database) the event goes
// through it and comes back to every instance, this one included.
func (h *Hub) Publish(e Event) {
	h.mu.Lock()
	relay := h.relay
	h.mu.Unlock()
	if relay != nil {
		err := relay(e)
		if err == nil {
			return
		}
		slog.Warn("relaying an event to other instances failed; delivering it here only", "kind", e.Kind, "err", err)
	}
	h.Deliver(e)
}

// Deliver hands e to this instance's listeners.
func (h *Hub) Deliver(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[e.AccountID] {
		select {
		case ch <- e:
		default:
		}
	}
	for f := range h.funcs[e.AccountID] {
		(*f)(e)
	}
}

// SetRelay makes Publish send events through relay, which must bring each
// back to Deliver on every instance.
func (h *Hub) SetRelay(relay func(Event) error) {
	h.mu.Lock()
	h.relay = relay
	h.mu.Unlock()
}
