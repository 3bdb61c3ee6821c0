package conversations_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/storage"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func ptr[T any](v T) *T { return &v }

// inboundFixture is an account with a WhatsApp inbox, its service and
// hub, and the administrator's context.
type inboundFixture struct {
	svc   *ops.Service
	hub   *events.Hub
	admin context.Context
	inbox *ent.Inbox
}

func newInbound(t *testing.T, e testdb.Engine, lock bool) inboundFixture {
	t.Helper()
	return newInboundOn(t, e.New(t).Client, lock)
}

// newInboundOn is newInbound on the database of client c.
func newInboundOn(t *testing.T, c *ent.Client, lock bool) inboundFixture {
	t.Helper()
	hub := events.NewHub()
	st, err := storage.Open(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	svc := ops.New(c, ops.WithEvents(hub), ops.WithStorage(st))
	b, err := svc.Bootstrap(context.Background(), accounts.BootstrapInput{AccountName: "Acme", Email: "admin@acme.test", Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	admin := viewer.NewContext(context.Background(), viewer.Viewer{UserID: b.UserID, AccountID: b.AccountID, Role: viewer.RoleAdministrator})
	ib, err := svc.CreateInbox(admin, inboxes.InboxInput{Name: ptr("WhatsApp"), LockToSingleConversation: &lock,
		Channel: &inboxes.ChannelInput{Type: "whatsapp", PhoneNumber: ptr("+15550001111"), Provider: ptr("whatsapp_cloud"),
			ProviderConfig: &inboxes.ProviderConfigInput{APIKey: ptr("key"), PhoneNumberID: ptr("1001"), BusinessAccountID: ptr("2002")}}})
	if err != nil {
		t.Fatal(err)
	}
	return inboundFixture{svc: svc, hub: hub, admin: admin, inbox: ib}
}

func (f inboundFixture) receive(t *testing.T, id, text string, files ...core.Upload) (*ent.Message, bool) {
	t.Helper()
	m, dup, err := f.svc.Receive(context.Background(), conversations.Inbound{Inbox: f.inbox, SourceID: id, Content: text, Files: files,
		From: contacts.Sender{SourceID: "4915112345678", Name: "Ann", Phone: "+4915112345678"}})
	if err != nil {
		t.Fatalf("receive %s: %v", id, err)
	}
	return m, dup
}

// An inbound message makes its sender's contact and conversation once,
// tells the listeners as a message made through the API does, stores a
// redelivery once, and opens the reply window.
func TestReceiveStoresEachMessageOnceInTheSendersConversation(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newInbound(t, e, false)
		heard := apitest.Listen(t, f.hub, f.inbox.AccountID)
		first, dup := f.receive(t, "wamid.1", "Hello")
		if dup || first.MessageType != message.MessageTypeIncoming || first.SenderType == nil || *first.SenderType != message.SenderTypeContact {
			t.Fatalf("first message: duplicate %v, type %s, sender %v", dup, first.MessageType, first.SenderType)
		}
		heard.Expect(t, []events.Kind{events.ContactCreated, events.ConversationCreated, events.MessageCreated})
		// A new sender's contact and conversation are made with the
		// message's activity on them, not updated after.
		started, err := f.svc.DB.Conversation.Query().Where(conversation.ID(first.ConversationID)).WithContact().
			Only(core.AsBackgroundWork(context.Background()))
		if err != nil {
			t.Fatal(err)
		}
		if started.LastIncomingAt == nil || started.LastActivityAt.IsZero() || started.Edges.Contact.LastActivityAt == nil {
			t.Errorf("a new sender's first message left last_incoming_at %v, last_activity_at %v, the contact's %v; want all set",
				started.LastIncomingAt, started.LastActivityAt, started.Edges.Contact.LastActivityAt)
		}

		heard = apitest.Listen(t, f.hub, f.inbox.AccountID)
		again, dup := f.receive(t, "wamid.1", "Hello")
		if !dup || again.ID != first.ID {
			t.Errorf("a redelivery stored message %d (duplicate %v), want the first, %d", again.ID, dup, first.ID)
		}
		second, _ := f.receive(t, "wamid.2", "Are you there?")
		heard.Expect(t, []events.Kind{events.MessageCreated})
		if second.ConversationID != first.ConversationID {
			t.Errorf("the second message went to conversation %d, want %d", second.ConversationID, first.ConversationID)
		}
		cv, err := f.svc.DB.Conversation.Get(core.AsBackgroundWork(context.Background()), first.ConversationID)
		if err != nil {
			t.Fatal(err)
		}
		if cv.LastIncomingAt == nil {
			t.Error("an inbound message did not open the reply window (last_incoming_at unset)")
		}
		n, _ := f.svc.DB.Contact.Query().Count(core.AsBackgroundWork(context.Background()))
		if n != 1 {
			t.Errorf("%d contacts, want 1", n)
		}
	})
}

// Which conversation a message continues: the last unresolved one; after it
// is resolved a new one (or, with lock_to_single_conversation, the same one
// reopened).
func TestReceiveFindsTheConversationAsChatwootDoes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		lock       bool
		sameAfter  bool
		wantEvents []events.Kind
	}{
		{"a new conversation after a resolved one", false, false, []events.Kind{events.ConversationCreated, events.MessageCreated}},
		{"locked to a single conversation: reopened", true, true, []events.Kind{events.ConversationStatusChanged, events.MessageCreated}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
				f := newInbound(t, e, tc.lock)
				first, _ := f.receive(t, "wamid.1", "Hello")
				cv, err := f.svc.DB.Conversation.Get(core.AsBackgroundWork(context.Background()), first.ConversationID)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.svc.ToggleStatus(f.admin, cv.DisplayID, ptr("resolved"), nil); err != nil {
					t.Fatal(err)
				}
				heard := apitest.Listen(t, f.hub, f.inbox.AccountID)
				next, _ := f.receive(t, "wamid.2", "One more thing")
				heard.Expect(t, tc.wantEvents)
				if same := next.ConversationID == first.ConversationID; same != tc.sameAfter {
					t.Errorf("same conversation: %v, want %v", same, tc.sameAfter)
				}
				got, err := f.svc.DB.Conversation.Get(core.AsBackgroundWork(context.Background()), next.ConversationID)
				if err != nil || got.Status != conversation.StatusOpen {
					t.Errorf("the message's conversation is %v (%v), want open", got, err)
				}
			})
		})
	}
}

