package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestWhatsAppNewCustomersAtOnce: first messages of new customers posted at
// the same moment each start one conversation with a display id of its own.
// On PostgreSQL the id is taken before the conversation's transaction (see
// conversations.takesDisplayIDsApart); distinct new customers then number
// their conversations 1..n with no id left out, one customer's messages
// racing each other start one conversation, and a conversation started
// through the API afterwards takes the next id.
func TestWhatsAppNewCustomersAtOnce(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	cases := []struct {
		name string
		// posts are the senders of the posts sent at once.
		posts []string
		// customers is how many distinct senders they are.
		customers int
	}{
		{name: "twelve new customers, one first message each", posts: waSenders(12, 1), customers: 12},
		{name: "one new customer's six first messages at once", posts: waSenders(1, 6), customers: 1},
		{name: "four new customers, three first messages each", posts: waSenders(4, 3), customers: 4},
	}
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				w := newWhatsAppApp(t, e, nil)
				postAtOnce(t, w, tc.posts)
				ids := w.displayIDs(t)
				if len(ids) != tc.customers {
					t.Fatalf("%d conversations (display ids %v), want one for each of the %d customers", len(ids), ids, tc.customers)
				}
				if msgs := w.srv.DB.Client.Message.Query().Where(message.InboxID(w.inboxID)).CountX(sys()); msgs != len(tc.posts) {
					t.Errorf("%d messages stored, want %d", msgs, len(tc.posts))
				}
				if len(slices.Compact(slices.Clone(ids))) != len(ids) {
					t.Errorf("display ids %v repeat", ids)
				}
				if tc.customers == len(tc.posts) && ids[len(ids)-1] != len(ids) {
					// No sender raced itself: no id taken was left unused.
					t.Errorf("display ids %v, want 1..%d", ids, len(ids))
				}
				ct, _ := w.contact(w.inboxID, H{"name": "After the burst", "phone_number": "+491779999999"})
				next := w.startConversation(w.Account, w.Admin, H{"inbox_id": w.inboxID, "contact_id": ct})
				if next <= ids[len(ids)-1] {
					t.Errorf("a conversation started afterwards is #%d, want more than #%d", next, ids[len(ids)-1])
				}
			})
		}
	})
}

// waSenders are the senders of perCustomer first messages from each of
// customers new customers, interleaved.
func waSenders(customers, perCustomer int) []string {
	var out []string
	for range perCustomer {
		for c := range customers {
			out = append(out, fmt.Sprintf("4917700000%02d", c))
		}
	}
	return out
}

// postAtOnce posts one text message from each sender, all at the same time,
// and fails unless every post is answered 200 with one message stored.
func postAtOnce(t *testing.T, w *waApp, senders []string) {
	t.Helper()
	start := make(chan struct{})
	failures := make(chan string, len(senders))
	var wg sync.WaitGroup
	for i, from := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg := waMessage(fmt.Sprintf("wamid.at-once-%d", i), "text", H{"body": "Hello"})
			msg["from"] = from
			body := waEnvelope([]H{msg}, nil)
			<-start
			if status, raw := postSigned(w, body); status != http.StatusOK || raw != `{"duplicates":0,"ignored":0,"messages":1,"statuses":0}` {
				failures <- fmt.Sprintf("post %d from %s: %d %s", i, from, status, raw)
			}
		}()
	}
	close(start)
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

// postSigned sends a signed webhook post (safe from many goroutines: it
// reports instead of failing the test).
func postSigned(w *waApp, body []byte) (int, string) {
	req := httptest.NewRequest(http.MethodPost, "/webhooks/whatsapp/"+waNumber, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Hub-Signature-256", waSign(waSecret, body))
	res, err := w.srv.App.Test(req, -1)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		return res.StatusCode, string(raw)
	}
	return res.StatusCode, compact.String()
}

// displayIDs are the display ids of the inbox's conversations, in order.
func (w *waApp) displayIDs(t *testing.T) []int {
	t.Helper()
	var ids []int
	for _, cv := range w.srv.DB.Client.Conversation.Query().Where(conversation.InboxID(w.inboxID)).AllX(sys()) {
		ids = append(ids, cv.DisplayID)
	}
	slices.Sort(ids)
	return ids
}
