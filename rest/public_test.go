package rest_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/throttle"
	"github.com/switchboard/switchboard/internal/visitors"
)

// The public client API (issue 17): visitors of an API or web widget inbox,
// named by the inbox's public identifier and their contact identifier.

// publicInbox is an inbox as a visitor reaches it.
type publicInbox struct {
	id         int
	identifier string // inbox_identifier, or a web widget's website_token
	hmacToken  string
}

// newPublicInbox creates an inbox from channel and reads its public
// identifier and HMAC token (shown once, in the create's answer).
func (a *app) newPublicInbox(name string, channel H) publicInbox {
	a.t.Helper()
	r := a.mustDo(request{method: "POST", path: a.path("/inboxes"), body: H{"name": name, "channel": channel}}, http.StatusOK)
	key := "inbox_identifier"
	if channel["type"] == "web_widget" {
		key = "website_token"
	}
	return publicInbox{id: r.int(a.t, "id"), identifier: r.str(a.t, key), hmacToken: r.str(a.t, "hmac_token")}
}

func (p publicInbox) path(format string, args ...any) string {
	return "/public/api/v1/inboxes/" + p.identifier + fmt.Sprintf(format, args...)
}

// sign is the identifier_hash a site's server computes for identifier.
func (p publicInbox) sign(identifier string) string {
	mac := hmac.New(sha256.New, []byte(p.hmacToken))
	mac.Write([]byte(identifier))
	return hex.EncodeToString(mac.Sum(nil))
}

// visitor creates a visitor and answers its source id and pubsub token.
func (a *app) visitor(p publicInbox, body H) (sourceID, token string) {
	a.t.Helper()
	r := a.mustDo(request{method: "POST", path: p.path("/contacts"), token: noToken, body: body}, http.StatusOK)
	return r.str(a.t, "source_id"), r.str(a.t, "pubsub_token")
}

// visitorConversation starts a visitor's conversation and answers its
// display id.
func (a *app) visitorConversation(p publicInbox, sourceID string) int {
	a.t.Helper()
	return a.mustDo(request{method: "POST", path: p.path("/contacts/%s/conversations", sourceID), token: noToken}, http.StatusOK).int(a.t, "id")
}

func pub(method, path string, body any) request {
	return request{method: method, path: path, token: noToken, body: body}
}

