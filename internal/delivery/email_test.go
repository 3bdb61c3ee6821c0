package delivery

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/quotedprintable"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/schema/schematype"
	"github.com/switchboard/switchboard/internal/outbound"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
)

func emailJob(content string) Job {
	return Job{
		Message:      &ent.Message{ID: 42, Content: ptr(content)},
		Conversation: &ent.Conversation{DisplayID: 12, UUID: "c0ffee"},
		Inbox: &ent.Inbox{Name: "Support", BusinessName: "Acme Café", ChannelType: inbox.ChannelTypeEmail,
			Channel: schematype.Channel{Email: "support@acme.test"}},
		Contact: &ent.Contact{Email: ptr("ada@example.test")},
	}
}

// The e-mail is plain text in quoted-printable with CRLF line ends; the
// business name (or the inbox name) is the sender's name and the subject,
// encoded when not ASCII; header values stay on their line.
func TestEmailBody(t *testing.T) {
	job := emailJob("Grüße,\nyour order ships.\r\nAda")
	msg := string(emailBody(job, "support@acme.test", "ada@example.test"))
	head, body, ok := strings.Cut(msg, "\r\n\r\n")
	if !ok {
		t.Fatalf("no blank line between header and body:\n%q", msg)
	}
	r := textproto.NewReader(bufio.NewReader(strings.NewReader(head + "\r\n\r\n")))
	h, err := r.ReadMIMEHeader()
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"From":                      "=?utf-8?q?Acme_Caf=C3=A9?= <support@acme.test>",
		"To":                        "<ada@example.test>",
		"Subject":                   "=?utf-8?q?[#12]_Acme_Caf=C3=A9?=",
		"Message-Id":                "<conversation/c0ffee/messages/42@switchboard>",
		"Mime-Version":              "1.0",
		"Content-Type":              "text/plain; charset=utf-8",
		"Content-Transfer-Encoding": "quoted-printable",
	} {
		if got := h.Get(key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if _, err := time.Parse(time.RFC1123Z, h.Get("Date")); err != nil {
		t.Errorf("Date %q: %v", h.Get("Date"), err)
	}
	decoded, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Grüße,\r\nyour order ships.\r\nAda\r\n"; string(decoded) != want {
		t.Errorf("body decodes to %q, want %q", decoded, want)
	}

	job.Inbox.BusinessName = ""
	job.Inbox.Name = "Support\r\nBcc: eve@evil.test"
	msg = string(emailBody(job, "support@acme.test", "ada@example.test\nCc: eve@evil.test"))
	if strings.Contains(msg, "\r\nBcc:") || strings.Contains(msg, "\r\nCc:") || strings.Contains(msg, "\nCc:") {
		t.Errorf("a line break in a header value started a header of its own:\n%s", msg)
	}
	if !strings.Contains(msg, "\r\nTo: <ada@example.test Cc: eve@evil.test>\r\n") ||
		!strings.Contains(msg, "From: Support Bcc: eve@evil.test <support@acme.test>\r\n") {
		t.Errorf("header values were not kept on their line:\n%s", msg)
	}
}

// smtpServer is a minimal SMTP server on 127.0.0.1 for one connection: it
// offers no STARTTLS and no AUTH, answers RCPT with rcptReply, and sends
// what the client said (commands and the message) on done when the
// connection ends.
type smtpServer struct {
	addr string
	done chan []string
}

func newSMTPServer(t *testing.T, rcptReply string) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &smtpServer{addr: ln.Addr().String(), done: make(chan []string, 1)}
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			s.done <- nil
			return
		}
		defer conn.Close()
		s.done <- converse(textproto.NewConn(conn), rcptReply)
	}()
	return s
}

func converse(c *textproto.Conn, rcptReply string) []string {
	var said []string
	reply := func(line string) bool { return c.PrintfLine("%s", line) == nil }
	if !reply("220 mail.acme.test ESMTP") {
		return said
	}
	for {
		line, err := c.ReadLine()
		if err != nil {
			return said
		}
		said = append(said, line)
		cmd := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch cmd {
		case "EHLO", "HELO":
			reply("250-mail.acme.test\r\n250 8BITMIME")
		case "MAIL":
			reply("250 OK")
		case "RCPT":
			reply(rcptReply)
		case "DATA":
			reply("354 go ahead")
			data, err := c.ReadDotLines()
			if err != nil {
				return said
			}
			said = append(said, strings.Join(data, "\n"))
			reply("250 queued")
		case "QUIT":
			reply("221 bye")
			return said
		case "RSET", "NOOP":
			reply("250 OK")
		default:
			reply("502 not implemented")
		}
	}
}

