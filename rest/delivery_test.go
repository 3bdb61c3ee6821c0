package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/http/httptest"
	netmail "net/mail"
	"net/textproto"
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
	"github.com/switchboard/switchboard/internal/webhook"
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
		waitFor(t, "the free-form reply to be delivered", func() bool { st, _ := a.messageStatus(conv, m.int(t, "id")); return st == "delivered" })
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

func TestAccountWebhooksAreSignedAndLogged(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		hook := newReceiver(t, http.StatusOK)
		a := newDeliveryApp(t, e, "")
		_, agent := a.agent(a.Account)
		var secret string
		var hookID int
		a.run(t, []scenario{
			status("an agent cannot subscribe", request{method: "POST", path: a.path("/webhooks"), token: agent,
				body: H{"url": hook.URL, "subscriptions": []string{"contact_created"}}}, http.StatusForbidden),
			invalid("an unknown event is refused", request{method: "POST", path: a.path("/webhooks"),
				body: H{"url": hook.URL, "subscriptions": []string{"everything"}}}, "subscriptions"),
			invalid("a URL is required", request{method: "POST", path: a.path("/webhooks"),
				body: H{"subscriptions": []string{"contact_created"}}}, "url"),
			{
				name:       "create answers the secret once",
				request:    request{method: "POST", path: a.path("/webhooks"), body: H{"url": hook.URL, "subscriptions": []string{"contact_created", "conversation_created"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.webhook.url": hook.URL, "payload.webhook.subscriptions": []any{"contact_created", "conversation_created"}},
				check: func(t *testing.T, r *response) {
					secret, hookID = r.str(t, "payload.webhook.secret"), r.int(t, "payload.webhook.id")
				},
			},
		})
		if len(secret) < 10 || secret[:6] != "whsec_" {
			t.Fatalf("secret %q is not whsec_...", secret)
		}
		a.run(t, []scenario{{
			name:       "the list never shows the secret",
			request:    request{method: "GET", path: a.path("/webhooks")},
			wantStatus: http.StatusOK,
			want:       map[string]any{"payload.webhooks.#": 1, "payload.webhooks.0.secret": absent},
		}})

		a.contact(a.apiInbox("API"), H{"name": "Signed"})
		waitFor(t, "the contact_created webhook", func() bool { return len(hook.requests()) >= 1 })
		got := hook.requests()[0]
		if err := webhook.Verify(secret, got.Header, got.Body, time.Now(), 5*time.Minute); err != nil {
			t.Errorf("the webhook does not verify with the subscription's secret: %v", err)
		}
		var body map[string]any
		if err := json.Unmarshal(got.Body, &body); err != nil || body["event"] != "contact_created" || body["name"] != "Signed" {
			t.Errorf("webhook body %s, want contact_created for Signed", got.Body)
		}
		// Deliveries may arrive out of order: each says when its change happened.
		if at, err := time.Parse(time.RFC3339, fmt.Sprint(body["occurred_at"])); err != nil || time.Since(at) > time.Minute {
			t.Errorf("webhook occurred_at %v, want the time of the change", body["occurred_at"])
		}
		// One wire format: the webhook's contact is the REST API's contact.
		shown := a.mustDo(request{method: "GET", path: a.path("/contacts/%v", body["id"])}, http.StatusOK)
		sameObject(t, "the contact_created webhook", body, mustGet(t, shown, "payload"), "event", "occurred_at", "account", "contact_inboxes")
		waitFor(t, "the delivery log to say delivered", func() bool {
			r := a.mustDo(request{method: "GET", path: a.path("/webhooks/%d/deliveries", hookID)}, http.StatusOK)
			st, _ := r.get("payload.0.status")
			return st == "delivered"
		})
		r := a.mustDo(request{method: "GET", path: a.path("/webhooks/%d/deliveries", hookID)}, http.StatusOK)
		logged, _ := json.Marshal(mustGet(t, r, "payload.0.payload"))
		var a1, a2 any
		_ = json.Unmarshal(logged, &a1)
		_ = json.Unmarshal(got.Body, &a2)
		if !jsonEqual(a1, a2) || r.str(t, "payload.0.delivery_id") != got.Header.Get("webhook-id") {
			t.Errorf("the log differs from what was sent:\nlog  %s (%s)\nsent %s (%s)", logged, r.str(t, "payload.0.delivery_id"), got.Body, got.Header.Get("webhook-id"))
		}
		cv := a.mustDo(request{method: "POST", path: a.path("/conversations"), body: H{"inbox_id": a.apiInbox("API 2"),
			"contact_id": body["id"]}}, http.StatusOK).int(t, "id")
		waitFor(t, "the conversation_created webhook", func() bool { return len(hook.requests()) >= 2 })
		var convBody map[string]any
		_ = json.Unmarshal(hook.requests()[1].Body, &convBody)
		shownConv := a.mustDo(request{method: "GET", path: a.path("/conversations/%d", cv)}, http.StatusOK)
		sameObject(t, "the conversation_created webhook", convBody, shownConv.JSON, "event", "occurred_at", "messages")
	})
}

func mustGet(t *testing.T, r *response, path string) any {
	t.Helper()
	v, ok := r.get(path)
	if !ok {
		t.Fatalf("no %s in %s", path, r)
	}
	return v
}

// sameObject fails unless the webhook body and the REST object have the same
// keys with the same values, but for the keys named as belonging to one side.
func sameObject(t *testing.T, what string, hook map[string]any, rest any, oneSided ...string) {
	t.Helper()
	restObj, _ := rest.(map[string]any)
	for _, k := range oneSided {
		delete(hook, k)
		delete(restObj, k)
	}
	if !jsonEqual(hook, restObj) {
		t.Errorf("%s differs from the REST object:\nwebhook %v\nREST    %v", what, hook, restObj)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// smtpServer is a local SMTP server speaking just enough of RFC 5321 for
// net/smtp (greeting, EHLO/HELO without extensions, MAIL, RCPT, DATA, RSET,
// NOOP, QUIT). It records every accepted mail and answers RCPT TO with
// rcptReply, so a test can make it refuse recipients.
type smtpServer struct {
	ln net.Listener
	// rcptReply answers RCPT TO in the n-th session (from 1).
	rcptReply func(session int) string
	// silent servers accept connections and never greet.
	silent   bool
	mu       sync.Mutex
	sessions int
	mails    []smtpMail
}

// smtpMail is one mail as the server received it: the envelope and the
// data, dot-stuffing undone.
type smtpMail struct {
	Helo, From string
	To         []string
	Data       []byte
}

func newSMTPServer(t *testing.T, rcptReply string) *smtpServer {
	t.Helper()
	return startSMTPServer(t, &smtpServer{rcptReply: func(int) string { return rcptReply }})
}

func startSMTPServer(t *testing.T, s *smtpServer) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.ln = ln
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return // closed
			}
			go s.serve(conn)
		}
	}()
	t.Cleanup(func() { _ = ln.Close() })
	return s
}

