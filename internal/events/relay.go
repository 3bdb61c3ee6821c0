package events

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"
)

// A relay carries events between the instances on one database. Publishing
// is off the commit path: Publish only queues the event, and one goroutine
// sends the queue in batches, each bounded by a timeout, so a slow or stuck
// database never holds up the request that committed the change.
type relay struct {
	hub     *Hub
	queue   chan Event
	send    func(ctx context.Context, payload string) error
	timeout time.Duration
}

const (
	// relayQueue bounds the events waiting to be sent; past it, events are
	// delivered on this instance only (and logged) rather than wait.
	relayQueue = 4096
	// maxPayload keeps a batch under PostgreSQL's 8,000-byte NOTIFY limit.
	maxPayload = 7000
	// relayTimeout bounds one send.
	relayTimeout = 2 * time.Second
	// relayLinger is how long a batch waits for more events after its
	// first. Under a stream of writes (a burst of webhook posts, one to
	// three events each) the relay sent a NOTIFY for every few events, 810
	// for a burst of 1,000 posts and its replay; each is a round trip on a
	// pooled connection and a wake-up of every listening backend. Live
	// listeners hear of a change this much later.
	relayLinger = 5 * time.Millisecond
)

// startRelay makes hub publish through send until ctx ends. send must bring
// each payload back to every instance (decodeBatch, then Deliver).
func startRelay(ctx context.Context, hub *Hub, send func(ctx context.Context, payload string) error, timeout time.Duration) {
	r := &relay{hub: hub, queue: make(chan Event, relayQueue), send: send, timeout: timeout}
	hub.setRelay(r)
	go r.run(ctx)
}

// enqueue queues e, reporting false when the queue is full.
func (r *relay) enqueue(e Event) bool {
	select {
	case r.queue <- e:
		return true
	default:
		slog.Warn("event relay queue full; delivering here only", "kind", e.Kind)
		return false
	}
}

func (r *relay) run(ctx context.Context) {
	defer r.hub.setRelay(nil)
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-r.queue:
			r.flush(ctx, r.collect(ctx, e))
		}
	}
}

// collect takes first and whatever else is queued within relayLinger: a
// burst of changes travels in a few notifications instead of one each. An
// installation event already in the batch is not taken twice: it only says
// "forget", and the batch goes after every change it stands for (a burst
// of posts announces a change of the conversation pages each).
func (r *relay) collect(ctx context.Context, first Event) []Event {
	batch := []Event{first}
	announced := map[Event]bool{first: first.AccountID == Installation}
	linger := time.NewTimer(relayLinger)
	defer linger.Stop()
	for len(batch) < relayQueue {
		select {
		case e := <-r.queue:
			if e.AccountID == Installation {
				if announced[e] {
					continue
				}
				announced[e] = true
			}
			batch = append(batch, e)
		case <-linger.C:
			return batch
		case <-ctx.Done():
			return batch
		}
	}
	return batch
}

// flush sends batch in payloads under maxPayload. What cannot be sent is
// delivered here, so this instance's listeners still see it.
func (r *relay) flush(ctx context.Context, batch []Event) {
	for _, part := range encodeBatches(batch) {
		sendCtx, cancel := context.WithTimeout(ctx, r.timeout)
		err := r.send(sendCtx, part.payload)
		cancel()
		if err != nil {
			slog.Warn("relaying events to other instances failed; delivering them here only", "events", len(part.events), "err", err)
			for _, e := range part.events {
				r.hub.Deliver(e)
			}
		}
	}
}

type encodedBatch struct {
	events  []Event
	payload string
}

// encodeBatches packs events into JSON arrays of at most maxPayload bytes
// (an event too large alone still goes alone).
func encodeBatches(events []Event) []encodedBatch {
	var out []encodedBatch
	var cur encodedBatch
	var raw []json.RawMessage
	size := 2
	for _, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			continue // an Event always marshals
		}
		if len(raw) > 0 && size+len(b)+1 > maxPayload {
			out = append(out, finish(cur, raw))
			cur, raw, size = encodedBatch{}, nil, 2
		}
		cur.events = append(cur.events, e)
		raw = append(raw, b)
		size += len(b) + 1
	}
	if len(raw) > 0 {
		out = append(out, finish(cur, raw))
	}
	return out
}

func finish(b encodedBatch, raw []json.RawMessage) encodedBatch {
	payload, _ := json.Marshal(raw)
	b.payload = string(payload)
	return b
}

// decodeBatch reads a payload: a JSON array of events, or one event (as
// instances before batching sent them).
func decodeBatch(payload string) ([]Event, error) {
	if len(payload) > 0 && payload[0] == '{' {
		var e Event
		err := json.Unmarshal([]byte(payload), &e)
		return []Event{e}, err
	}
	var es []Event
	err := json.Unmarshal([]byte(payload), &es)
	return es, err
}
