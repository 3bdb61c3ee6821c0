package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestASnoozeEnds: a snoozed conversation reopens when its time comes, as
// in Chatwoot, with conversation_status_changed; one still snoozed, or
// woken already, is left as it is. (The job runner calls WakeSnoozed once
// a minute; here it is called directly.)
func TestASnoozeEnds(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		snooze := func() int {
			cv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
			a.mustDo(request{method: "POST", path: a.path("/conversations/%d/toggle_status", cv),
				body: H{"status": "snoozed", "snoozed_until": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}}, http.StatusOK)
			return cv
		}
		due, later := snooze(), snooze()
		a.srv.DB.Client.Conversation.Update().Where(conversation.AccountID(a.Account), conversation.DisplayID(due)).
			SetSnoozedUntil(time.Now().Add(-time.Minute)).ExecX(sys())

		heard := apitest.Listen(t, a.srv.Events, a.Account)
		if n, err := a.srv.Svc.WakeSnoozed(sys()); err != nil || n != 1 {
			t.Fatalf("WakeSnoozed: %d woken, %v; want 1", n, err)
		}
		heard.Expect(t, []events.Kind{events.ConversationStatusChanged})
		if n, err := a.srv.Svc.WakeSnoozed(sys()); err != nil || n != 0 {
			t.Errorf("WakeSnoozed again: %d woken, %v; want none", n, err)
		}
		show := func(cv int) request { return request{method: "GET", path: a.path("/conversations/%d", cv)} }
		a.run(t, []scenario{
			{name: "the due one is open, its time cleared", request: show(due), wantStatus: http.StatusOK,
				want: map[string]any{"status": "open", "snoozed_until": nil}},
			{name: "the other still sleeps", request: show(later), wantStatus: http.StatusOK,
				want: map[string]any{"status": "snoozed", "snoozed_until": isoTime}},
		})
	})
}