func TestPublicContacts(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		open := a.newPublicInbox("Site API", H{"type": "api"})
		strict := a.newPublicInbox("Strict API", H{"type": "api", "hmac_mandatory": true})
		widget := a.newPublicInbox("Widget", H{"type": "web_widget", "website_url": "https://shop.example.com"})
		_, agentMade := a.contact(strict.id, H{"name": "Known by the agents"})
		sid, _ := a.visitor(open, H{"name": "Vera", "email": "vera@example.com"})
		a.run(t, []scenario{
			{name: "create a visitor in an API inbox", request: pub("POST", open.path("/contacts"), H{
				"name": "Ann", "email": "ann@example.com", "phone_number": "+15550007777", "identifier": "not-proven"}),
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.ContactCreated},
				want: H{"name": "Ann", "email": "ann@example.com", "phone_number": "+15550007777", "source_id": isUUID,
					"pubsub_token": nonEmpty, "id": present}, check: bodyLacks("not-proven")},
			{name: "create with a chosen source id", request: pub("POST", open.path("/contacts"), H{"source_id": "visitor-7"}),
				wantStatus: http.StatusOK, want: H{"source_id": "visitor-7"}},
			{name: "a taken source id", request: pub("POST", open.path("/contacts"), H{"source_id": "visitor-7"}),
				wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{"source_id"}, wantEvents: []events.Kind{}},
			{name: "create in a web widget inbox by its website token", request: pub("POST", widget.path("/contacts"), H{"name": "Wes"}),
				wantStatus: http.StatusOK, want: H{"name": "Wes"}},
			{name: "an unknown inbox", request: pub("POST", "/public/api/v1/inboxes/nope/contacts", H{"name": "X"}), wantStatus: http.StatusNotFound},
			{name: "an agent's inbox id is no public identifier", request: pub("POST", fmt.Sprintf("/public/api/v1/inboxes/%d/contacts", open.id), H{}),
				wantStatus: http.StatusNotFound},
			{name: "show: no pubsub token", request: pub("GET", open.path("/contacts/%s", sid), nil), wantStatus: http.StatusOK,
				want: H{"name": "Vera", "source_id": sid, "pubsub_token": absent}},
			{name: "an unknown contact", request: pub("GET", open.path("/contacts/nobody"), nil), wantStatus: http.StatusNotFound},
			{name: "another inbox's visitor", request: pub("GET", widget.path("/contacts/%s", sid), nil), wantStatus: http.StatusNotFound},
			{name: "identify without proof keeps the identifier out", request: pub("PATCH", open.path("/contacts/%s", sid), H{
				"name": "Vera V", "identifier": "u-1"}), wantStatus: http.StatusOK, want: H{"name": "Vera V"},
				wantEvents: []events.Kind{events.ContactUpdated}},
			{name: "identify with a wrong hash", request: pub("PATCH", open.path("/contacts/%s", sid), H{
				"identifier": "u-1", "identifier_hash": "00ff"}), wantStatus: http.StatusUnauthorized, wantEvents: []events.Kind{}},
			{name: "an avatar that is no http URL", request: pub("PATCH", open.path("/contacts/%s", sid), H{"avatar_url": "javascript:alert(1)"}),
				wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{"avatar_url"}},
			{name: "identify with the right hash", request: pub("PATCH", open.path("/contacts/%s", sid), H{
				"identifier": "u-1", "identifier_hash": open.sign("u-1")}), wantStatus: http.StatusOK},
			// hmac_mandatory
			{name: "mandatory: create without a hash", request: pub("POST", strict.path("/contacts"), H{"identifier": "u-2"}),
				wantStatus: http.StatusUnauthorized, wantEvents: []events.Kind{}},
			{name: "mandatory: create with a bad hash", request: pub("POST", strict.path("/contacts"), H{
				"identifier": "u-2", "identifier_hash": strict.sign("u-3")}), wantStatus: http.StatusUnauthorized},
			{name: "mandatory: another inbox's token signs nothing here", request: pub("POST", strict.path("/contacts"), H{
				"identifier": "u-2", "identifier_hash": open.sign("u-2")}), wantStatus: http.StatusUnauthorized},
			{name: "mandatory: create with the right hash", request: pub("POST", strict.path("/contacts"), H{
				"name": "Uma", "identifier": "u-2", "identifier_hash": strict.sign("u-2")}), wantStatus: http.StatusOK,
				want: H{"name": "Uma", "pubsub_token": nonEmpty}, wantEvents: []events.Kind{events.ContactCreated}},
			{name: "mandatory: a proven identifier reaches the same contact from another device", request: pub("POST", strict.path("/contacts"), H{
				"identifier": "u-2", "identifier_hash": strict.sign("u-2")}), wantStatus: http.StatusOK,
				want: H{"name": "Uma"}, wantEvents: []events.Kind{}},
			{name: "mandatory: an unverified contact is not served", request: pub("GET", strict.path("/contacts/%s", agentMade), nil),
				wantStatus: http.StatusUnauthorized},
			{name: "mandatory: its conversations neither", request: pub("GET", strict.path("/contacts/%s/conversations", agentMade), nil),
				wantStatus: http.StatusUnauthorized},
		})
	})
}

