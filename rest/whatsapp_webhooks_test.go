package rest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// bodyIs checks a plain-text answer.
func bodyIs(want string) func(t *testing.T, r *response) {
	return func(t *testing.T, r *response) {
		t.Helper()
		if string(r.Body) != want {
			t.Errorf("%s: body %q, want %q", r.req, r.Body, want)
		}
	}
}

// An administrator sees where to point Meta (the callback URL and the
// verify token the service generated); Meta's verification gets the
// challenge back only with that token.
func TestWhatsAppWebhookVerification(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWhatsAppApp(t, e, nil)
		verify := func(number, query string) request {
			return request{method: "GET", path: "/webhooks/whatsapp/" + number + query, token: noToken}
		}
		good := "?hub.mode=subscribe&hub.verify_token=" + w.verifyToken + "&hub.challenge=1158201444"
		w.run(t, []scenario{
			{name: "the inbox shows the callback URL and the verify token, not the app secret",
				request: request{method: "GET", path: w.path("/inboxes/%d", w.inboxID)}, wantStatus: http.StatusOK,
				want: map[string]any{"callback_webhook_url": waPublicURL + "/webhooks/whatsapp/" + waNumber,
					"provider_config.webhook_verify_token": w.verifyToken, "provider_config.app_secret": mask},
				check: bodyLacks(waSecret)},
			{name: "the right token answers the challenge as text", request: verify(waNumber, good),
				wantStatus: http.StatusOK, check: bodyIs("1158201444"), wantEvents: []events.Kind{}},
			{name: "the number without + is the same inbox", request: verify("15550001111", good),
				wantStatus: http.StatusOK, check: bodyIs("1158201444")},
			status("a wrong token is refused", verify(waNumber, "?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1"), http.StatusForbidden),
			status("no token is refused", verify(waNumber, "?hub.mode=subscribe&hub.challenge=1"), http.StatusForbidden),
			status("another mode is refused", verify(waNumber, "?hub.mode=unsubscribe&hub.verify_token="+w.verifyToken+"&hub.challenge=1"), http.StatusForbidden),
			status("a number no inbox has is not found", verify("+15550002222", good), http.StatusNotFound),
			status("a path that is no number is not found", verify("not-a-number", good), http.StatusNotFound),
			{name: "an administrator's own verify token replaces the generated one",
				request: request{method: "PATCH", path: w.path("/inboxes/%d", w.inboxID),
					body: H{"channel": H{"provider_config": H{"webhook_verify_token": "chosen-token"}}}},
				wantStatus: http.StatusOK, want: map[string]any{"provider_config.webhook_verify_token": "chosen-token"}},
			status("the old token no longer verifies", verify(waNumber, good), http.StatusForbidden),
			{name: "the chosen token verifies", request: verify(waNumber, "?hub.mode=subscribe&hub.verify_token=chosen-token&hub.challenge=7"),
				wantStatus: http.StatusOK, check: bodyIs("7")},
			// The lookup reads the inbox's channel_key, kept by a hook.
			{name: "a new number", request: request{method: "PATCH", path: w.path("/inboxes/%d", w.inboxID),
				body: H{"channel": H{"phone_number": "+15550004444"}}}, wantStatus: http.StatusOK,
				want: map[string]any{"callback_webhook_url": waPublicURL + "/webhooks/whatsapp/+15550004444"}},
			{name: "the new number finds the inbox", request: verify("+15550004444", "?hub.mode=subscribe&hub.verify_token=chosen-token&hub.challenge=8"),
				wantStatus: http.StatusOK, check: bodyIs("8")},
			status("the old number no longer does", verify(waNumber, "?hub.mode=subscribe&hub.verify_token=chosen-token&hub.challenge=9"), http.StatusNotFound),
		})
	})
}

