package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestContactActivityMovesWithTheContactsOwnMessages: a contact's last
// activity is when they were last heard from, as Chatwoot keeps it
// (Message#update_contact_activity): their own message moves it; an agent's
// reply or private note moves only the conversation's.
func TestContactActivityMovesWithTheContactsOwnMessages(t *testing.T) {
	cases := []struct {
		name  string
		body  H
		moves bool // the contact's last activity
	}{
		{"an agent's reply", H{"content": "On it", "message_type": "outgoing"}, false},
		{"a private note", H{"content": "Called her", "message_type": "outgoing", "private": true}, false},
		{"the contact's own message", H{"content": "Any news?", "message_type": "incoming"}, true},
	}
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.apiInbox("Web")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		display := a.conversation(a.Account, ib, ct)
		db := a.srv.DB.Client
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				contactWas := *db.Contact.GetX(sys(), ct).LastActivityAt
				cv := db.Conversation.Query().Where(conversation.DisplayID(display)).OnlyX(sys())
				a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", display), body: tc.body}, http.StatusOK)
				contactNow := *db.Contact.GetX(sys(), ct).LastActivityAt
				cvNow := db.Conversation.GetX(sys(), cv.ID)
				if !cvNow.LastActivityAt.After(cv.LastActivityAt) {
					t.Errorf("the conversation's last activity stayed %v", cvNow.LastActivityAt)
				}
				if moved := contactNow.After(contactWas); moved != tc.moves {
					t.Errorf("the contact's last activity %v (was %v): moved %v, want %v", contactNow, contactWas, moved, tc.moves)
				}
			})
		}
	})
}
