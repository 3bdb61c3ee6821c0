package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestInboxVisibilityOfFiles: a scheduled message's file and a message's
// file are reachable only by those who see their inbox (the attachment
// policy); an agent outside the inbox gets 404, as for the conversation.
func TestInboxVisibilityOfFiles(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("Support")
		memberID, member := a.agent(a.Account)
		_, outsider := a.agent(a.Account)
		a.addInboxMembers(ib, memberID)
		ct, _ := a.contact(ib, H{"name": "Ann"})
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
		at := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		sched := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: fields(
			"inbox_id", itoa(ib), "contact_id", itoa(ct), "content", "later", "scheduled_at", at,
		).file("attachments[]", "plan.txt", "text/plain", []byte("the plan"))}, http.StatusOK)
		schedFile := sched.int(t, "attachments.0.id")
		msg := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: fields(
			"content", "see attached",
		).file("attachments[]", "notes.txt", "text/plain", []byte("notes"))}, http.StatusOK)
		msgFile := msg.int(t, "attachments.0.id")
		download := func(id int) request { return request{method: "GET", path: a.path("/attachments/%d", id)} }

		a.run(t, []scenario{
			status("the administrator downloads the schedule's file", download(schedFile), http.StatusOK),
			status("an agent of the inbox downloads the schedule's file", as(member, download(schedFile)), http.StatusOK),
			status("an agent outside the inbox does not find the schedule's file", as(outsider, download(schedFile)), http.StatusNotFound),
			status("an agent of the inbox downloads the message's file", as(member, download(msgFile)), http.StatusOK),
			status("an agent outside the inbox does not find the message's file", as(outsider, download(msgFile)), http.StatusNotFound),
			status("an agent outside the inbox does not find the conversation", as(outsider,
				request{method: "GET", path: a.path("/conversations/%d", conv)}), http.StatusNotFound),
			status("nor its schedules", as(outsider, request{method: "GET", path: a.path("/conversations/%d/scheduled_messages", conv)}),
				http.StatusNotFound),
		})
	})
}

// TestIncomingMessagesOnAPIInboxesOnly: the rule holds for every way a
// message is made, including a conversation created with its first message.
func TestIncomingMessagesOnAPIInboxesOnly(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		wa := a.inbox("WhatsApp", whatsappChannel("+15550001111"))
		api := a.apiInbox("API")
		ct, _ := a.contact(wa, H{"name": "Ann", "phone_number": "+15550002222"})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/contact_inboxes", ct), body: H{"inbox_id": api}}, http.StatusOK)
		waConv := a.startConversation(a.Account, a.Admin, H{"inbox_id": wa, "contact_id": ct})
		incoming := H{"content": "hi", "message_type": "incoming"}
		a.run(t, []scenario{
			invalid("a conversation on WhatsApp with an incoming first message is 422",
				request{method: "POST", path: a.path("/conversations"), body: H{"inbox_id": wa, "contact_id": ct, "message": incoming}},
				"message_type"),
			invalid("an incoming message on WhatsApp is 422",
				request{method: "POST", path: a.path("/conversations/%d/messages", waConv), body: incoming}, "message_type"),
			{
				name:       "a conversation on an API inbox with an incoming first message is created, sent by the Contact (Chatwoot's class name)",
				request:    request{method: "POST", path: a.path("/conversations"), body: H{"inbox_id": api, "contact_id": ct, "message": incoming}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"messages.0.sender_type": "Contact", "messages.0.sender_id": ct},
			},
		})
		r := a.mustDo(request{method: "GET", path: a.path("/conversations?inbox_id=%d", wa)}, http.StatusOK)
		if n := len(r.JSON.(map[string]any)["data"].(map[string]any)["payload"].([]any)); n != 1 {
			t.Errorf("the refused conversation was stored: %d conversations on the WhatsApp inbox, want 1", n)
		}
	})
}

