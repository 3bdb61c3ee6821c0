package rest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/ent/privacy"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// A visitor reads as a visitor viewer: the privacy rules (not the public
// API's code) keep other visitors' conversations and messages, and private
// notes, away from them, for every operation of the API.
func TestVisitorReadsOnlyTheirOwnThroughTheRules(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		p := a.newPublicInbox("Site API", H{"type": "api"})
		me, _ := a.visitor(p, H{"name": "Vera", "identifier": "vera-1", "identifier_hash": p.sign("vera-1")})
		other, _ := a.visitor(p, H{"name": "Otto"})
		mine := a.visitorConversation(p, me)
		theirs := a.visitorConversation(p, other)
		say := func(cv int, body H) int {
			return a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", cv), body: body}, http.StatusOK).int(t, "id")
		}
		note := say(mine, H{"content": "INTERNAL about Vera", "private": true,
			"content_type": "input_select", "content_attributes": H{"items": []H{{"title": "A", "value": "a"}}}})
		say(mine, H{"content": "Hello Vera"})
		ottoForm := say(theirs, H{"content": "FOR OTTO", "content_type": "input_select",
			"content_attributes": H{"items": []H{{"title": "A", "value": "a"}}}})
		// The same verified person on a second device sees the first one's
		// conversation; an unverified visitor never sees another's.
		device2, _ := a.visitor(p, H{"identifier": "vera-1", "identifier_hash": p.sign("vera-1")})
		conv := func(who string, id int) string { return p.path("/contacts/%s/conversations/%d", who, id) }
		answer := H{"submitted_values": []H{{"value": "a"}}}
		a.run(t, []scenario{
			{name: "my list lacks the other visitor's conversation", request: pub("GET", p.path("/contacts/%s/conversations", me), nil),
				wantStatus: http.StatusOK, want: H{"*.id": []any{float64(mine)}}, check: bodyLacks("FOR OTTO", "INTERNAL")},
			{name: "the other visitor's list lacks mine", request: pub("GET", p.path("/contacts/%s/conversations", other), nil),
				wantStatus: http.StatusOK, want: H{"*.id": []any{float64(theirs)}}, check: bodyLacks("Hello Vera", "INTERNAL")},
			{name: "a verified second device sees the history", request: pub("GET", p.path("/contacts/%s/conversations", device2), nil),
				wantStatus: http.StatusOK, want: H{"*.id": []any{float64(mine)}}, check: bodyLacks("INTERNAL")},
			{name: "another's conversation", request: pub("GET", conv(me, theirs), nil), wantStatus: http.StatusNotFound},
			{name: "another's messages", request: pub("GET", conv(me, theirs)+"/messages", nil), wantStatus: http.StatusNotFound},
			{name: "my messages lack the private note", request: pub("GET", conv(me, mine)+"/messages", nil),
				wantStatus: http.StatusOK, want: H{"#": 1.0, "*.content": []any{"Hello Vera"}}, check: bodyLacks("INTERNAL")},
			{name: "answering a private note: not found", request: pub("PATCH", conv(me, mine)+fmt.Sprintf("/messages/%d", note), answer),
				wantStatus: http.StatusNotFound, wantEvents: []events.Kind{}},
			{name: "answering another's message through my conversation", request: pub("PATCH", conv(me, mine)+fmt.Sprintf("/messages/%d", ottoForm), answer),
				wantStatus: http.StatusNotFound, wantEvents: []events.Kind{}},
			{name: "answering another's message in their conversation", request: pub("PATCH", conv(me, theirs)+fmt.Sprintf("/messages/%d", ottoForm), answer),
				wantStatus: http.StatusNotFound, wantEvents: []events.Kind{}},
			{name: "writing into another's conversation", request: pub("POST", conv(me, theirs)+"/messages", H{"content": "sneaky"}),
				wantStatus: http.StatusNotFound, wantEvents: []events.Kind{}},
			{name: "resolving another's conversation", request: pub("POST", conv(me, theirs)+"/toggle_status", nil),
				wantStatus: http.StatusNotFound, wantEvents: []events.Kind{}},
			{name: "marking another's conversation seen", request: pub("POST", conv(me, theirs)+"/update_last_seen", nil),
				wantStatus: http.StatusNotFound, wantEvents: []events.Kind{}},
		})

		// Past the API: a visitor viewer reads no other entity and writes
		// nothing, whatever code asks.
		db := a.srv.Svc.DB
		ctx := viewer.VisitorContext(context.Background(), a.Account, p.id, other)
		if _, err := db.Inbox.Query().All(ctx); !errors.Is(err, privacy.Deny) {
			t.Errorf("a visitor read the inboxes: %v", err)
		}
		if n, err := db.Contact.Query().Count(ctx); err != nil || n != 1 {
			t.Errorf("a visitor counts %d contacts (%v), want only their own", n, err)
		}
		if n, err := db.Message.Query().Count(ctx); err != nil || n != 1 {
			t.Errorf("a visitor counts %d messages (%v), want the one in their conversation", n, err)
		}
		if err := db.Conversation.UpdateOneID(theirs).SetPriority("urgent").Exec(ctx); !errors.Is(err, privacy.Deny) {
			t.Errorf("a visitor viewer wrote a conversation: %v", err)
		}
	})
}
