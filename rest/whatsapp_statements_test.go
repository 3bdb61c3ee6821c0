package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// maxStatementsWritingOn bounds the statements of a webhook post with one
// message of a customer writing on in their open conversation: the
// redelivery check, the sender's conversation (found by their contact
// inbox's source id, before the transaction), then the message, the
// conversation's and the contact's activity and the account's webhooks (the
// transaction); the inbox the number names was remembered from the post
// before. It was 10 before the transaction only wrote, 8 while the contact
// inbox was read on its own, 7 while the inbox was read for every post.
const maxStatementsWritingOn = 6

// maxStatementsNewSender bounds the statements of a webhook post with a
// new sender's first message: the inbox, the redelivery check, the
// sender's contact inbox (before the transaction and in it), their contact
// by phone, the conversation's display id, then the new contact, contact
// inbox, conversation and message and the account's webhooks. Nobody else
// sees the new rows, so no conversation is looked for or locked, and the
// activity is written with the rows, not after them: it was 15 on
// PostgreSQL and 17 on SQLite, now 10 and 12.
const maxStatementsNewSender = 12

// TestWhatsAppPostStatements: a new sender's first message and a known
// customer's next one cost a fixed few statements, the latter's
// transaction only writing (see conversations.receiveToCurrent).
func TestWhatsAppPostStatements(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a, n := newCountingApp(t, e)
		a.mustDo(request{method: "POST", path: a.path("/inboxes"), body: H{"name": "WhatsApp", "channel": H{
			"type": "whatsapp", "phone_number": waNumber, "provider_config": H{"api_key": waAPIKey,
				"phone_number_id": waPhoneID, "business_account_id": "waba-1", "app_secret": waSecret}}}}, http.StatusOK)
		before := n.Load()
		a.mustDo(signed(waText("wamid.first", "Hello")), http.StatusOK)
		if d := n.Load() - before; d > maxStatementsNewSender {
			t.Errorf("a new sender's first message took %d statements, want at most %d", d, maxStatementsNewSender)
		} else {
			t.Logf("%s: a new sender's first message takes %d statements", e.Name, d)
		}
		fewest := int64(-1)
		for i := range 5 {
			before := n.Load()
			a.mustDo(signed(waText(fmt.Sprintf("wamid.next-%d", i), "One more thing")), http.StatusOK)
			if d := n.Load() - before; fewest < 0 || d < fewest {
				fewest = d
			}
		}
		if fewest > maxStatementsWritingOn {
			t.Errorf("a known customer's next message took %d statements, want at most %d", fewest, maxStatementsWritingOn)
		}
		t.Logf("%s: a known customer's next message takes %d statements", e.Name, fewest)
	})
}
