package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of the conversations the spec uses (spec §1, §4
// Conversations; chatwoot-shapes §4), and of what agents may see of them.

// TestTypicalFlow is spec §1's typical flow, end to end.
func TestTypicalFlow(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		wa := whatsappChannel("+15550001000")
		wa["message_templates"] = []H{{"name": "order_shipped", "language": "pt_BR", "status": "APPROVED", "category": "UTILITY",
			"components": []H{{"type": "BODY", "text": "Olá {{1}}, your order shipped"}}}}
		a.inbox("WhatsApp", wa)
		// Each step takes what an earlier one answered: the bodies hold
		// pointers, marshalled when the request is sent.
		var inboxID, contactID, conv int
		var sourceID string
		a.run(t, []scenario{
			{
				name:       "1. GET /conversations tests the token: 200 with an empty list",
				request:    request{method: "GET", path: a.path("/conversations")},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"data.payload": []any{}, "data.meta.all_count": 0, "data.meta.mine_count": 0,
					"data.meta.assigned_count": 0, "data.meta.unassigned_count": 0,
				},
			},
			status("1. a wrong token is 401", request{method: "GET", path: a.path("/conversations"), token: "wrong"}, http.StatusUnauthorized),
			{
				name:       "2. GET /inboxes gives an inbox id",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.0.name": "WhatsApp", "payload.0.channel_type": "Channel::Whatsapp"},
				check:      func(t *testing.T, r *response) { inboxID = r.int(t, "payload.0.id") },
			},
			{
				name:       "3. POST /contacts with inbox_id gives the contact id and the source_id",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": &inboxID, "name": "Maria", "phone_number": "+5511912345678"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact_inbox.source_id": "+5511912345678"},
				check: func(t *testing.T, r *response) {
					contactID, sourceID = r.int(t, "payload.contact.id"), r.str(t, "payload.contact_inbox.source_id")
				},
			},
			invalid("4. outside the 24-hour window a free-form first message is refused",
				request{method: "POST", path: a.path("/conversations"), body: H{
					"source_id": &sourceID, "inbox_id": &inboxID, "contact_id": &contactID, "status": "open",
					"message": H{"content": "Olá Maria, your order shipped"},
				}}, "template_params"),
			{
				name: "4. POST /conversations with that source_id and a template message creates conversation 1 with the message",
				request: request{method: "POST", path: a.path("/conversations"), body: H{
					"source_id": &sourceID, "inbox_id": &inboxID, "contact_id": &contactID, "status": "open",
					"message": H{"content": "Olá Maria, your order shipped", "template_params": H{
						"name": "order_shipped", "language": "pt_BR", "category": "UTILITY",
						"processed_params": H{"1": "Maria"},
					}},
				}},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": 1, "status": "open", "messages.0.content": "Olá Maria, your order shipped",
					"messages.0.message_type": 1, "meta.sender.name": "Maria", "meta.channel": "Channel::Whatsapp",
					"can_reply": false, // Maria has not written: the 24-hour window is closed
				},
				check: func(t *testing.T, r *response) {
					conv = r.int(t, "id")
					expect(t, r, map[string]any{"inbox_id": inboxID, "meta.sender.id": contactID})
				},
			},
			{
				name:       "the token check now lists it",
				request:    request{method: "GET", path: a.path("/conversations")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"data.meta.all_count": 1, "data.payload.0.id": 1, "data.payload.0.messages.0.content": "Olá Maria, your order shipped"},
			},
		})
		if conv == 0 {
			t.Fatal("no conversation to go on with")
		}
		a.run(t, []scenario{
			{
				name:       "5. further messages go to /conversations/{id}/messages",
				request:    request{method: "GET", path: a.path("/conversations/%d", conv)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": conv, "messages.#": 1, "can_reply": false},
			},
		})
	})
}