// Only posts signed with the inbox's app secret are read; a message is
// stored once however often Meta posts it, as the sender's contact (the
// number as source id, E.164 as phone) and conversation.
func TestWhatsAppWebhookSignedPosts(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWhatsAppApp(t, e, nil)
		hello := waText("wamid.hello", "Hello, is my order on its way?")
		w.app.inbox("No secret", whatsappChannel("+15550003333"))
		w.run(t, []scenario{
			{name: "a post without a signature is refused and stores nothing", request: waPost(waNumber, hello, ""),
				wantStatus: http.StatusUnauthorized, check: w.storesNothing(0), wantEvents: []events.Kind{}},
			{name: "a post signed with another secret is refused and stores nothing", request: waPost(waNumber, hello, waSign("guess", hello)),
				wantStatus: http.StatusUnauthorized, check: w.storesNothing(0), wantEvents: []events.Kind{}},
			{name: "a signature that is not sha256=hex is refused", request: waPost(waNumber, hello, "sha1=abc"),
				wantStatus: http.StatusUnauthorized, check: w.storesNothing(0)},
			{name: "a signature of another body is refused", request: waPost(waNumber, hello, waSign(waSecret, waText("wamid.other", "x"))),
				wantStatus: http.StatusUnauthorized, check: w.storesNothing(0)},
			{name: "an inbox without an app secret reads no post", request: waPost("+15550003333", hello, waSign("", hello)),
				wantStatus: http.StatusUnauthorized, check: w.storesNothing(0)},
			status("a number no inbox has is not found", waPost("+15550002222", hello, waSign(waSecret, hello)), http.StatusNotFound),
			status("a signed body that is not JSON is refused", signed([]byte(`{"entry": [`)), http.StatusBadRequest),
			status("a signed body of the wrong shape is refused", signed([]byte(`{"entry": {"changes": 1}}`)), http.StatusBadRequest),
			{name: "a signed message is stored with its contact and conversation", request: signed(hello),
				wantStatus: http.StatusOK, want: answered(1, 0, 0, 0),
				wantEvents: []events.Kind{events.ContactCreated, events.ConversationCreated, events.MessageCreated},
				check: func(t *testing.T, _ *response) {
					m := w.stored(t, "wamid.hello")
					if m == nil || m.MessageType != message.MessageTypeIncoming || m.Content == nil || *m.Content != "Hello, is my order on its way?" {
						t.Fatalf("stored %+v, want the incoming text", m)
					}
					ct := w.srv.DB.Client.Contact.Query().Where(contact.PhoneNumber("+" + waCustomer)).OnlyX(sys())
					ci := w.srv.DB.Client.ContactInbox.Query().Where(contactinbox.ContactID(ct.ID)).OnlyX(sys())
					if ct.Name != "Ann Customer" || ci.SourceID != waCustomer || ci.InboxID != w.inboxID {
						t.Errorf("contact %q with source id %q in inbox %d; want Ann Customer, %s, %d", ct.Name, ci.SourceID, ci.InboxID, waCustomer, w.inboxID)
					}
				}},
			{name: "the customer's message opens the 24-hour window: the conversation can_reply",
				request: request{method: "GET", path: w.app.path("/conversations/1")}, wantStatus: http.StatusOK,
				want: map[string]any{"meta.channel": "Channel::Whatsapp", "can_reply": true}},
			{name: "the same post again is stored once", request: signed(hello),
				wantStatus: http.StatusOK, want: answered(0, 1, 0, 0), wantEvents: []events.Kind{}, check: w.storesNothing(1)},
			{name: "the next message continues the conversation", request: signed(waText("wamid.next", "Order 1042")),
				wantStatus: http.StatusOK, want: answered(1, 0, 0, 0), wantEvents: []events.Kind{events.MessageCreated},
				check: func(t *testing.T, _ *response) {
					if a, b := w.stored(t, "wamid.hello"), w.stored(t, "wamid.next"); a.ConversationID != b.ConversationID {
						t.Errorf("the second message went to conversation %d, want %d", b.ConversationID, a.ConversationID)
					}
				}},
			{name: "a change for another number of the business is not this inbox's",
				request: signed([]byte(`{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"metadata":{"phone_number_id":"other"},` +
					`"messages":[{"from":"4915112345678","id":"wamid.elsewhere","type":"text","text":{"body":"hi"}}]}}]}]}`)),
				wantStatus: http.StatusOK, want: answered(0, 0, 0, 1), wantEvents: []events.Kind{}, check: w.storesNothing(2)},
			{name: "a post over the size limit is refused", request: signed(append([]byte(`{"object":"x","pad":"`), append(make([]byte, 1<<20), '"', '}')...)),
				wantStatus: http.StatusRequestEntityTooLarge, check: w.storesNothing(2)},
		})
	})
}

