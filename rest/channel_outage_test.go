package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/jobs"
	"github.com/switchboard/switchboard/internal/outbound"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestAChannelOutageLosesNothing: a channel that answers 503 for longer
// than the old six attempts took (about a minute then; here the retry
// schedule is scaled down, waits doubling to 100 ms within an hour's
// budget) loses no message: while it is down each message shows it is
// retrying, and once it is back every message is delivered, each
// conversation's in the order they were written.
func TestAChannelOutageLosesNothing(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		rc := newReceiver(t, http.StatusServiceUnavailable)
		scaled := jobs.Backoff{First: 10 * time.Millisecond, Max: 100 * time.Millisecond, Budget: time.Hour}
		a := newAppWith(t, e, server.Config{
			Channels: &delivery.Dispatcher{HTTP: outbound.NewClient(5 * time.Second)},
			Retries:  jobs.Retries{Messages: scaled, Webhooks: scaled}})
		ib := a.inbox("Flaky", H{"type": "api", "webhook_url": rc.URL})
		type sent struct{ conv, id int }
		var messages []sent
		for c := range 3 {
			ct, _ := a.contact(ib, H{"name": "Customer " + itoa(c)})
			conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
			for range 3 {
				id := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv),
					body: H{"content": "message"}}, http.StatusOK).int(t, "id")
				messages = append(messages, sent{conv, id})
			}
		}
		// Down until the first message has been tried more often than the
		// old budget allowed.
		first := messages[0]
		waitFor(t, "eight attempts at the first message", func() bool {
			d, _ := a.listedMessage(first.conv, first.id)["delivery"].(map[string]any)
			return d["attempts"] != nil && d["attempts"].(float64) >= 8
		})
		d, _ := a.listedMessage(first.conv, first.id)["delivery"].(map[string]any)
		if st, _ := a.messageStatus(first.conv, first.id); st != "sent" || d["state"] != "retrying" || d["next_attempt_at"] == nil {
			t.Errorf("during the outage the first message is %s with delivery %v, want sent and retrying", st, d)
		}
		rc.setStatus(http.StatusOK)
		for _, m := range messages {
			waitFor(t, "every message to be delivered", func() bool { st, _ := a.messageStatus(m.conv, m.id); return st == "delivered" })
		}
		// What the channel accepted, in the order it arrived: each message
		// once, each conversation's in the order written.
		convOf := map[int]int{}
		for _, m := range messages {
			convOf[m.id] = m.conv
		}
		accepted := map[int][]int{}
		count := map[int]int{}
		for _, r := range rc.requests() {
			var body struct {
				ID int `json:"id"`
			}
			if r.Status != http.StatusOK || json.Unmarshal(r.Body, &body) != nil {
				continue
			}
			count[body.ID]++
			accepted[convOf[body.ID]] = append(accepted[convOf[body.ID]], body.ID)
		}
		for _, m := range messages {
			if count[m.id] != 1 {
				t.Errorf("message %d was accepted %d times, want once", m.id, count[m.id])
			}
		}
		for conv, ids := range accepted {
			if !slices.IsSorted(ids) {
				t.Errorf("conversation %d: the channel took its messages in the order %v", conv, ids)
			}
		}
	})
}