func TestPublicConversationsAndMessages(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		p := a.newPublicInbox("Site API", H{"type": "api"})
		me, _ := a.visitor(p, H{"name": "Vera"})
		other, _ := a.visitor(p, H{"name": "Otto"})
		cv := a.visitorConversation(p, me)
		theirs := a.visitorConversation(p, other)
		a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", cv), body: H{"content": "INTERNAL note", "private": true}}, http.StatusOK)
		reply := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", cv), body: H{"content": "Hello Vera"}}, http.StatusOK).int(t, "id")
		form := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", cv), body: H{"content": "Pick one",
			"content_type": "input_select", "content_attributes": H{"items": []H{{"title": "A", "value": "a"}}}}}, http.StatusOK).int(t, "id")
		conv := func(id int) string { return p.path("/contacts/%s/conversations/%d", me, id) }
		a.run(t, []scenario{
			{name: "start a conversation", request: pub("POST", p.path("/contacts/%s/conversations", me), H{"custom_attributes": H{"plan": "gold"}}),
				wantStatus: http.StatusOK, want: H{"status": "open", "inbox_id": p.id, "contact.name": "Vera", "contact_last_seen_at": 0.0,
					"messages": []any{}}, wantEvents: []events.Kind{events.ConversationCreated}},
			{name: "list my conversations", request: pub("GET", p.path("/contacts/%s/conversations", me), nil), wantStatus: http.StatusOK,
				want: H{"*.id": contains(cv), "#": 2.0}, check: bodyLacks("INTERNAL", "Otto")},
			{name: "show mine, without private notes", request: pub("GET", conv(cv), nil), wantStatus: http.StatusOK,
				want: H{"id": cv, "messages.*.id": contains(reply, form), "messages.0.message_type": 1.0,
					"messages.0.sender.type": "user", "messages.0.created_at": present}, check: bodyLacks("INTERNAL", "admin@acme.test")},
			{name: "another visitor's conversation", request: pub("GET", conv(theirs), nil), wantStatus: http.StatusNotFound},
			{name: "another visitor's messages", request: pub("GET", p.path("/contacts/%s/conversations/%d/messages", me, theirs), nil), wantStatus: http.StatusNotFound},
			{name: "send a message", request: pub("POST", conv(cv)+"/messages", H{"content": "Hi there", "echo_id": "tmp-1"}),
				wantStatus: http.StatusOK, want: H{"content": "Hi there", "message_type": 0.0, "echo_id": "tmp-1",
					"conversation_id": cv, "sender.type": "contact", "sender.name": "Vera"},
				wantEvents: []events.Kind{events.MessageCreated}},
			{name: "send a file", request: pub("POST", conv(cv)+"/messages", fields("content", "see file").
				file("attachments[]", "shot.png", "image/png", []byte("\x89PNG\r\n\x1a\nfake"))),
				wantStatus: http.StatusOK, want: H{"attachments.0.file_name": "shot.png", "attachments.0.data_url": nonEmpty}},
			{name: "a blank message", request: pub("POST", conv(cv)+"/messages", H{"content": " "}),
				wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{"content"}, wantEvents: []events.Kind{}},
			{name: "list messages: no private notes", request: pub("GET", conv(cv)+"/messages", nil), wantStatus: http.StatusOK,
				want: H{"*.content": contains("Hello Vera", "Hi there"), "#": 4.0}, check: bodyLacks("INTERNAL")},
			{name: "list messages before the form", request: pub("GET", conv(cv)+fmt.Sprintf("/messages?before=%d", form), nil), wantStatus: http.StatusOK,
				want: H{"*.id": []any{float64(reply)}}},
			{name: "answer the form", request: pub("PATCH", conv(cv)+fmt.Sprintf("/messages/%d", form), H{"submitted_values": []H{{"title": "A", "value": "a"}}}),
				wantStatus: http.StatusOK, want: H{"content_attributes.submitted_values.0.value": "a", "content_attributes.items.0.title": "A"},
				wantEvents: []events.Kind{events.MessageUpdated}},
			{name: "answer nothing", request: pub("PATCH", conv(cv)+fmt.Sprintf("/messages/%d", form), H{"submitted_values": []H{}}),
				wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{"submitted_values"}},
			{name: "an agent's plain reply asks nothing: it keeps its content", request: pub("PATCH", conv(cv)+fmt.Sprintf("/messages/%d", reply),
				H{"submitted_values": []H{{"title": "A", "value": "a"}}}),
				wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{"submitted_values"}, wantEvents: []events.Kind{}},
			{name: "typing on reaches the agents", request: pub("POST", conv(cv)+"/toggle_typing", H{"typing_status": "on"}),
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.ConversationTypingOn}},
			{name: "typing off", request: pub("POST", conv(cv)+"/toggle_typing", H{"typing_status": "off"}),
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.ConversationTypingOff}},
			{name: "typing maybe", request: pub("POST", conv(cv)+"/toggle_typing", H{"typing_status": "maybe"}),
				wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{"typing_status"}, wantEvents: []events.Kind{}},
			{name: "typing in another's conversation", request: pub("POST", p.path("/contacts/%s/conversations/%d/toggle_typing", me, theirs), H{"typing_status": "on"}),
				wantStatus: http.StatusNotFound, wantEvents: []events.Kind{}},
			{name: "seen: the agents' messages become read", request: pub("POST", conv(cv)+"/update_last_seen", nil),
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.ConversationUpdated},
				check: func(t *testing.T, _ *response) {
					r := a.mustDoT(t, request{method: "GET", path: a.path("/conversations/%d/messages", cv)}, http.StatusOK)
					expect(t, r, H{"payload.*.status": contains("read")})
					for _, m := range r.JSON.(map[string]any)["payload"].([]any) {
						m := m.(map[string]any)
						if m["id"] == float64(reply) && m["status"] != "read" {
							t.Errorf("the agent's reply is %v after update_last_seen, want read", m["status"])
						}
					}
					c := a.mustDoT(t, pub("GET", conv(cv), nil), http.StatusOK)
					if c.int(t, "contact_last_seen_at") == 0 {
						t.Error("contact_last_seen_at was not recorded")
					}
				}},
			{name: "resolve", request: pub("POST", conv(cv)+"/toggle_status", nil), wantStatus: http.StatusOK,
				want: H{"status": "resolved"}, wantEvents: []events.Kind{events.ConversationStatusChanged}},
			{name: "resolve again changes nothing", request: pub("POST", conv(cv)+"/toggle_status", nil), wantStatus: http.StatusOK,
				want: H{"status": "resolved"}, wantEvents: []events.Kind{}},
			{name: "a message reopens it", request: pub("POST", conv(cv)+"/messages", H{"content": "One more thing"}),
				wantStatus: http.StatusOK, wantEvents: []events.Kind{events.ConversationStatusChanged, events.MessageCreated}},
		})
	})
}