// Statuses move our outgoing message forward only, whatever order Meta
// posts them in; a failure keeps WhatsApp's code and title.
func TestWhatsAppWebhookStatuses(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWhatsAppApp(t, e, nil)
		w.mustDo(signed(waText("wamid.in", "Hi")), http.StatusOK)
		in := w.stored(t, "wamid.in")
		conv := w.srv.DB.Client.Conversation.GetX(sys(), in.ConversationID).DisplayID
		outgoing := func(text, wamid string) int {
			id := w.mustDo(request{method: "POST", path: w.path("/conversations/%d/messages", conv), body: H{"content": text}}, http.StatusOK).int(t, "id")
			waitFor(t, "the reply to be handed over", func() bool { return w.handedOver(conv, id) })
			// The id the Cloud API would have answered; statuses start over.
			w.srv.DB.Client.Message.UpdateOneID(id).SetSourceID(wamid).SetStatus(message.StatusSent).ExecX(sys())
			return id
		}
		reply, doomed := outgoing("Your order ships today", "wamid.out"), outgoing("Still there?", "wamid.out2")
		st := func(id, status string) H {
			return H{"id": id, "status": status, "timestamp": "1730000100", "recipient_id": waCustomer}
		}
		isAt := func(id int, want, wantErr string) func(t *testing.T, r *response) {
			return func(t *testing.T, _ *response) {
				t.Helper()
				if got, ext := w.messageStatus(conv, id); got != want || ext != wantErr {
					t.Errorf("message %d is %s (%q), want %s (%q)", id, got, ext, want, wantErr)
				}
			}
		}
		apitest.Settle(t, w.srv.Events, w.Account)
		failed := st("wamid.out2", "failed")
		failed["errors"] = []H{{"code": 131047, "title": "Re-engagement message"}}
		w.run(t, []scenario{
			{name: "read before delivered moves to read", request: signed(waEnvelope(nil, []H{st("wamid.out", "read")})),
				wantStatus: http.StatusOK, want: answered(0, 0, 1, 0), wantEvents: []events.Kind{events.MessageUpdated}, check: isAt(reply, "read", "")},
			{name: "a late delivered changes nothing", request: signed(waEnvelope(nil, []H{st("wamid.out", "delivered"), st("wamid.out", "sent")})),
				wantStatus: http.StatusOK, want: answered(0, 0, 2, 0), wantEvents: []events.Kind{}, check: isAt(reply, "read", "")},
			{name: "a failure records WhatsApp's error", request: signed(waEnvelope(nil, []H{failed})),
				wantStatus: http.StatusOK, want: answered(0, 0, 1, 0), wantEvents: []events.Kind{events.MessageUpdated},
				check: isAt(doomed, "failed", "131047: Re-engagement message")},
			{name: "a status of a message sent elsewhere changes nothing", request: signed(waEnvelope(nil, []H{st("wamid.unknown", "read")})),
				wantStatus: http.StatusOK, want: answered(0, 0, 1, 0), wantEvents: []events.Kind{}},
			{name: "an unknown status is ignored", request: signed(waEnvelope(nil, []H{st("wamid.out", "deleted")})),
				wantStatus: http.StatusOK, want: answered(0, 0, 0, 1), wantEvents: []events.Kind{}, check: isAt(reply, "read", "")},
			{name: "a status post without a signature is refused", request: waPost(waNumber, waEnvelope(nil, []H{st("wamid.out2", "read")}), ""),
				wantStatus: http.StatusUnauthorized, wantEvents: []events.Kind{}, check: isAt(doomed, "failed", "131047: Re-engagement message")},
			{name: "read after a failure: delivered after all, the error gone", request: signed(waEnvelope(nil, []H{st("wamid.out2", "read")})),
				wantStatus: http.StatusOK, want: answered(0, 0, 1, 0), wantEvents: []events.Kind{events.MessageUpdated}, check: isAt(doomed, "read", "")},
		})
	})
}