// A file sent with a message is stored and attached before the listeners
// hear of the message: a webhook's message_created carries it.
func TestReceiveAttachesFilesBeforeTellingTheListeners(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newInbound(t, e, false)
		photo := core.Upload{Name: "photo.jpg", ContentType: "image/jpeg", Size: 4,
			Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader([]byte("jpeg"))), nil }}
		m, _ := f.receive(t, "wamid.img", "", photo)
		if len(m.Edges.Attachments) != 1 || m.Edges.Attachments[0].FileType != "image" || m.Content != nil {
			t.Fatalf("attachments %v, content %v: want one image and no text", m.Edges.Attachments, m.Content)
		}
		if _, _, err := f.svc.Receive(context.Background(), conversations.Inbound{Inbox: f.inbox, SourceID: "wamid.empty",
			From: contacts.Sender{SourceID: "4915112345678"}}); err == nil {
			t.Error("a message with neither text nor file was stored")
		}
	})
}

// Receipts move an outgoing message forward only (they arrive out of
// order), record a failure's reason, and ignore messages the inbox does not
// know.
func TestRecordReceiptMovesStatusForwardOnly(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newInbound(t, e, false)
		in, _ := f.receive(t, "wamid.in", "Hello")
		sys := core.AsBackgroundWork(context.Background())
		out := f.svc.DB.Message.Create().SetAccountID(f.inbox.AccountID).SetConversationID(in.ConversationID).SetInboxID(f.inbox.ID).
			SetContent("Hi Ann").SetMessageType(message.MessageTypeOutgoing).SetStatus(message.StatusDelivered).
			SetSourceID("wamid.out").SaveX(sys)
		for _, step := range []struct {
			status message.Status
			reason string
			want   message.Status
		}{
			{message.StatusSent, "", message.StatusDelivered},
			{message.StatusRead, "", message.StatusRead},
			{message.StatusDelivered, "", message.StatusRead},
			{message.StatusFailed, "131047 re-engagement", message.StatusRead},
		} {
			if _, err := f.svc.RecordReceipt(context.Background(), conversations.Receipt{Inbox: f.inbox, SourceID: "wamid.out",
				Status: step.status, Reason: step.reason}); err != nil {
				t.Fatal(err)
			}
			if got := f.svc.DB.Message.GetX(sys, out.ID).Status; got != step.want {
				t.Errorf("after a %s receipt the message is %s, want %s", step.status, got, step.want)
			}
		}
		failing := f.svc.DB.Message.Create().SetAccountID(f.inbox.AccountID).SetConversationID(in.ConversationID).SetInboxID(f.inbox.ID).
			SetContent("Hi again").SetMessageType(message.MessageTypeOutgoing).SetStatus(message.StatusDelivered).
			SetSourceID("wamid.out2").SaveX(sys)
		if _, err := f.svc.RecordReceipt(context.Background(), conversations.Receipt{Inbox: f.inbox, SourceID: "wamid.out2",
			Status: message.StatusFailed, Reason: "131047 re-engagement"}); err != nil {
			t.Fatal(err)
		}
		got := f.svc.DB.Message.GetX(sys, failing.ID)
		if got.Status != message.StatusFailed || got.ContentAttributes["external_error"] != "131047 re-engagement" {
			t.Errorf("a failed receipt left %s with %v", got.Status, got.ContentAttributes)
		}
		if m, err := f.svc.RecordReceipt(context.Background(), conversations.Receipt{Inbox: f.inbox, SourceID: "wamid.unknown",
			Status: message.StatusRead}); m != nil || err != nil {
			t.Errorf("a receipt for an unknown message answered %v, %v; want nothing", m, err)
		}
	})
}

