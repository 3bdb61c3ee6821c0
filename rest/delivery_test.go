package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/jobs"
	"github.com/switchboard/switchboard/internal/outbound"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// receiver is a local HTTP endpoint that records what it is sent and
// answers with status.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	status int
	got    []received
}

type received struct {
	Header http.Header
	Body   []byte
	Status int // what the receiver answered
}

func newReceiver(t *testing.T, status int) *receiver {
	r := &receiver{status: status}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{Header: req.Header.Clone(), Body: body, Status: r.status})
		st, n := r.status, len(r.got)
		r.mu.Unlock()
		w.WriteHeader(st)
		// As the Cloud API: a new message id for each message sent.
		_, _ = fmt.Fprintf(w, `{"messages":[{"id":"wamid.TEST%d"}]}`, n)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// fastRetries keeps the retry schedule short enough for a test.
var fastRetries = jobs.Retries{
	Messages: jobs.Backoff{First: 10 * time.Millisecond, Max: 10 * time.Millisecond, Budget: 20 * time.Millisecond},
	Webhooks: jobs.Backoff{First: 10 * time.Millisecond, Max: 10 * time.Millisecond, Budget: 20 * time.Millisecond},
}

// newDeliveryApp is an app whose channels really send, to local receivers.
func newDeliveryApp(t *testing.T, e testdb.Engine, whatsAppBase string) *app {
	t.Helper()
	d := &delivery.Dispatcher{HTTP: outbound.NewClient(5 * time.Second), WhatsAppBase: whatsAppBase, SMTPTimeout: time.Second}
	return newAppWith(t, e, server.Config{Channels: d, Retries: fastRetries})
}

// waitFor polls until cond holds or fails the test after 10 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	apitest.Eventually(t, 10*time.Second, what, cond)
}

// messageStatus reads a message's status and external error from the list.
func (a *app) messageStatus(conv, id int) (string, string) {
	r := a.mustDo(request{method: "GET", path: a.path("/conversations/%d/messages", conv)}, http.StatusOK)
	for i := range r.ints(a.t, "payload.*.id") {
		if r.int(a.t, "payload."+itoa(i)+".id") == id {
			ext, _ := r.get("payload." + itoa(i) + ".content_attributes.external_error")
			s, _ := ext.(string)
			return r.str(a.t, "payload."+itoa(i)+".status"), s
		}
	}
	a.t.Fatalf("message %d not in conversation %d", id, conv)
	return "", ""
}

// handedOver reports whether the channel took message id of conv: for
// WhatsApp, which tells later when it reached the contact, the message is
// then still sent, its delivery accepted.
func (a *app) handedOver(conv, id int) bool {
	r := a.mustDo(request{method: "GET", path: a.path("/conversations/%d/messages", conv)}, http.StatusOK)
	for i := range r.ints(a.t, "payload.*.id") {
		if r.int(a.t, "payload."+itoa(i)+".id") == id {
			st, _ := r.get("payload." + itoa(i) + ".delivery.state")
			return st == "accepted" && r.str(a.t, "payload."+itoa(i)+".status") == "sent"
		}
	}
	return false
}

func TestAPIChannelDelivery(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		ok := newReceiver(t, http.StatusOK)
		down := newReceiver(t, http.StatusInternalServerError)
		a := newDeliveryApp(t, e, "")
		good := a.inbox("Good", H{"type": "api", "webhook_url": ok.URL})
		bad := a.inbox("Bad", H{"type": "api", "webhook_url": down.URL})

		ct, _ := a.contact(good, H{"name": "Ann"})
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": good, "contact_id": ct})
		m := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": "hello"}}, http.StatusOK)
		id := m.int(t, "id")
		// The runner may finish before the answer is written.
		if st := m.str(t, "status"); st != "sent" && st != "delivered" {
			t.Errorf("a new outgoing message is %q, want sent (or already delivered)", st)
		}
		waitFor(t, "the message to be delivered", func() bool { st, _ := a.messageStatus(conv, id); return st == "delivered" })
		reqs := ok.requests()
		if len(reqs) != 1 {
			t.Fatalf("receiver got %d requests, want 1", len(reqs))
		}
		var body map[string]any
		if err := json.Unmarshal(reqs[0].Body, &body); err != nil || body["event"] != "message_created" || body["content"] != "hello" {
			t.Errorf("receiver got %s, want a message_created event with the content", reqs[0].Body)
		}

		// A conversation's messages are delivered in order: once the reply
		// after the note is delivered, the note would have been too.
		note := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": "internal", "private": true}}, http.StatusOK)
		after := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": "after the note"}}, http.StatusOK)
		waitFor(t, "the reply after the note to be delivered", func() bool {
			st, _ := a.messageStatus(conv, after.int(t, "id"))
			return st == "delivered"
		})
		if st, _ := a.messageStatus(conv, note.int(t, "id")); st != "sent" || len(ok.requests()) != 2 {
			t.Errorf("a private note was delivered (status %s, %d requests, want 2: the messages before and after it)", st, len(ok.requests()))
		}
		if reqs := ok.requests(); len(reqs) == 2 && !strings.Contains(string(reqs[1].Body), "after the note") {
			t.Errorf("the second request was %s, want the reply after the note", reqs[1].Body)
		}

		ct2, _ := a.contact(bad, H{"name": "Bob"})
		conv2 := a.startConversation(a.Account, a.Admin, H{"inbox_id": bad, "contact_id": ct2})
		m2 := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv2), body: H{"content": "lost"}}, http.StatusOK)
		waitFor(t, "the message to fail", func() bool { st, _ := a.messageStatus(conv2, m2.int(t, "id")); return st == "failed" })
		if _, reason := a.messageStatus(conv2, m2.int(t, "id")); reason == "" {
			t.Error("a failed message has no content_attributes.external_error")
		}
		if n := len(down.requests()); n != 1+fastRetries.Messages.Retries() {
			t.Errorf("a failing receiver got %d attempts, want %d", n, 1+fastRetries.Messages.Retries())
		}
	})
}

