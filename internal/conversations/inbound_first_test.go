package conversations_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/stmtcount"
	"github.com/switchboard/switchboard/internal/testdb"
)

// firstPost is a message a test posts at once with others.
type firstPost struct {
	id, sender string
}

// TestFirstMessagesStoredTogether: first messages that arrive while a
// batch is being stored wait, then are stored together — the new senders'
// contacts, conversations and messages, each with its events — while
// those whose senders are known after all go the single way: a contact
// known by phone is given the contact inbox, a returning customer whose
// conversation was resolved a new conversation, and a new sender's second
// message joins the conversation its first started.
func TestFirstMessagesStoredTogether(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newInbound(t, e, false)
		sys := core.AsBackgroundWork(context.Background())
		web, err := f.svc.CreateInbox(f.admin, inboxes.InboxInput{Name: ptr("Web"), Channel: &inboxes.ChannelInput{Type: "api"}})
		if err != nil {
			t.Fatal(err)
		}
		// Kim is known by her number, from another inbox.
		kim, err := f.svc.CreateContact(f.admin, contacts.ContactInput{InboxID: &web.ID, Name: ptr("Kim"), PhoneNumber: ptr("+4917600000090")})
		if err != nil {
			t.Fatal(err)
		}
		back := f.receiveFrom(t, "wamid.back-1", "4917600000091")
		resolved := f.svc.DB.Conversation.GetX(sys, back.ConversationID)
		if _, err := f.svc.ToggleStatus(f.admin, resolved.DisplayID, ptr("resolved"), nil); err != nil {
			t.Fatal(err)
		}
		apitest.Settle(t, f.hub, f.inbox.AccountID)

		posts := []firstPost{{"wamid.kim", "4917600000090"}, {"wamid.back-2", "4917600000091"},
			{"wamid.twice-1", "4917600000092"}, {"wamid.twice-2", "4917600000092"}}
		for i := range 6 {
			posts = append(posts, firstPost{fmt.Sprintf("wamid.new-%d", i), fmt.Sprintf("49176000001%02d", i)})
		}
		heard := apitest.Listen(t, f.hub, f.inbox.AccountID)
		f.receiveTogether(t, posts)

		got := map[events.Kind]int{}
		for _, k := range heard.Heard(t) {
			got[k]++
		}
		// Seven new contacts (six, and the one writing twice); nine new
		// conversations (theirs, Kim's and the returning customer's).
		want := map[events.Kind]int{events.ContactCreated: 7, events.ConversationCreated: 9, events.MessageCreated: len(posts)}
		for k, n := range want {
			if got[k] != n {
				t.Errorf("%d %s events, want %d (heard %v)", got[k], k, n, got)
			}
		}
		if n := f.svc.DB.Contact.Query().CountX(sys); n != 9 {
			t.Errorf("%d contacts, want 9: Kim, the returning customer and seven new", n)
		}
		byID := map[string]*ent.Message{}
		for _, m := range f.svc.DB.Message.Query().Where(message.InboxID(f.inbox.ID)).WithConversation().AllX(sys) {
			if m.SourceID != nil {
				byID[*m.SourceID] = m
			}
		}
		if len(byID) != len(posts)+1 {
			t.Fatalf("%d messages stored, want %d", len(byID), len(posts)+1)
		}
		if cv := byID["wamid.kim"].Edges.Conversation; cv.ContactID != kim.Contact.ID {
			t.Errorf("Kim's message went to contact %d's conversation, want Kim's (%d)", cv.ContactID, kim.Contact.ID)
		}
		if ok := f.svc.DB.ContactInbox.Query().Where(contactinbox.ContactID(kim.Contact.ID), contactinbox.SourceID("4917600000090")).ExistX(sys); !ok {
			t.Error("Kim was not given a contact inbox for her number")
		}
		if cv := byID["wamid.back-2"].Edges.Conversation; cv.ID == back.ConversationID || cv.Status != conversation.StatusOpen || cv.ContactID != resolved.ContactID {
			t.Errorf("the returning customer's message went to conversation %d (%s, contact %d), want a new open one of contact %d",
				cv.ID, cv.Status, cv.ContactID, resolved.ContactID)
		}
		if a, b := byID["wamid.twice-1"], byID["wamid.twice-2"]; a.ConversationID != b.ConversationID {
			t.Errorf("one new sender's two messages went to conversations %d and %d, want one", a.ConversationID, b.ConversationID)
		}
		displayIDs := map[int]bool{}
		for i := range 6 {
			m := byID[fmt.Sprintf("wamid.new-%d", i)]
			cv := m.Edges.Conversation
			if cv.LastIncomingAt == nil || cv.Status != conversation.StatusOpen {
				t.Errorf("new sender %d's conversation: status %s, last_incoming_at %v; want open, set", i, cv.Status, cv.LastIncomingAt)
			}
			if displayIDs[cv.DisplayID] {
				t.Errorf("display id %d given twice", cv.DisplayID)
			}
			displayIDs[cv.DisplayID] = true
		}
	})
}

// maxStatementsSixFirsts bounds the statements of six new senders' first
// messages stored together: each message's redelivery check and search for
// its sender's conversation, then, for all, the contact inboxes and the
// contacts looked up, the contacts, contact inboxes, conversations and
// messages inserted, the account's webhooks read and the six display ids
// taken (an UPDATE and a read of the account row; the server takes them
// before the transaction on PostgreSQL). One at a time they cost ten each.
const maxStatementsSixFirsts = 2*6 + 9

// TestFirstMessagesStoredSetBased: new senders' first messages stored
// together cost a fixed few statements, not a few each.
func TestFirstMessagesStoredSetBased(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		raw := e.New(t)
		n := &atomic.Int64{}
		f := newInboundOn(t, stmtcount.Counted(raw, n, false).Client, false)
		var posts []firstPost
		for i := range 6 {
			posts = append(posts, firstPost{fmt.Sprintf("wamid.new-%d", i), fmt.Sprintf("49176000002%02d", i)})
		}
		before := n.Load()
		f.receiveTogether(t, posts)
		if d := n.Load() - before; d > maxStatementsSixFirsts {
			t.Errorf("six first messages stored together took %d statements, want at most %d", d, maxStatementsSixFirsts)
		} else {
			t.Logf("%s: six first messages stored together take %d statements", e.Name, d)
		}
		if got := f.svc.DB.Message.Query().CountX(core.AsBackgroundWork(context.Background())); got != len(posts) {
			t.Errorf("%d messages stored, want %d", got, len(posts))
		}
	})
}

// receiveTogether posts every one of posts at once, held until all wait
// for a batch, so that they are stored together as far as they can be.
func (f inboundFixture) receiveTogether(t *testing.T, posts []firstPost) {
	t.Helper()
	letGo := f.svc.HoldFirstMessages()
	errs := make(chan error, len(posts))
	for _, p := range posts {
		go func() { _, _, err := f.svc.Receive(context.Background(), f.inbound(p)); errs <- err }()
	}
	waitFor(t, "every post waiting to be stored", func() bool { return f.svc.WaitingFirstMessages() == len(posts) })
	letGo()
	for range posts {
		if err := <-errs; err != nil {
			t.Errorf("a post was refused: %v", err)
		}
	}
}

// inbound is p as a text message.
func (f inboundFixture) inbound(p firstPost) conversations.Inbound {
	return conversations.Inbound{Inbox: f.inbox, SourceID: p.id, Content: "hello",
		From: contacts.Sender{SourceID: p.sender, Name: "Customer " + p.sender, Phone: "+" + p.sender}}
}

// waitFor polls cond until it holds, failing after 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
