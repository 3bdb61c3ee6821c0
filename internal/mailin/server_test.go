package mailin_test

import (
	"bytes"
	"context"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/mailin"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/storage"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

const (
	imapLogin    = "help@acme.test"
	imapPassword = "imap-test-password"
)

// mailbox is go-imap's in-memory IMAP server on 127.0.0.1 with one user
// and its INBOX.
type mailbox struct {
	user *imapmemserver.User
	port int
	// connections counts the connections the server accepted.
	connections atomic.Int32
}

func startMailbox(t *testing.T) *mailbox {
	t.Helper()
	user := imapmemserver.NewUser(imapLogin, imapPassword)
	if err := user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mb := &mailbox{user: user}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			mb.connections.Add(1)
			return flushingIdle{imapmemserver.NewUserSession(user)}, nil, nil
		},
		InsecureAuth: true, // plain text on the loopback
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		Logger:       discard{},
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	mb.port = ln.Addr().(*net.TCPAddr).Port
	return mb
}

// flushingIdle reports the mailbox's changes when IDLE starts, as real
// servers do (Dovecot checks the mailbox at once): the in-memory server
// only reports those made after it, so a mail delivered between the
// fetcher's last command and its IDLE went unnoticed until the next poll.
type flushingIdle struct{ *imapmemserver.UserSession }

func (s flushingIdle) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	if err := s.Poll(w, true); err != nil {
		return err
	}
	return s.UserSession.Idle(w, stop)
}

type discard struct{}

func (discard) Printf(string, ...any) {}

// literal is a mail as APPEND takes it.
type literal struct {
	*bytes.Reader
	size int64
}

func (l literal) Size() int64 { return l.size }

// deliver puts a mail in the INBOX (header lines, a blank line, the body;
// "\n" becomes CRLF).
func (mb *mailbox) deliver(t *testing.T, mail string) {
	t.Helper()
	raw := []byte(strings.ReplaceAll(mail, "\n", "\r\n"))
	if _, err := mb.user.Append("INBOX", literal{bytes.NewReader(raw), int64(len(raw))}, &imap.AppendOptions{Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// world is an account with an e-mail inbox fetching from a mailbox.
type world struct {
	svc     *ops.Service
	hub     *events.Hub
	inbox   *ent.Inbox
	mailbox *mailbox
}

func newWorld(t *testing.T, e testdb.Engine, password string) *world {
	t.Helper()
	outboundtest.AllowPrivate(t, true)
	mb := startMailbox(t)
	hub := events.NewHub()
	st, err := storage.Open(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	svc := ops.New(e.New(t).Client, ops.WithEvents(hub), ops.WithStorage(st))
	b, err := svc.Bootstrap(context.Background(), accounts.BootstrapInput{AccountName: "Acme", Email: "admin@acme.test", Name: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	admin := viewer.NewContext(context.Background(), viewer.Viewer{UserID: b.UserID, AccountID: b.AccountID, Role: viewer.RoleAdministrator})
	ib, err := svc.CreateInbox(admin, inboxes.InboxInput{Name: ptr("Help"), Channel: &inboxes.ChannelInput{
		Type: "email", Email: ptr("help@acme.test"), IMAP: &inboxes.IMAPInput{Enabled: ptr(true), Address: ptr("127.0.0.1"),
			Port: ptr(mb.port), Login: ptr(imapLogin), Password: ptr(password), EnableSSL: ptr(false)}}})
	if err != nil {
		t.Fatal(err)
	}
	return &world{svc: svc, hub: hub, inbox: ib, mailbox: mb}
}

func ptr[T any](v T) *T { return &v }

// fetcher starts a fetcher that polls every pollEvery (IDLE still wakes it
// at once); stop ends it and waits.
func (w *world) fetcher(t *testing.T, o mailin.Options) (f *mailin.Fetcher, stop func()) {
	t.Helper()
	if o.PollInterval == 0 {
		o.PollInterval = 50 * time.Millisecond
	}
	o.Backoff = 10 * time.Millisecond
	o.MaxBackoff = 50 * time.Millisecond
	f = mailin.New(w.svc, o)
	ctx, cancel := context.WithCancel(context.Background())
	f.Start(ctx)
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			f.Wait()
		}
	}
	t.Cleanup(stop)
	return f, stop
}

func sys() context.Context { return core.AsBackgroundWork(context.Background()) }

// messages are the inbox's messages, oldest first, with their attachments.
func (w *world) messages(t *testing.T) []*ent.Message {
	t.Helper()
	ms, err := w.svc.DB.Message.Query().Where(message.InboxID(w.inbox.ID)).WithAttachments().
		Order(ent.Asc(message.FieldID)).All(sys())
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// mail is a plain-text mail from Ann with the given extra header lines.
func mail(id, subject, body string, headers ...string) string {
	h := "From: Ann Example <ann@example.test>\nTo: help@acme.test\nSubject: " + subject +
		"\nDate: Mon, 01 Jan 2024 10:00:00 +0000\n"
	if id != "" {
		h += "Message-ID: <" + id + ">\n"
	}
	for _, l := range headers {
		h += l + "\n"
	}
	return h + "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n" + body + "\n"
}

func itoa(n int) string { return strconv.Itoa(n) }