func TestWhatsAppWindowAndTemplates(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		cloud := newReceiver(t, http.StatusOK)
		a := newDeliveryApp(t, e, cloud.URL)
		wa := whatsappChannel("+15550001000")
		wa["message_templates"] = []H{{"name": "order_update", "language": "en", "status": "APPROVED", "category": "UTILITY",
			"components": []H{{"type": "BODY", "text": "Hi {{1}}, order {{2}} shipped"}}}}
		ib := a.inbox("WA", wa)
		ct, _ := a.contact(ib, H{"name": "Maria", "phone_number": "+5511912345678"})
		tpl := func(params H) H {
			return H{"name": "order_update", "language": "en", "category": "UTILITY", "processed_params": params}
		}
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct,
			"message": H{"content": "Hi Maria, order 42 shipped", "template_params": tpl(H{"1": "Maria", "2": "42"})}})
		msgs := func() string { return a.path("/conversations/%d/messages", conv) }
		a.run(t, []scenario{
			invalid("free-form outside the 24-hour window is refused", request{method: "POST", path: msgs(), body: H{"content": "hello?"}}, "template_params"),
			invalid("a template that does not exist is refused", request{method: "POST", path: msgs(),
				body: H{"content": "x", "template_params": H{"name": "nope", "language": "en", "processed_params": H{"1": "a"}}}}, "template_params"),
			invalid("a missing placeholder is refused", request{method: "POST", path: msgs(),
				body: H{"content": "x", "template_params": tpl(H{"1": "Maria"})}}, "template_params"),
			invalid("an extra placeholder is refused", request{method: "POST", path: msgs(),
				body: H{"content": "x", "template_params": tpl(H{"1": "Maria", "2": "42", "3": "extra"})}}, "template_params"),
			status("a private note needs no template", request{method: "POST", path: msgs(), body: H{"content": "note", "private": true}}, http.StatusOK),
		})
		waitFor(t, "the template message to reach the Cloud API", func() bool { return len(cloud.requests()) >= 1 })
		first := cloud.requests()[0]
		if got := first.Header.Get("Authorization"); got != "Bearer key" {
			t.Errorf("Cloud API request authorization %q, want the inbox's bearer key", got)
		}
		var payload struct {
			To       string `json:"to"`
			Type     string `json:"type"`
			Template struct {
				Name       string `json:"name"`
				Components []struct {
					Parameters []struct{ Text string } `json:"parameters"`
				} `json:"components"`
			} `json:"template"`
		}
		if err := json.Unmarshal(first.Body, &payload); err != nil {
			t.Fatal(err)
		}
		if payload.Type != "template" || payload.Template.Name != "order_update" || payload.To != "5511912345678" ||
			len(payload.Template.Components) != 1 || len(payload.Template.Components[0].Parameters) != 2 ||
			payload.Template.Components[0].Parameters[1].Text != "42" {
			t.Errorf("Cloud API got %s, want the order_update template to 5511912345678 with parameters Maria, 42", first.Body)
		}

		// A customer message opens the window: free-form replies go out.
		if err := a.srv.DB.Client.Conversation.Update().Where(conversation.DisplayID(conv)).
			SetLastIncomingAt(time.Now().Add(-time.Hour)).Exec(viewer.SystemContext(context.Background())); err != nil {
			t.Fatal(err)
		}
		m := a.mustDo(request{method: "POST", path: msgs(), body: H{"content": "free text now"}}, http.StatusOK)
		waitFor(t, "the free-form reply to be handed over", func() bool { return a.handedOver(conv, m.int(t, "id")) })
		last := cloud.requests()[len(cloud.requests())-1]
		var text struct {
			Type string                `json:"type"`
			Text struct{ Body string } `json:"text"`
		}
		if json.Unmarshal(last.Body, &text); text.Type != "text" || text.Text.Body != "free text now" {
			t.Errorf("Cloud API got %s, want a text message", last.Body)
		}
	})
}
