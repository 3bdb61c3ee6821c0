package conversations_test

import (
	"context"
	"testing"

	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/storage"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestFirstMessagesOfOneSenderOnTwoInstances: two instances store, each in a
// batch at the same moment, first messages of the same new sender beside
// others'. One batch commits; the other collides with it at the new
// contact's unique keys, rolls back, and its messages go the single way:
// one contact and one conversation for the sender, every message stored
// once, none refused.
func TestFirstMessagesOfOneSenderOnTwoInstances(t *testing.T) {
	open := testdb.SharedPostgres(t)
	a := newInboundOn(t, open().Client, false)
	st, err := storage.Open(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	b := a
	b.svc = ops.New(open().Client, ops.WithEvents(events.NewHub()), ops.WithStorage(st))

	const shared = "4917600000300"
	onA := []firstPost{{"wamid.shared-1", shared}, {"wamid.a-1", "4917600000301"}}
	onB := []firstPost{{"wamid.shared-2", shared}, {"wamid.b-1", "4917600000302"}}
	letGoA, letGoB := a.svc.HoldFirstMessages(), b.svc.HoldFirstMessages()
	errs := make(chan error, len(onA)+len(onB))
	for _, side := range []struct {
		f     inboundFixture
		posts []firstPost
	}{{a, onA}, {b, onB}} {
		for _, p := range side.posts {
			go func() { _, _, err := side.f.svc.Receive(context.Background(), side.f.inbound(p)); errs <- err }()
		}
	}
	waitFor(t, "both instances' posts waiting", func() bool {
		return a.svc.WaitingFirstMessages() == len(onA) && b.svc.WaitingFirstMessages() == len(onB)
	})
	letGoA()
	letGoB()
	for range len(onA) + len(onB) {
		if err := <-errs; err != nil {
			t.Errorf("a post was refused: %v", err)
		}
	}

	sys := core.AsBackgroundWork(context.Background())
	c := a.svc.DB
	people := c.Contact.Query().Where(contact.PhoneNumber("+" + shared)).AllX(sys)
	if len(people) != 1 {
		t.Fatalf("%d contacts with the shared sender's number, want 1", len(people))
	}
	if n := c.Conversation.Query().Where(conversation.ContactID(people[0].ID)).CountX(sys); n != 1 {
		t.Errorf("the shared sender has %d conversations, want 1", n)
	}
	if n := c.Message.Query().CountX(sys); n != len(onA)+len(onB) {
		t.Errorf("%d messages stored, want %d", n, len(onA)+len(onB))
	}
	if n := c.Contact.Query().CountX(sys); n != 3 {
		t.Errorf("%d contacts, want 3", n)
	}
}