// A channel that answers an id it gave another message before still
// delivers this one: it is recorded delivered without the id (a retry would
// send it to the customer again), and the first keeps it.
func TestMarkDeliveredWithAnIdGivenBefore(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newInbound(t, e, false)
		in, _ := f.receive(t, "wamid.in", "Hello")
		sys := core.AsBackgroundWork(context.Background())
		outgoing := func(text string) *ent.Message {
			return f.svc.DB.Message.Create().SetAccountID(f.inbox.AccountID).SetConversationID(in.ConversationID).
				SetInboxID(f.inbox.ID).SetContent(text).SetMessageType(message.MessageTypeOutgoing).SaveX(sys)
		}
		first, second := outgoing("one"), outgoing("two")
		for _, m := range []*ent.Message{first, second} {
			if err := f.svc.MarkDelivered(context.Background(), m, "wamid.same"); err != nil {
				t.Fatalf("marking %d delivered: %v", m.ID, err)
			}
		}
		a, b := f.svc.DB.Message.GetX(sys, first.ID), f.svc.DB.Message.GetX(sys, second.ID)
		if a.Status != message.StatusDelivered || a.SourceID == nil || *a.SourceID != "wamid.same" {
			t.Errorf("the first message is %s with id %v, want delivered with wamid.same", a.Status, a.SourceID)
		}
		if b.Status != message.StatusDelivered || b.SourceID != nil {
			t.Errorf("the second message is %s with id %v, want delivered without an id", b.Status, b.SourceID)
		}
	})
}

// A new sender's first messages arriving at once (a provider posts them in
// parallel) are all stored, in one contact's one conversation: the one that
// collides with the contact another made meanwhile tries again.
func TestReceiveConcurrentFirstMessagesOfANewSender(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newInbound(t, e, false)
		const n = 8
		errs := make(chan error, n)
		for i := range n {
			go func() {
				_, _, err := f.svc.Receive(context.Background(), conversations.Inbound{Inbox: f.inbox,
					SourceID: fmt.Sprintf("wamid.burst%d", i), Content: fmt.Sprintf("Hello %d", i),
					From: contacts.Sender{SourceID: "4915199999999", Name: "Bea", Phone: "+4915199999999"}})
				errs <- err
			}()
		}
		for range n {
			if err := <-errs; err != nil {
				t.Errorf("a message was refused: %v", err)
			}
		}
		sys := core.AsBackgroundWork(context.Background())
		messages := f.svc.DB.Message.Query().CountX(sys)
		convs := f.svc.DB.Conversation.Query().CountX(sys)
		people := f.svc.DB.Contact.Query().CountX(sys)
		if messages != n || convs != 1 || people != 1 {
			t.Errorf("%d messages in %d conversations of %d contacts, want %d in 1 of 1", messages, convs, people, n)
		}
	})
}
