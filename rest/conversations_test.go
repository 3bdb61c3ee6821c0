package rest_test

import (
	"fmt"
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
				want:       map[string]any{"id": conv, "messages.#": 1},
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

func TestConversationList(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		inA := a.apiInbox("A")
		inB := a.apiInbox("B")
		a.addInboxMembers(inA, agentID)
		alice, _ := a.contact(inA, H{"name": "Alice"})
		bob, _ := a.contact(inB, H{"name": "Bob"})
		start := func(body H) int { return a.startConversation(a.Account, "", body) }
		// In A: 24 open and unassigned, 2 open assigned to the administrator.
		var unassignedA []int
		for i := 0; i < 24; i++ {
			unassignedA = append(unassignedA, start(H{"inbox_id": inA, "contact_id": alice}))
		}
		mine1 := start(H{"inbox_id": inA, "contact_id": alice, "assignee_id": a.AdminID})
		mine2 := start(H{"inbox_id": inA, "contact_id": alice, "assignee_id": a.AdminID})
		// In B: one open assigned to the agent, one each resolved, pending, snoozed.
		agentsB := start(H{"inbox_id": inB, "contact_id": bob, "assignee_id": agentID})
		resolved := start(H{"inbox_id": inB, "contact_id": bob, "status": "resolved"})
		pending := start(H{"inbox_id": inB, "contact_id": bob, "status": "pending"})
		snoozed := start(H{"inbox_id": inB, "contact_id": bob, "status": "snoozed"})
		for _, id := range []int{unassignedA[0], agentsB, resolved} {
			a.mustDo(request{method: "POST", path: a.path("/conversations/%d/labels", id), body: H{"labels": []string{"vip"}}}, http.StatusOK)
		}
		a.mustDo(request{method: "POST", path: a.path("/conversations/%d/labels", unassignedA[1]), body: H{"labels": []string{"vip-plus"}}}, http.StatusOK)
		accB, adminB := a.otherAccount("Globex")
		ibB := a.inboxIn(accB, adminB, "B", H{"type": "api"})
		dave, _ := a.contactIn(accB, adminB, ibB, H{"name": "Dave"})
		a.startConversation(accB, adminB, H{"inbox_id": ibB, "contact_id": dave})

		list := func(query string) request { return request{method: "GET", path: a.path("/conversations%s", query)} }
		meta := func(mine, assigned, unassigned, all int) map[string]any {
			return map[string]any{"data.meta": H{"mine_count": mine, "assigned_count": assigned, "unassigned_count": unassigned, "all_count": all}}
		}
		with := func(m map[string]any, kv ...any) map[string]any {
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[0+i].(string)] = kv[i+1]
			}
			return m
		}
		// Newest activity first: the last created comes first.
		newestOpen := []int{agentsB, mine2, mine1}
		for i := len(unassignedA) - 1; i >= 0; i-- {
			newestOpen = append(newestOpen, unassignedA[i])
		}
		a.run(t, []scenario{
			{
				name:       "the default lists open conversations in Chatwoot's envelope, 25 a page, newest activity first",
				request:    list(""),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.#", 25, "data.payload.*.id", newestOpen[:25]),
			},
			{
				name:       "page=2 has the rest",
				request:    list("?page=2"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.*.id", newestOpen[25:]),
			},
			{
				name:       "page=3 is empty, still 200",
				request:    list("?page=3"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload", []any{}),
			},
			{
				name:       "status=open is the default",
				request:    list("?status=open"),
				wantStatus: http.StatusOK,
				want:       meta(2, 3, 24, 27),
			},
			{
				name:       "status=resolved",
				request:    list("?status=resolved"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 1, 1), "data.payload.*.id", []int{resolved}, "data.payload.0.status", "resolved"),
			},
			{
				name:       "status=pending",
				request:    list("?status=pending"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 1, 1), "data.payload.*.id", []int{pending}),
			},
			{
				name:       "status=snoozed",
				request:    list("?status=snoozed"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 1, 1), "data.payload.*.id", []int{snoozed}),
			},
			{
				name:       "status=all counts every status",
				request:    list("?status=all"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 27, 30), "data.payload.#", 25),
			},
			invalid("an unknown status is 422 naming status", list("?status=closed"), "status"),
			{
				name:       "inbox_id narrows to one inbox",
				request:    list(fmt.Sprintf("?inbox_id=%d", inB)),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 0, 1), "data.payload.*.id", []int{agentsB}),
			},
			{
				name:       "inbox_id with status=all",
				request:    list(fmt.Sprintf("?inbox_id=%d&status=all", inB)),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 3, 4), "data.payload.*.id", []int{snoozed, pending, resolved, agentsB}),
			},
			{
				name:       "another account's inbox_id finds nothing",
				request:    list(fmt.Sprintf("?inbox_id=%d", ibB)),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 0, 0), "data.payload", []any{}),
			},
			invalid("a non-numeric inbox_id is 422 naming inbox_id", list("?inbox_id=first"), "inbox_id"),
			{
				name:       "labels[] narrows to the conversations carrying the label (exact title)",
				request:    list("?labels[]=vip"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 1, 2), "data.payload.*.id", []int{agentsB, unassignedA[0]}),
			},
			{
				name:       "labels[] with status=all",
				request:    list("?labels[]=vip&status=all"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 2, 3), "data.payload.*.id", []int{resolved, agentsB, unassignedA[0]}),
			},
			{
				name:       "labels[]=a&labels[]=b keeps conversations with any of them (Chatwoot's tagged_with any)",
				request:    list("?labels[]=vip&labels[]=vip-plus"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 2, 3), "data.payload.*.id", []int{agentsB, unassignedA[1], unassignedA[0]}),
			},
			{
				name:       "labels=a,b (comma-separated) is read as the same list",
				request:    list("?labels=vip,vip-plus"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 1, 2, 3), "data.payload.*.id", []int{agentsB, unassignedA[1], unassignedA[0]}),
			},
			{
				name:       "labels[] with a label nobody carries is empty",
				request:    list("?labels[]=nobody"),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 0, 0), "data.payload", []any{}),
			},
			{
				name:       "assignee_type=me lists the viewer's",
				request:    list("?assignee_type=me"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.*.id", []int{mine2, mine1}),
			},
			{
				name:       "assignee_type=assigned lists every assigned one",
				request:    list("?assignee_type=assigned"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.*.id", []int{agentsB, mine2, mine1}),
			},
			{
				name:       "assignee_type=unassigned lists the unassigned ones",
				request:    list("?assignee_type=unassigned"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.#", 24, "data.payload.0.id", unassignedA[23]),
			},
			{
				name:       "assignee_type=all is the default",
				request:    list("?assignee_type=all"),
				wantStatus: http.StatusOK,
				want:       with(meta(2, 3, 24, 27), "data.payload.#", 25),
			},
			invalid("an unknown assignee_type is 422 naming assignee_type", list("?assignee_type=someone"), "assignee_type"),
			invalid("a non-numeric page is 422 naming page", list("?page=two"), "page"),
			{
				name:       "an agent sees only the conversations of its inboxes, with counts of them",
				request:    as(agent, list("")),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 2, 24, 26), "data.payload.#", 25),
				check: func(t *testing.T, r *response) {
					expect(t, r, map[string]any{"data.payload.*.id": excludes(agentsB)})
					r2 := a.mustDoT(t, as(agent, list("?page=2")), http.StatusOK)
					expect(t, r2, map[string]any{"data.payload.*.id": []int{unassignedA[0]}})
				},
			},
			{
				name:       "an agent's assignee_type=me is its own (none in its inboxes)",
				request:    as(agent, list("?assignee_type=me")),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 2, 24, 26), "data.payload", []any{}),
			},
			{
				name:       "an agent filtering on an inbox it is not a member of gets nothing",
				request:    as(agent, list(fmt.Sprintf("?inbox_id=%d&status=all", inB))),
				wantStatus: http.StatusOK,
				want:       with(meta(0, 0, 0, 0), "data.payload", []any{}),
			},
			{
				name:       "list items carry Chatwoot's conversation fields",
				request:    list(fmt.Sprintf("?inbox_id=%d", inB)),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"data.payload.0.id": agentsB, "data.payload.0.inbox_id": inB, "data.payload.0.status": "open",
					"data.payload.0.labels": []string{"vip"}, "data.payload.0.meta.sender.id": bob,
					"data.payload.0.assignee_id": agentID, "data.payload.0.uuid": isUUID, "data.payload.0.messages": []any{},
				},
			},
		})
	})
}