func TestConversationCreate(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, agent := a.agent(a.Account)
		ib := a.apiInbox("API")
		other := a.apiInbox("Other")
		alice, aliceSource := a.contact(ib, H{"name": "Alice"})
		bob, bobSource := a.contact(ib, H{"name": "Bob"})
		carol, carolOtherSource := a.contact(other, H{"name": "Carol"})
		accB, adminB := a.otherAccount("Globex")
		ibB := a.inboxIn(accB, adminB, "B", H{"type": "api"})
		dave, daveSource := a.contactIn(accB, adminB, ibB, H{"name": "Dave"})

		create := func(body H) request { return request{method: "POST", path: a.path("/conversations"), body: body} }
		a.run(t, []scenario{
			{
				name: "create with source_id, inbox_id, contact_id, status and message answers the full conversation",
				request: create(H{"source_id": aliceSource, "inbox_id": ib, "contact_id": alice, "status": "open",
					"message": H{"content": "Hello Alice"}}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": 1, "uuid": isUUID, "account_id": a.Account, "inbox_id": ib, "status": "open",
					"labels": []any{}, "meta.sender.id": alice, "meta.channel": "Channel::Api",
					"messages.#": 1, "messages.0.content": "Hello Alice", "messages.0.message_type": 1,
					"messages.0.conversation_id": 1, "messages.0.sender_type": "User", "created_at": isoTime, "last_activity_at": isoTime,
					"additional_attributes": H{}, "custom_attributes": H{},
				},
			},
			{
				name:       "create without source_id, with inbox_id and contact_id, works and takes the next display id",
				request:    create(H{"inbox_id": ib, "contact_id": bob}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 2, "meta.sender.id": bob, "messages": []any{}, "status": "open"},
			},
			{
				name:       "create with inbox_id and contact_id of a contact not yet in that inbox links them",
				request:    create(H{"inbox_id": other, "contact_id": alice}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 3, "inbox_id": other, "meta.sender.id": alice},
			},
			{
				name:       "create with source_id alone finds the contact and inbox",
				request:    create(H{"source_id": bobSource}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 4, "inbox_id": ib, "meta.sender.id": bob},
			},
			{
				name:       "create with status pending keeps it",
				request:    create(H{"source_id": aliceSource, "inbox_id": ib, "contact_id": alice, "status": "pending"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 5, "status": "pending"},
			},
			{
				name:       "create with an assignee and attributes stores them",
				request:    create(H{"inbox_id": ib, "contact_id": bob, "assignee_id": a.AdminID, "additional_attributes": H{"origin": "crm"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 6, "assignee_id": a.AdminID, "additional_attributes": H{"origin": "crm"}},
			},
			invalid("a source_id of another contact is 422 naming source_id",
				create(H{"source_id": bobSource, "inbox_id": ib, "contact_id": alice}), "source_id"),
			invalid("a source_id of another inbox is 422 naming source_id",
				create(H{"source_id": carolOtherSource, "inbox_id": ib, "contact_id": carol}), "source_id"),
			invalid("an unknown source_id is 422 naming source_id",
				create(H{"source_id": "no-such-source", "inbox_id": ib, "contact_id": alice}), "source_id"),
			invalid("another account's source_id is 422 naming source_id",
				create(H{"source_id": daveSource, "inbox_id": ib}), "source_id"),
			invalid("neither source_id nor inbox_id and contact_id is 422 naming inbox_id and contact_id", create(H{}), "inbox_id", "contact_id"),
			invalid("inbox_id without contact_id is 422 naming contact_id", create(H{"inbox_id": ib}), "contact_id"),
			invalid("another account's contact is 422 naming contact_id", create(H{"inbox_id": ib, "contact_id": dave}), "contact_id"),
			invalid("another account's inbox is 422 naming inbox_id", create(H{"inbox_id": ibB, "contact_id": alice}), "inbox_id"),
			invalid("an unknown status is 422 naming status", create(H{"inbox_id": ib, "contact_id": alice, "status": "closed"}), "status"),
			invalid("an assignee outside the account is 422 naming assignee_id", create(H{"inbox_id": ib, "contact_id": alice, "assignee_id": 999999}), "assignee_id"),
			invalid("a message without content is 422 naming content", create(H{"inbox_id": ib, "contact_id": alice, "message": H{"content": " "}}), "content"),
			status("an agent who is not a member of the inbox is 403", as(agent, create(H{"inbox_id": ib, "contact_id": alice})), http.StatusForbidden),
			{
				name:       "nothing was created by the refused requests",
				request:    request{method: "GET", path: a.path("/conversations?status=all")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"data.meta.all_count": 6},
			},
			{
				name:       "the next conversation takes the next display id (refused creates used none)",
				request:    create(H{"inbox_id": other, "contact_id": carol, "message": H{"content": "Hi Carol"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 7, "messages.0.content": "Hi Carol"},
			},
			{
				name:       "the second account's first conversation is also id 1",
				request:    as(adminB, request{method: "POST", path: accountPath(accB, "/conversations"), body: H{"source_id": daveSource, "inbox_id": ibB, "contact_id": dave}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 1, "account_id": accB},
			},
			{
				name:       "and this account's conversation 1 is still Alice's",
				request:    request{method: "GET", path: a.path("/conversations/1")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 1, "meta.sender.id": alice, "messages.0.content": "Hello Alice"},
			},
		})
	})
}

func TestConversationLockToSingle(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		alice, source := a.contact(ib, H{"name": "Alice"})
		create := func(content string) request {
			return request{method: "POST", path: a.path("/conversations"), body: H{
				"source_id": source, "inbox_id": ib, "contact_id": alice, "message": H{"content": content}}}
		}
		a.run(t, []scenario{
			{
				name:       "without the lock, a first conversation",
				request:    create("one"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 1},
			},
			{
				name:       "without the lock, another conversation for the same contact",
				request:    create("two"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 2},
			},
			{
				name:       "PATCH the inbox to lock_to_single_conversation",
				request:    request{method: "PATCH", path: a.path("/inboxes/%d", ib), body: H{"lock_to_single_conversation": true}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"lock_to_single_conversation": true},
			},
			{
				name:       "with the lock, create answers the contact's open conversation, with the new message",
				request:    create("three"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 2, "messages.0.content": "three"},
			},
			{
				name:       "resolve it",
				request:    request{method: "POST", path: a.path("/conversations/2/toggle_status"), body: H{"status": "resolved"}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "with the lock, the still open conversation is answered",
				request:    create("four"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 1},
			},
			{
				name:       "resolve that one too",
				request:    request{method: "POST", path: a.path("/conversations/1/toggle_status"), body: H{"status": "resolved"}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "with the lock and nothing open, a new conversation is created",
				request:    create("five"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 3, "status": "open"},
			},
			{
				name:       "the list holds no duplicate",
				request:    request{method: "GET", path: a.path("/conversations?status=all")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"data.meta.all_count": 3},
			},
		})
	})
}
