package conversations

import (
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/contacts"
)

// TestFirstMessagesQueue: the first to arrive leads; a batch is the
// leader's message and the others to its inbox, one per sender, the same
// senders' other messages following it; the turn then goes to the first
// message left, or to nobody.
func TestFirstMessagesQueue(t *testing.T) {
	inboxA, inboxB := &ent.Inbox{ID: 1}, &ent.Inbox{ID: 2}
	msg := func(ib *ent.Inbox, sender string) *firstMessage {
		return &firstMessage{in: Inbound{Inbox: ib, From: contacts.Sender{SourceID: sender}},
			done: make(chan struct{}), lead: make(chan struct{})}
	}
	var q firstMessages
	lead := msg(inboxA, "ann")
	if !q.enqueue(lead) {
		t.Fatal("the first message does not lead")
	}
	others := []*firstMessage{msg(inboxA, "bea"), msg(inboxB, "cat"), msg(inboxA, "ann"), msg(inboxA, "dan"), msg(inboxB, "eve")}
	for _, it := range others {
		if q.enqueue(it) {
			t.Fatalf("%s leads beside a leader", it.in.From.SourceID)
		}
	}
	batch, followers := q.take()
	if got := senders(batch); got != "ann bea dan" {
		t.Errorf("batch %q, want the leader's inbox, one message a sender: \"ann bea dan\"", got)
	}
	if got := senders(followers); got != "ann" {
		t.Errorf("followers %q, want ann's second message", got)
	}
	q.handOff()
	select {
	case <-others[0].lead:
		t.Error("the turn went to a message already taken")
	case <-others[1].lead: // cat's, the first left
	default:
		t.Fatal("nobody was handed the turn while messages wait")
	}
	batch, followers = q.take()
	if got := senders(batch); got != "cat eve" || len(followers) != 0 {
		t.Errorf("second batch %q (followers %d), want \"cat eve\"", got, len(followers))
	}
	q.handOff()
	if q.leading || len(q.pending) != 0 {
		t.Errorf("nobody waits, yet leading %v with %d pending", q.leading, len(q.pending))
	}
	if !q.enqueue(msg(inboxA, "fay")) {
		t.Error("a message arriving to an empty queue does not lead")
	}
}

func TestFirstMessagesBatchIsBounded(t *testing.T) {
	var q firstMessages
	for i := range maxFirstBatch + 3 {
		q.enqueue(&firstMessage{in: Inbound{Inbox: &ent.Inbox{ID: 1}, From: contacts.Sender{SourceID: string(rune('a' + i))}}})
	}
	batch, _ := q.take()
	if len(batch) != maxFirstBatch || len(q.pending) != 3 {
		t.Errorf("a batch of %d with %d left, want %d with 3", len(batch), len(q.pending), maxFirstBatch)
	}
}

func senders(its []*firstMessage) string {
	out := ""
	for i, it := range its {
		if i > 0 {
			out += " "
		}
		out += it.in.From.SourceID
	}
	return out
}