// TestConversationVisibility: agents see and act on conversations only in
// inboxes they are members of; administrators see all; another account's
// conversations are 404.
func TestConversationVisibility(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agent(a.Account)
		x := a.apiInbox("X")
		y := a.apiInbox("Y")
		a.addInboxMembers(y, agentID)
		alice, aliceX := a.contact(x, H{"name": "Alice"})
		bob, bobY := a.contact(y, H{"name": "Bob"})
		inX := a.startConversation(a.Account, "", H{"source_id": aliceX, "inbox_id": x, "message": H{"content": "secret X"}})
		inY := a.startConversation(a.Account, "", H{"source_id": bobY, "inbox_id": y})
		accB, adminB := a.otherAccount("Globex")
		ibB := a.inboxIn(accB, adminB, "B", H{"type": "api"})
		dave, _ := a.contactIn(accB, adminB, ibB, H{"name": "Dave"})
		var convsB []int
		for i := 0; i < 5; i++ {
			convsB = append(convsB, a.startConversation(accB, adminB, H{"inbox_id": ibB, "contact_id": dave}))
		}
		onlyB := convsB[4] // display id 5: no conversation of A has it

		conv := func(method string, id int, suffix string, body any) request {
			return request{method: method, path: a.path("/conversations/%d%s", id, suffix), body: body}
		}
		list := request{method: "GET", path: a.path("/conversations")}
		a.run(t, []scenario{
			{
				name:       "the administrator sees every inbox's conversations",
				request:    list,
				wantStatus: http.StatusOK,
				want:       map[string]any{"data.payload.*.id": []int{inY, inX}, "data.meta.all_count": 2},
			},
			{
				name:       "an agent does not see the conversations of an inbox it is not a member of",
				request:    as(agent, list),
				wantStatus: http.StatusOK,
				want:       map[string]any{"data.payload.*.id": []int{inY}, "data.meta.all_count": 1},
				check:      bodyLacks("secret X"),
			},
			status("an agent's GET of such a conversation is 404", as(agent, conv("GET", inX, "", nil)), http.StatusNotFound),
			status("an agent's toggle_status of it is 404", as(agent, conv("POST", inX, "/toggle_status", H{"status": "resolved"})), http.StatusNotFound),
			status("an agent's label read of it is 404", as(agent, conv("GET", inX, "/labels", nil)), http.StatusNotFound),
			status("an agent's label write of it is 404", as(agent, conv("POST", inX, "/labels", H{"labels": []string{"hijacked"}})), http.StatusNotFound),
			status("an agent creating a conversation in that inbox is 403",
				as(agent, request{method: "POST", path: a.path("/conversations"), body: H{"inbox_id": x, "contact_id": alice, "message": H{"content": "hi"}}}), http.StatusForbidden),
			status("an agent creating one there by source_id is 403",
				as(agent, request{method: "POST", path: a.path("/conversations"), body: H{"source_id": aliceX, "inbox_id": x}}), http.StatusForbidden),
			{
				name:       "the agent's refused actions changed nothing",
				request:    conv("GET", inX, "", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "open", "labels": []any{}},
				check: func(t *testing.T, r *response) {
					expect(t, a.mustDoT(t, request{method: "GET", path: a.path("/conversations?status=all")}, http.StatusOK),
						map[string]any{"data.meta.all_count": 2})
				},
			},
			{
				name:       "an agent sees a conversation of its inbox",
				request:    as(agent, conv("GET", inY, "", nil)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": inY, "meta.sender.id": bob},
			},
			{
				name:       "an agent may create a conversation in its inbox",
				request:    as(agent, request{method: "POST", path: a.path("/conversations"), body: H{"inbox_id": y, "contact_id": bob, "message": H{"content": "from the agent"}}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 3, "inbox_id": y, "messages.0.content": "from the agent", "messages.0.sender_id": agentID, "messages.0.sender_type": "User"},
			},
			{
				name:       "an agent may toggle the status of a conversation of its inbox",
				request:    as(agent, conv("POST", inY, "/toggle_status", nil)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "resolved"},
			},
			{
				name:       "an agent may label a conversation of its inbox",
				request:    as(agent, conv("POST", inY, "/labels", H{"labels": []string{"vip"}})),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []string{"vip"}},
			},
			{
				name:       "the administrator makes the agent a member of X",
				request:    request{method: "POST", path: a.path("/inbox_members"), body: H{"inbox_id": x, "user_ids": []int{agentID}}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "now the agent sees X's conversation in the list",
				request:    as(agent, list),
				wantStatus: http.StatusOK,
				want:       map[string]any{"data.payload.*.id": []int{3, inX}},
			},
			{
				name:       "and may open it",
				request:    as(agent, conv("GET", inX, "", nil)),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": inX, "messages.0.content": "secret X"},
			},
			{
				name:       "and create one there",
				request:    as(agent, request{method: "POST", path: a.path("/conversations"), body: H{"source_id": aliceX, "inbox_id": x, "contact_id": alice}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": 4},
			},
			{
				name:       "the administrator removes the agent from X again",
				request:    request{method: "DELETE", path: a.path("/inbox_members"), body: H{"inbox_id": x, "user_ids": []int{agentID}}},
				wantStatus: http.StatusOK,
			},
			status("and X's conversation is 404 to the agent again", as(agent, conv("GET", inX, "", nil)), http.StatusNotFound),
			status("another account's conversation id is 404 on show", conv("GET", onlyB, "", nil), http.StatusNotFound),
			status("another account's conversation id is 404 on toggle_status", conv("POST", onlyB, "/toggle_status", H{"status": "resolved"}), http.StatusNotFound),
			status("another account's conversation id is 404 on labels read", conv("GET", onlyB, "/labels", nil), http.StatusNotFound),
			status("another account's conversation id is 404 on labels write", conv("POST", onlyB, "/labels", H{"labels": []string{"x"}}), http.StatusNotFound),
			status("another account's conversation id is 404 to an agent too", as(agent, conv("GET", onlyB, "", nil)), http.StatusNotFound),
			{
				name:       "the other account's conversation is untouched",
				request:    as(adminB, request{method: "GET", path: accountPath(accB, "/conversations/%d", onlyB)}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "open", "labels": []any{}, "meta.sender.id": dave},
			},
			{
				name:       "the same display id in this account is this account's conversation",
				request:    conv("GET", 1, "", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.sender.id": alice},
			},
		})
	})
}

func TestConversationShowToggleLabels(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		alice, source := a.contact(ib, H{"name": "Alice", "email": "alice@example.com"})
		id := a.startConversation(a.Account, "", H{"source_id": source, "inbox_id": ib, "message": H{"content": "first"}})
		conv := func(method, suffix string, body any) request {
			return request{method: method, path: a.path("/conversations/%d%s", id, suffix), body: body}
		}
		toggle := func(body any) request { return conv("POST", "/toggle_status", body) }
		current := func(name, status string) scenario {
			return scenario{name: name, request: conv("GET", "", nil), wantStatus: http.StatusOK, want: map[string]any{"status": status}}
		}
		a.run(t, []scenario{
			{
				name:       "show answers the conversation with its id, contact, inbox and last message",
				request:    conv("GET", "", nil),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": id, "uuid": isUUID, "account_id": a.Account, "inbox_id": ib, "status": "open",
					"labels": []any{}, "meta.sender.id": alice, "meta.sender.email": "alice@example.com",
					"meta.channel": "Channel::Api", "messages.0.content": "first", "snoozed_until": nil,
					"created_at": isoTime, "updated_at": isoTime, "timestamp": isoTime,
				},
			},
			status("show of an unknown conversation is 404", request{method: "GET", path: a.path("/conversations/999")}, http.StatusNotFound),
			status("show of a non-numeric id is 404", request{method: "GET", path: a.path("/conversations/abc")}, http.StatusNotFound),
			{
				name:       "toggle_status without status resolves an open conversation",
				request:    toggle(nil),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.success": true, "payload.conversation_id": id, "payload.current_status": "resolved",
					"payload.snoozed_until": nil, "meta": H{},
				},
			},
			current("show has it resolved", "resolved"),
			{
				name:       "toggle_status without status reopens a resolved one",
				request:    toggle(H{}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "open"},
			},
			{
				name:       "toggle_status with status pending sets it",
				request:    toggle(H{"status": "pending"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "pending"},
			},
			current("show has it pending", "pending"),
			{
				name:       "toggle_status without status opens a pending one",
				request:    toggle(nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "open"},
			},
			{
				name:       "toggle_status snoozed with snoozed_until keeps the time",
				request:    toggle(H{"status": "snoozed", "snoozed_until": "2030-01-31T09:00:00Z"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "snoozed", "payload.snoozed_until": "2030-01-31T09:00:00.000Z"},
			},
			{
				name:       "show has it snoozed until then",
				request:    conv("GET", "", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"status": "snoozed", "snoozed_until": "2030-01-31T09:00:00.000Z"},
			},
			{
				name:       "toggle_status resolved clears snoozed_until",
				request:    toggle(H{"status": "resolved"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "resolved", "payload.snoozed_until": nil},
			},
			{
				name:       "toggle_status open sets it",
				request:    toggle(H{"status": "open"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.current_status": "open"},
			},
			invalid("toggle_status with an unknown status is 422 naming status", toggle(H{"status": "closed"}), "status"),
			invalid("toggle_status with a malformed snoozed_until is 422 naming snoozed_until", toggle(H{"status": "snoozed", "snoozed_until": "tomorrow"}), "snoozed_until"),
			current("the refused toggles changed nothing", "open"),
			status("toggle_status of an unknown conversation is 404", request{method: "POST", path: a.path("/conversations/999/toggle_status"), body: H{}}, http.StatusNotFound),
			{
				name:       "labels of a conversation without labels is {payload: []}",
				request:    conv("GET", "/labels", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "POST labels sets them and answers the full list",
				request:    conv("POST", "/labels", H{"labels": []string{"billing", "vip"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("billing", "vip")},
			},
			{
				name:       "GET labels answers them",
				request:    conv("GET", "/labels", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("billing", "vip")},
			},
			{
				name:       "POST labels replaces the whole set",
				request:    conv("POST", "/labels", H{"labels": []string{"vip", "lead"}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("vip", "lead")},
			},
			{
				name:       "the conversation shows the replaced set",
				request:    conv("GET", "", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"labels": sameItems("vip", "lead")},
			},
			invalid("POST labels without labels is 422 naming labels", conv("POST", "/labels", H{}), "labels"),
			invalid("POST labels with labels that are not a list is 422 naming labels", conv("POST", "/labels", H{"labels": H{"a": 1}}), "labels"),
			{
				name:       "the refused label writes changed nothing",
				request:    conv("GET", "/labels", nil),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("vip", "lead")},
			},
			{
				name:       "POST labels with an empty list clears them",
				request:    conv("POST", "/labels", H{"labels": []string{}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			status("labels of an unknown conversation is 404", request{method: "GET", path: a.path("/conversations/999/labels")}, http.StatusNotFound),
			status("labels write of an unknown conversation is 404", request{method: "POST", path: a.path("/conversations/999/labels"), body: H{"labels": []string{"x"}}}, http.StatusNotFound),
		})
	})
}
