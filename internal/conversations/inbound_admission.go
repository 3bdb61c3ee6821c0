package conversations

import (
	"context"
	"runtime"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
)

// Customers' messages are stored a few at a time per instance, the others
// waiting their turn in arrival order (a channel's waiting senders are
// served first come, first served). Stored all at once, a burst of channel
// webhooks (Meta posts a dozen at a time) ran a dozen transactions side by
// side on the database and the CPU, each round trip waiting behind the
// others', and the heaviest posts, a new customer's first message (contact,
// contact inbox, conversation and message), took longest: 45 ms at the
// median and 80-120 ms at the 99th percentile against 19 and 52 ms for a
// known customer's. In turn, each post waits about the same and the
// throughput stays that of the database (docs/performance.md).

// inboundSlots is how many inbound messages an instance stores at once:
// twice the cores Go runs on, at least four.
func inboundSlots() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

// inboundTurn is a turn to store an inbound message, held or not.
type inboundTurn struct {
	s    *Service
	held bool
}

// admitInbound waits for a turn to store an inbound message. Inside a
// caller's transaction it does not wait: that transaction may hold locks
// the messages in turn wait on.
func (s *Service) admitInbound(ctx context.Context) (*inboundTurn, error) {
	t := &inboundTurn{s: s}
	if ent.TxFromContext(ctx) != nil {
		return t, nil
	}
	return t, t.take(ctx)
}

// take waits for the turn.
func (t *inboundTurn) take(ctx context.Context) error {
	select {
	case t.s.inbound <- struct{}{}:
		t.held = true
		return nil
	case <-ctx.Done():
		// The request gave up waiting (its sender hung up): the channel
		// posts it again.
		return &apperr.Error{Kind: apperr.KindUnavailable, Err: ctx.Err(),
			Message: "The message was not stored: the request ended while it waited its turn. Retry later."}
	}
}

// release gives the turn back, if held.
func (t *inboundTurn) release() {
	if t.held {
		t.held = false
		<-t.s.inbound
	}
}