func TestPublicAPIRateLimits(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		limits := visitors.Limits{
			PerAddress: throttle.Config{Burst: 6, Every: time.Hour},
			PerVisitor: throttle.Config{Burst: 2, Every: time.Hour},
		}
		a := newAppWith(t, e, server.Config{Channels: &acceptingChannels{}, AuthLimits: &accounts.UnthrottledAuthLimits, VisitorLimits: &limits})
		p := a.newPublicInbox("Site API", H{"type": "api"})
		sid, _ := a.visitor(p, H{"name": "Vera"}) // address: 1 of 6
		show := pub("GET", p.path("/contacts/%s", sid), nil)
		a.run(t, []scenario{
			status("the visitor's first request", show, http.StatusOK),
			status("its second", show, http.StatusOK),
			{name: "its third: too many for one visitor", request: show, wantStatus: http.StatusTooManyRequests,
				check: func(t *testing.T, r *response) {
					if r.Header.Get("Retry-After") == "" {
						t.Error("a 429 without Retry-After")
					}
				}},
			status("another visitor is still served", pub("POST", p.path("/contacts"), H{"name": "Otto"}), http.StatusOK),
			status("unknown paths count too", pub("GET", p.path("/contacts/nobody"), nil), http.StatusNotFound),
			{name: "then the address is out of requests", request: pub("POST", p.path("/contacts"), H{"name": "Flood"}),
				wantStatus: http.StatusTooManyRequests, wantEvents: []events.Kind{}},
			status("the agents' API is not throttled by it", request{method: "GET", path: a.path("/inboxes")}, http.StatusOK),
		})
	})
}