func (s *smtpServer) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *smtpServer) serve(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	s.mu.Lock()
	s.sessions++
	session := s.sessions
	s.mu.Unlock()
	if s.silent {
		_, _ = io.Copy(io.Discard, conn) // until the client gives up
		return
	}
	tp := textproto.NewConn(conn)
	reply := func(line string) { _ = tp.PrintfLine("%s", line) }
	reply("220 smtp.test ESMTP stand-in")
	var m smtpMail
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO", "HELO":
			m = smtpMail{Helo: arg}
			reply("250 smtp.test")
		case "MAIL":
			m.From = envelopeAddress(arg)
			reply("250 2.1.0 OK")
		case "RCPT":
			answer := s.rcptReply(session)
			reply(answer)
			if strings.HasPrefix(answer, "2") {
				m.To = append(m.To, envelopeAddress(arg))
			}
		case "DATA":
			if m.From == "" || len(m.To) == 0 {
				reply("503 5.5.1 need MAIL and RCPT first")
				continue
			}
			reply("354 end data with <CR><LF>.<CR><LF>")
			data, err := tp.ReadDotBytes()
			if err != nil {
				return
			}
			m.Data = data
			s.mu.Lock()
			s.mails = append(s.mails, m)
			s.mu.Unlock()
			m = smtpMail{Helo: m.Helo}
			reply("250 2.0.0 queued")
		case "RSET":
			m = smtpMail{Helo: m.Helo}
			reply("250 2.0.0 OK")
		case "NOOP":
			reply("250 2.0.0 OK")
		case "QUIT":
			reply("221 2.0.0 bye")
			return
		default:
			reply("502 5.5.2 command not implemented")
		}
	}
}

