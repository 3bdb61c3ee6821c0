package rest_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net"
	"net/http"
	netmail "net/mail"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

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