// hookBody is the delivery of event among a receiver's requests (nil: not
// yet delivered).
func hookBody(r *receiver, event string) map[string]any {
	for _, got := range r.requests() {
		var body map[string]any
		if json.Unmarshal(got.Body, &body) == nil && body["event"] == event {
			return body
		}
	}
	return nil
}

// The account's webhooks hear a WhatsApp customer as they hear a change
// made through the API: the new contact, the new conversation, the incoming
// message with its file, and the status our reply reached.
func TestWhatsAppWebhookAccountWebhooks(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWhatsAppApp(t, e, waMedia)
		hook := newReceiver(t, http.StatusOK)
		w.mustDo(request{method: "POST", path: w.path("/webhooks"), body: H{"url": hook.URL,
			"subscriptions": []string{"contact_created", "conversation_created", "message_created", "message_updated"}}}, http.StatusOK)
		photo := waMessage("wamid.photo", "image", H{"id": "media-photo", "mime_type": "image/jpeg", "caption": "The parcel"})
		w.mustDo(signed(waEnvelope([]H{photo}, nil)), http.StatusOK)
		var bodies map[string]map[string]any
		waitFor(t, "the three webhooks", func() bool {
			bodies = map[string]map[string]any{}
			for _, ev := range []string{"contact_created", "conversation_created", "message_created"} {
				if b := hookBody(hook, ev); b != nil {
					bodies[ev] = b
				}
			}
			return len(bodies) == 3
		})
		stored := w.stored(t, "wamid.photo")
		expectHook := func(event string, want map[string]any) {
			t.Helper()
			apitest.Expect(t, event+" webhook", bodies[event], want)
		}
		expectHook("contact_created", map[string]any{"name": "Ann Customer", "phone_number": "+" + waCustomer})
		expectHook("conversation_created", map[string]any{"inbox_id": w.inboxID, "status": "open", "meta.sender.phone_number": "+" + waCustomer})
		expectHook("message_created", map[string]any{"id": stored.ID, "content": "The parcel", "message_type": "incoming",
			"source_id": "wamid.photo", "sender.type": "contact", "inbox.id": w.inboxID,
			"attachments.#": 1, "attachments.0.file_type": "image", "attachments.0.content_type": "image/jpeg"})

		conv := w.srv.DB.Client.Conversation.GetX(sys(), stored.ConversationID).DisplayID
		reply := w.mustDo(request{method: "POST", path: w.path("/conversations/%d/messages", conv), body: H{"content": "On its way"}}, http.StatusOK).int(t, "id")
		waitFor(t, "the reply to be handed over", func() bool { return w.handedOver(conv, reply) })
		w.srv.DB.Client.Message.UpdateOneID(reply).SetSourceID("wamid.reply").ExecX(sys())
		w.mustDo(signed(waEnvelope(nil, []H{{"id": "wamid.reply", "status": "read", "recipient_id": waCustomer}})), http.StatusOK)
		waitFor(t, "the message_updated webhook saying read", func() bool {
			for _, got := range hook.requests() {
				var b map[string]any
				if json.Unmarshal(got.Body, &b) == nil && b["event"] == "message_updated" && b["status"] == "read" {
					return b["id"] == float64(reply) && b["source_id"] == "wamid.reply"
				}
			}
			return false
		})
	})
}
