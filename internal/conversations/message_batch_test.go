package conversations_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/account"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/internal/webhooks"
	"github.com/switchboard/switchboard/internal/wire"
)

// AddMessages posts a batch as AddMessage posts each message: the same
// messages, the activity on every conversation (and, for incoming ones, the
// reply window and the contact's activity; an agent's reply or note leaves
// the contact's alone, as Chatwoot does), and for each message a message_created event whose
// webhook body is the committed rows' (read back after the commit), live
// events after the commit only. A refused draft refuses the whole batch.
func TestAddMessagesPostsAsAddMessageDoes(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		f := newInbound(t, e, false)
		c := f.svc.DB
		sys := viewer.SystemContext(context.Background())
		v, _ := viewer.FromContext(f.admin)
		// Written as the system: the API refuses loopback receivers, and
		// nothing is sent here.
		c.WebhookSubscription.Create().SetAccountID(v.AccountID).SetURL("http://127.0.0.1:9/hook").SetSecret("s").
			SetSubscriptions([]string{"message_created"}).SaveX(sys)
		// Two conversations of two senders, and a third message in the first.
		for i, from := range []string{"4915100000001", "4915100000002"} {
			f.receiveFrom(t, fmt.Sprint("wamid.seed-", i), from)
		}
		cvs := c.Conversation.Query().Where(conversation.InboxID(f.inbox.ID)).WithInbox().WithContact().Order(ent.Asc(conversation.FieldID)).AllX(sys)
		before := time.Now().Add(-time.Second)
		drafts := []conversations.MessageDraft{
			{Conversation: cvs[0], Input: conversations.MessageInput{Content: ptr("a reply")}},
			{Conversation: cvs[1], Input: conversations.MessageInput{Content: ptr("an incoming one"), MessageType: "incoming"}},
			{Conversation: cvs[0], Input: conversations.MessageInput{Content: ptr("a note"), Private: true}},
		}
		live := f.hub.Subscribe(v.AccountID)
		defer live.Cancel()

		// As a schedule's firing posts: the account's system, for its author.
		author := core.AsAccountSystem(context.Background(), v.AccountID, v.UserID)
		var ms []*ent.Message
		err := f.svc.InTx(author, func(ctx context.Context, tx *ent.Client) error {
			var err error
			ms, err = f.svc.AddMessages(ctx, tx, drafts)
			return err
		})
		if err != nil || len(ms) != len(drafts) {
			t.Fatalf("AddMessages: %d messages, %v", len(ms), err)
		}
		for i, m := range ms {
			d := drafts[i]
			if m.Content == nil || *m.Content != *d.Input.Content || m.ConversationID != d.Conversation.ID || m.Private != d.Input.Private {
				t.Errorf("message %d: %v in %d (private %v), want %q in %d", i, m.Content, m.ConversationID, m.Private, *d.Input.Content, d.Conversation.ID)
			}
			if (m.NextDeliveryAt != nil) != (d.Input.MessageType == "" && !d.Input.Private) {
				t.Errorf("message %d: next delivery %v, want one for the reply only", i, m.NextDeliveryAt)
			}
			if d.Input.MessageType == "" && (m.SenderID == nil || *m.SenderID != v.UserID) {
				t.Errorf("message %d: sender %v, want the author %d", i, m.SenderID, v.UserID)
			}
		}
		for _, cv := range c.Conversation.Query().Where(conversation.IDIn(cvs[0].ID, cvs[1].ID)).WithContact().AllX(sys) {
			if cv.LastActivityAt.Before(before) {
				t.Errorf("conversation %d: last activity %v, want after %v", cv.ID, cv.LastActivityAt, before)
			}
			was := *cvs[0].Edges.Contact.LastActivityAt
			if cv.ID == cvs[1].ID {
				was = *cvs[1].Edges.Contact.LastActivityAt
			}
			if moved := cv.Edges.Contact.LastActivityAt.After(was); moved != (cv.ID == cvs[1].ID) {
				t.Errorf("conversation %d's contact: last activity %v (was %v), moved %v; want it moved by the incoming message only",
					cv.ID, cv.Edges.Contact.LastActivityAt, was, moved)
			}
			if cv.ID == cvs[1].ID && (cv.LastIncomingAt == nil || cv.LastIncomingAt.Before(before)) {
				t.Errorf("the incoming message's conversation: last incoming %v, want after %v", cv.LastIncomingAt, before)
			}
		}
		for i, m := range ms {
			got := outboxBody(t, c, sys, m.ID)
			want := committedBody(t, c, sys, m.ID)
			if got != want {
				t.Errorf("message %d's webhook body\n got %s\nwant %s", i, got, want)
			}
			select {
			case ev := <-live.Events:
				if ev.Kind != events.MessageCreated || ev.MessageID != m.ID {
					t.Errorf("live event %d: %s of message %d, want message_created of %d", i, ev.Kind, ev.MessageID, m.ID)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("no live event for message %d", i)
			}
		}

		// A draft the reply window refuses (an outgoing WhatsApp message
		// with no template, the window closed) refuses the batch.
		closed := *cvs[0]
		closed.LastIncomingAt = nil
		n := c.Message.Query().CountX(sys)
		err = f.svc.InTx(author, func(ctx context.Context, tx *ent.Client) error {
			_, err := f.svc.AddMessages(ctx, tx, []conversations.MessageDraft{drafts[0],
				{Conversation: &closed, Input: conversations.MessageInput{Content: ptr("outside the window")}}})
			return err
		})
		if err == nil || c.Message.Query().CountX(sys) != n {
			t.Fatalf("a refused draft: err %v and %d messages, want an error and %d", err, c.Message.Query().CountX(sys), n)
		}
	})
}

// outboxBody is the webhook body written for message id's message_created,
// without its occurred_at.
func outboxBody(t *testing.T, c *ent.Client, ctx context.Context, id int) string {
	t.Helper()
	for _, d := range c.WebhookDelivery.Query().Where(webhookdelivery.Event("message_created")).AllX(ctx) {
		var body map[string]any
		if err := json.Unmarshal([]byte(d.Payload), &body); err != nil {
			t.Fatal(err)
		}
		if body["id"] == float64(id) {
			delete(body, "occurred_at")
			raw, _ := json.Marshal(body)
			return string(raw)
		}
	}
	t.Fatalf("no message_created webhook for message %d", id)
	return ""
}

// committedBody is message id's message_created body as its committed rows
// read.
func committedBody(t *testing.T, c *ent.Client, ctx context.Context, id int) string {
	t.Helper()
	m := c.Message.GetX(ctx, id)
	cv := c.Conversation.Query().Where(conversation.ID(m.ConversationID)).WithContact().OnlyX(ctx)
	cv.Edges.Inbox = c.Inbox.Query().Where(inbox.ID(cv.InboxID)).OnlyX(ctx)
	acc := c.Account.Query().Where(account.ID(m.AccountID)).OnlyX(ctx)
	raw, err := webhooks.WebhookBody(events.MessageCreated, func() (map[string]any, error) {
		return wire.MessageEvent(string(events.MessageCreated), m, cv, acc), nil
	}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	_ = json.Unmarshal([]byte(raw), &body)
	delete(body, "occurred_at")
	out, _ := json.Marshal(body)
	return string(out)
}

// receiveFrom stores an incoming message from the WhatsApp number from.
func (f inboundFixture) receiveFrom(t *testing.T, id, from string) *ent.Message {
	t.Helper()
	m, _, err := f.svc.Receive(context.Background(), f.inbound(firstPost{id, from}))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