// TestCardWebhookCarriesTheConversationWhoeverMoves: an agent outside the
// conversation's inbox works the card without seeing the conversation, but
// the account's webhook still receives the whole card.
func TestCardWebhookCarriesTheConversationWhoeverMoves(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("Support")
		_, outsider := a.agent(a.Account)
		ct, _ := a.contact(ib, H{"name": "Ann"})
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
		a.mustDo(request{method: "POST", path: a.path("/webhooks"), body: H{"url": "https://hooks.example.com/k",
			"subscriptions": []string{"kanban_item.moved"}}}, http.StatusOK)
		funnel := a.mustDo(request{method: "POST", path: a.path("/funnels"), body: H{"name": "Deals",
			"stages": []H{{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}}}, http.StatusOK).int(t, "id")
		card := a.mustDo(request{method: "POST", path: a.path("/kanban_items"), body: H{"funnel_id": funnel,
			"funnel_stage": "new", "item_details": H{"title": "Deal"}, "conversation_display_id": conv}}, http.StatusOK).int(t, "id")
		a.run(t, []scenario{{
			name:       "the agent moves the card and sees no conversation on it",
			request:    as(outsider, request{method: "POST", path: a.path("/kanban_items/%d/move_to_stage", card), body: H{"funnel_stage": "won"}}),
			wantStatus: http.StatusOK,
			want:       map[string]any{"conversation": nil, "conversation_display_id": nil},
		}})
		ds, err := a.srv.DB.Client.WebhookDelivery.Query().Where(webhookdelivery.Event("kanban_item.moved")).All(sys())
		if err != nil || len(ds) != 1 {
			t.Fatalf("want one kanban_item.moved delivery, got %d (%v)", len(ds), err)
		}
		if want := fmt.Sprintf(`"conversation_display_id":%d`, conv); !strings.Contains(ds[0].Payload, want) {
			t.Errorf("the webhook payload lacks the card's conversation (%s): %s", want, ds[0].Payload)
		}
	})
}

// TestAgentMergeMovesTheWholeContact: an agent merges two contacts; the
// mergee's conversations in inboxes the agent does not work in, and
// schedules others wrote, move to the base contact too (the merge acts past
// the inbox and author rules, as a named bypass), rather than being left on a
// deleted contact.
func TestAgentMergeMovesTheWholeContact(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		mine, theirs := a.apiInbox("Mine"), a.apiInbox("Theirs")
		agentID, agent := a.agent(a.Account)
		a.addInboxMembers(mine, agentID)
		base, _ := a.contact(mine, H{"name": "Ann"})
		mergee, _ := a.contact(mine, H{"name": "Ann (duplicate)"})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/contact_inboxes", mergee), body: H{"inbox_id": theirs}}, http.StatusOK)
		elsewhere := a.startConversation(a.Account, a.Admin, H{"inbox_id": theirs, "contact_id": mergee})
		at := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		sched := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{"inbox_id": mine,
			"contact_id": mergee, "content": "from the administrator", "scheduled_at": at}}, http.StatusOK).int(t, "id")
		a.run(t, []scenario{
			{name: "the agent merges", request: as(agent, request{method: "POST", path: a.path("/actions/contact_merge"),
				body: H{"base_contact_id": base, "mergee_contact_id": mergee}}), wantStatus: http.StatusOK},
			{name: "the conversation in the other inbox belongs to the base contact",
				request:    request{method: "GET", path: a.path("/conversations/%d", elsewhere)},
				wantStatus: http.StatusOK, want: map[string]any{"meta.sender.id": base}},
			{name: "so does the administrator's schedule",
				request:    request{method: "GET", path: a.path("/scheduled_messages/%d", sched)},
				wantStatus: http.StatusOK, want: map[string]any{"contact_id": base}},
		})
	})
}

// TestNotesOfFormerMembersKeepNoProfile: a note's author who has left the
// account is read as the viewer reads users (no system bypass): the note
// keeps author_id, without the profile (name, e-mail) of someone who is no
// longer one of the account's users.
func TestNotesOfFormerMembersKeepNoProfile(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		funnel := a.mustDo(request{method: "POST", path: a.path("/funnels"), body: H{"name": "Deals",
			"stages": []H{{"name": "New", "slug": "new"}}}}, http.StatusOK).int(t, "id")
		card := a.mustDo(request{method: "POST", path: a.path("/kanban_items"), body: H{"funnel_id": funnel,
			"funnel_stage": "new", "item_details": H{"title": "Deal"}}}, http.StatusOK).int(t, "id")
		a.mustDo(as(agent, request{method: "POST", path: a.path("/kanban_items/%d/create_note", card),
			body: H{"content": "Called them"}}), http.StatusOK)
		notes := request{method: "GET", path: a.path("/kanban_items/%d/get_notes", card)}
		a.run(t, []scenario{
			{name: "a member's note shows its author", request: notes, wantStatus: http.StatusOK,
				want: map[string]any{"notes.0.author_id": agentID, "notes.0.author.id": agentID}},
			status("the agent leaves the account", request{method: "DELETE", path: a.path("/agents/%d", agentID)}, http.StatusOK),
			{name: "the note keeps its author id, without the profile", request: notes, wantStatus: http.StatusOK,
				want: map[string]any{"notes.0.author_id": agentID, "notes.0.author": nil}},
		})
	})
}