// transcript waits for the server's conversation to end.
func (s *smtpServer) transcript(t *testing.T) []string {
	t.Helper()
	select {
	case said := <-s.done:
		return said
	case <-time.After(10 * time.Second):
		t.Fatal("the SMTP conversation did not end")
		return nil
	}
}

func smtpJob(t *testing.T, addr string) Job {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(port)
	job := emailJob("Your order ships.")
	job.Inbox.Channel.SMTP = &schematype.SMTPConfig{Address: host, Port: n, Domain: "acme.test"}
	return job
}

// An e-mail inbox sends through its SMTP server: HELO with its domain, the
// inbox's address as sender, the contact as recipient, the message as
// data. A 5xx answer fails the message for good, a 4xx is retried.
func TestDeliverEmail(t *testing.T) {
	outboundtest.AllowPrivate(t, true) // the server is on 127.0.0.1
	for _, tc := range []struct {
		name      string
		rcpt      string
		ok        bool
		permanent bool
	}{
		{"accepted", "250 OK", true, false},
		{"unknown recipient", "550 no such user", false, true},
		{"mailbox busy", "451 try again later", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newSMTPServer(t, tc.rcpt)
			_, err := NewDispatcher("").Deliver(context.Background(), smtpJob(t, srv.addr))
			said := srv.transcript(t)
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				if len(said) < 5 || said[0] != "EHLO acme.test" || said[1] != "MAIL FROM:<support@acme.test> BODY=8BITMIME" ||
					said[2] != "RCPT TO:<ada@example.test>" || said[3] != "DATA" || said[len(said)-1] != "QUIT" {
					t.Fatalf("the client said %q", said)
				}
				if data := said[4]; !strings.Contains(data, "\nSubject: =?utf-8?q?[#12]_Acme_Caf=C3=A9?=\n") ||
					!strings.HasSuffix(data, "\n\nYour order ships.") {
					t.Errorf("the message sent was\n%s", data)
				}
				return
			}
			if err == nil || IsPermanent(err) != tc.permanent || !strings.HasPrefix(err.Error(), "smtp: ") {
				t.Errorf("got %v (permanent %v), want permanent %v", err, IsPermanent(err), tc.permanent)
			}
			var te *textproto.Error
			if !errors.As(err, &te) || fmt.Sprint(te.Code) != tc.rcpt[:3] {
				t.Errorf("the SMTP reply is not kept in %v", err)
			}
		})
	}
}

// What no attempt can fix fails at once, without a connection.
func TestDeliverEmailWithoutWhatItNeeds(t *testing.T) {
	outboundtest.AllowPrivate(t, false)
	for _, tc := range []struct {
		name string
		edit func(*Job)
		want string
	}{
		{"no smtp", func(j *Job) { j.Inbox.Channel.SMTP = nil }, "email inbox has no SMTP settings"},
		{"no smtp address", func(j *Job) { j.Inbox.Channel.SMTP = &schematype.SMTPConfig{Port: 25} }, "email inbox has no SMTP settings"},
		{"contact without e-mail", func(j *Job) { j.Contact.Email = nil }, "the contact has no e-mail address"},
		{"contact with a blank e-mail", func(j *Job) { j.Contact.Email = ptr("") }, "the contact has no e-mail address"},
		{"no contact", func(j *Job) { j.Contact = nil }, "the contact has no e-mail address"},
		// The guard refuses loopback before dialing.
		{"server on loopback", func(j *Job) {}, "smtp: connect to 127.0.0.1: " + outbound.ErrForbiddenAddress.Error()},
	} {
		job := emailJob("Hi")
		job.Inbox.Channel.SMTP = &schematype.SMTPConfig{Address: "127.0.0.1", Port: 1}
		tc.edit(&job)
		if _, err := NewDispatcher("").Deliver(context.Background(), job); !IsPermanent(err) || err.Error() != tc.want {
			t.Errorf("%s: %v (permanent %v), want permanent %q", tc.name, err, IsPermanent(err), tc.want)
		}
	}
}