// envelopeAddress is the address of "FROM:<a@b>" or "TO:<a@b> PARAM=...".
func envelopeAddress(arg string) string {
	_, addr, _ := strings.Cut(arg, ":")
	addr, _, _ = strings.Cut(strings.TrimSpace(addr), " ")
	return strings.Trim(addr, "<>")
}

func (s *smtpServer) received() (sessions int, mails []smtpMail) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions, append([]smtpMail(nil), s.mails...)
}

func smtpChannel(address string, srv *smtpServer) H {
	ch := emailChannel(address)
	ch["smtp_address"] = "127.0.0.1"
	ch["smtp_port"] = srv.port()
	ch["smtp_domain"] = "acme.test"
	return ch
}

func TestEmailChannelDelivery(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		accepting := newSMTPServer(t, "250 2.1.5 OK")
		refusing := newSMTPServer(t, "554 5.7.1 Recipient address rejected: access denied")
		a := newDeliveryApp(t, e, "")
		good := a.inbox("Support", smtpChannel("support@acme.test", accepting))
		bad := a.inbox("Refusing", smtpChannel("help@acme.test", refusing))

		ct, _ := a.contact(good, H{"name": "Ann", "email": "ann@customer.test"})
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": good, "contact_id": ct})
		// Several lines, one starting with a dot (SMTP stuffs it), and
		// non-ASCII text (sent quoted-printable).
		content := "Hello Ann,\n.the dot line stays\nDanke schön — ça marche."
		m := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": content}}, http.StatusOK)
		id := m.int(t, "id")
		waitFor(t, "the e-mail to be delivered", func() bool { st, _ := a.messageStatus(conv, id); return st == "delivered" })

		sessions, mails := accepting.received()
		if sessions != 1 || len(mails) != 1 {
			t.Fatalf("the SMTP server had %d sessions and %d mails, want 1 and 1", sessions, len(mails))
		}
		got := mails[0]
		if got.From != "support@acme.test" || len(got.To) != 1 || got.To[0] != "ann@customer.test" || got.Helo != "acme.test" {
			t.Errorf("envelope HELO %q MAIL FROM %q RCPT TO %q, want acme.test, the inbox's address, the contact's", got.Helo, got.From, got.To)
		}
		mail, err := netmail.ReadMessage(bytes.NewReader(got.Data))
		if err != nil {
			t.Fatalf("the data is not an e-mail: %v\n%s", err, got.Data)
		}
		if to, err := mail.Header.AddressList("To"); err != nil || len(to) != 1 || to[0].Address != "ann@customer.test" {
			t.Errorf("To: %q (%v), want the contact", mail.Header.Get("To"), err)
		}
		if from, err := mail.Header.AddressList("From"); err != nil || len(from) != 1 || from[0].Address != "support@acme.test" {
			t.Errorf("From: %q (%v), want the inbox's address", mail.Header.Get("From"), err)
		}
		if subject := mail.Header.Get("Subject"); !strings.Contains(subject, fmt.Sprintf("[#%d]", conv)) {
			t.Errorf("Subject: %q, want the conversation's number", subject)
		}
		var body io.Reader = mail.Body
		if strings.EqualFold(mail.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			body = quotedprintable.NewReader(body)
		}
		text, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimRight(strings.ReplaceAll(string(text), "\r\n", "\n"), "\n"); got != content {
			t.Errorf("the body reads %q, want the message's content %q", got, content)
		}

		// A server refusing the recipient with 5xx fails the message at
		// once: another attempt would be refused the same way.
		ct2, _ := a.contact(bad, H{"name": "Bob", "email": "bob@customer.test"})
		conv2 := a.startConversation(a.Account, a.Admin, H{"inbox_id": bad, "contact_id": ct2})
		m2 := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv2), body: H{"content": "lost"}}, http.StatusOK)
		waitFor(t, "the e-mail to fail", func() bool { st, _ := a.messageStatus(conv2, m2.int(t, "id")); return st == "failed" })
		if _, reason := a.messageStatus(conv2, m2.int(t, "id")); !strings.Contains(reason, "554") {
			t.Errorf("content_attributes.external_error is %q, want the server's 554 refusal", reason)
		}
		// A failed message is due for nothing more: no attempt can follow.
		if due := a.srv.DB.Client.Message.GetX(sys(), m2.int(t, "id")).NextDeliveryAt; due != nil {
			t.Errorf("the failed e-mail is still due for delivery at %v", due)
		}
		if sessions, mails := refusing.received(); sessions != 1 || len(mails) != 0 {
			t.Errorf("the refusing server had %d sessions and %d mails, want 1 and none", sessions, len(mails))
		}
	})
}

