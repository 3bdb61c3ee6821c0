package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Two more accounts set the inbox's number up too: one with another Meta
// app (its own secret), one with the same app (the same secret). A post
// goes to the inbox whose secret signed it; of inboxes sharing the secret,
// to the oldest; a post no candidate's secret signed stores nothing in any.
func TestWhatsAppWebhookNumberSharedByAccounts(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWhatsAppApp(t, e, nil)
		sameNumber := func(secret string) H {
			return H{"type": "whatsapp", "phone_number": waNumber, "provider_config": H{"api_key": waAPIKey,
				"phone_number_id": waPhoneID, "business_account_id": "waba-1", "app_secret": secret}}
		}
		otherApp, otherAdmin := w.otherAccount("OtherApp")
		other := w.inboxIn(otherApp, otherAdmin, "WhatsApp", sameNumber("another-app-secret"))
		sameApp, sameAdmin := w.otherAccount("SameApp")
		same := w.inboxIn(sameApp, sameAdmin, "WhatsApp", sameNumber(waSecret))
		holds := func(want map[int]int) func(t *testing.T, _ *response) {
			return func(t *testing.T, _ *response) {
				t.Helper()
				for ib, n := range want {
					got, err := w.srv.DB.Client.Message.Query().Where(message.InboxID(ib)).Count(sys())
					if err != nil || got != n {
						t.Errorf("inbox %d holds %d messages (%v), want %d", ib, got, err, n)
					}
				}
			}
		}
		first, second := waText("wamid.shared-1", "Hello"), waText("wamid.shared-2", "Hello again")
		w.run(t, []scenario{
			{name: "signed with the other app's secret: the other account's inbox", wantStatus: http.StatusOK,
				request: waPost(waNumber, first, waSign("another-app-secret", first)), want: answered(1, 0, 0, 0),
				check: holds(map[int]int{w.inboxID: 0, other: 1, same: 0})},
			{name: "signed with the shared secret: the oldest inbox with it", wantStatus: http.StatusOK,
				request: signed(second), want: answered(1, 0, 0, 0),
				check: holds(map[int]int{w.inboxID: 1, other: 1, same: 0})},
			{name: "signed with no candidate's secret: refused, stored nowhere", wantStatus: http.StatusUnauthorized,
				request: waPost(waNumber, waText("wamid.shared-3", "x"), waSign("guess", first)),
				check:   holds(map[int]int{w.inboxID: 1, other: 1, same: 0})},
			{name: "unsigned: refused before any inbox is read, stored nowhere", wantStatus: http.StatusUnauthorized,
				request: waPost(waNumber, waText("wamid.shared-4", "x"), ""),
				check:   holds(map[int]int{w.inboxID: 1, other: 1, same: 0})},
			{name: "a signature of the wrong length is refused", wantStatus: http.StatusUnauthorized,
				request: waPost(waNumber, first, "sha256=abcd"), check: holds(map[int]int{w.inboxID: 1, other: 1, same: 0})},
		})
	})
}
