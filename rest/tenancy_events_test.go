package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Background work runs as the system; the events it writes must still go to
// the account's own webhooks only.
func TestEventsOfBackgroundWorkStayInTheirAccount(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.apiInbox("API")
		ct, _ := a.contact(ib, H{"name": "Ann"})
		accB, adminB := a.otherAccount("Globex")
		hookB := a.mustDo(request{method: "POST", path: accountPath(accB, "/webhooks"), token: adminB, body: H{
			"url": "https://hooks.example.com/b", "subscriptions": []string{
				"message_created", "message_updated", "conversation_created",
				"scheduled_message.updated", "scheduled_message.sent", "scheduled_message.failed"}}}, http.StatusOK).int(t, "payload.webhook.id")
		at := time.Now().Add(1500 * time.Millisecond).UTC()
		id := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{
			"inbox_id": ib, "contact_id": ct, "content": "secret of account A", "scheduled_at": at.Format(time.RFC3339Nano),
		}}, http.StatusOK).int(t, "id")
		a.waitForScheduleStatus(id, "sent")
		for _, d := range a.srv.DB.Client.WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(hookB)).AllX(sys()) {
			t.Errorf("account B's webhook got %s of account A: %.200s", d.Event, d.Payload)
		}
	})
}