func TestEmailChannelRetries(t *testing.T) {
	outboundtest.AllowPrivate(t, true)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		// 4xx is a temporary refusal: the next attempt goes through.
		busy := startSMTPServer(t, &smtpServer{rcptReply: func(session int) string {
			if session == 1 {
				return "451 4.3.0 try again later"
			}
			return "250 2.1.5 OK"
		}})
		// A server that never answers holds an attempt only until the
		// SMTP timeout; then it is retried, and fails in the end.
		silent := startSMTPServer(t, &smtpServer{silent: true})
		a := newDeliveryApp(t, e, "")
		send := func(srv *smtpServer, name string) (conv, id int) {
			ib := a.inbox(name, smtpChannel("support@acme.test", srv))
			ct, _ := a.contact(ib, H{"name": name, "email": strings.ToLower(name) + "@customer.test"})
			conv = a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
			m := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": "hello"}}, http.StatusOK)
			return conv, m.int(t, "id")
		}
		conv, id := send(busy, "Busy")
		waitFor(t, "the e-mail to be delivered on the second attempt", func() bool { st, _ := a.messageStatus(conv, id); return st == "delivered" })
		if sessions, mails := busy.received(); sessions != 2 || len(mails) != 1 {
			t.Errorf("the busy server had %d sessions and %d mails, want 2 and 1", sessions, len(mails))
		}

		started := time.Now()
		conv, id = send(silent, "Silent")
		waitFor(t, "the e-mail to fail", func() bool { st, _ := a.messageStatus(conv, id); return st == "failed" })
		if _, reason := a.messageStatus(conv, id); !strings.Contains(reason, "timeout") {
			t.Errorf("content_attributes.external_error is %q, want a timeout", reason)
		}
		if sessions, _ := silent.received(); sessions != 1+fastRetries.Messages.Retries() {
			t.Errorf("the silent server had %d sessions, want %d (an attempt and the retries)", sessions, 1+fastRetries.Messages.Retries())
		}
		if took := time.Since(started); took > 6*time.Second {
			t.Errorf("failing took %s: attempts are not bounded by the 1-second SMTP timeout", took)
		}
	})
}

// A private SMTP address is refused when configured (outbound_urls_test.go);
// one stored before the guard, or while the opt-out was on, is refused again
// when dialled.
func TestEmailChannelRefusesPrivateAddresses(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		srv := newSMTPServer(t, "250 2.1.5 OK")
		a := newDeliveryApp(t, e, "")
		outboundtest.AllowPrivate(t, true)
		ib := a.inbox("Support", smtpChannel("support@acme.test", srv))
		outboundtest.AllowPrivate(t, false)
		a.mustDo(request{method: "POST", path: a.path("/inboxes"), body: H{"name": "Again", "channel": smtpChannel("again@acme.test", srv)}},
			http.StatusUnprocessableEntity)
		ct, _ := a.contact(ib, H{"name": "Ann", "email": "ann@customer.test"})
		conv := a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
		m := a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", conv), body: H{"content": "hi"}}, http.StatusOK)
		waitFor(t, "the e-mail to fail", func() bool { st, _ := a.messageStatus(conv, m.int(t, "id")); return st == "failed" })
		if _, reason := a.messageStatus(conv, m.int(t, "id")); !strings.Contains(reason, "not allowed") {
			t.Errorf("content_attributes.external_error is %q, want the address guard's refusal", reason)
		}
		if sessions, _ := srv.received(); sessions != 0 {
			t.Errorf("the SMTP server on 127.0.0.1 was reached %d times without SWITCHBOARD_ALLOW_PRIVATE_NETWORKS", sessions)
		}
	})
}
