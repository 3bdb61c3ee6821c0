package conversations

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apperr"
)

// TestInboundTurns: inbound messages are stored inboundSlots at a time; one
// more waits for a turn (given back by release), gives up with a 503 when
// its request ends first, and never waits inside a caller's transaction.
func TestInboundTurns(t *testing.T) {
	if inboundSlots() < 4 {
		t.Fatalf("inboundSlots() = %d, want at least 4", inboundSlots())
	}
	s := &Service{inbound: make(chan struct{}, 2)}
	var turns []*inboundTurn
	for range 2 {
		turn, err := s.admitInbound(context.Background())
		if err != nil {
			t.Fatalf("a free turn: %v", err)
		}
		turns = append(turns, turn)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := s.admitInbound(ctx)
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.KindUnavailable || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting past the request's end: %v, want an unavailable error", err)
	}

	inTx := ent.NewTxContext(context.Background(), &ent.Tx{})
	turn, err := s.admitInbound(inTx)
	if err != nil {
		t.Fatalf("inside a transaction: %v", err)
	}
	turn.release()
	if len(s.inbound) != 2 {
		t.Fatalf("a turn inside a transaction took a slot: %d taken", len(s.inbound))
	}

	admitted := make(chan error, 1)
	go func() {
		turn, err := s.admitInbound(context.Background())
		if err == nil {
			defer turn.release()
		}
		admitted <- err
	}()
	select {
	case err := <-admitted:
		t.Fatalf("a third message was admitted beside two (%v)", err)
	case <-time.After(20 * time.Millisecond): // it waits: nothing to wait for
	}
	turns[0].release()
	select {
	case err := <-admitted:
		if err != nil {
			t.Fatalf("the waiting message after a release: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting message was not admitted after a release")
	}
	turns[1].release()
}
