package mailin_test

import (
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/mailboxstate"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/mailin"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestMain lets testdb stop the PostgreSQL cluster it starts.
func TestMain(m *testing.M) { testdb.Main(m) }

const wait = 15 * time.Second

// waitMessages waits until the inbox holds n messages and returns them.
func (w *world) waitMessages(t *testing.T, n int) []*ent.Message {
	t.Helper()
	var ms []*ent.Message
	apitest.Eventually(t, wait, itoa(n)+" messages", func() bool { ms = w.messages(t); return len(ms) >= n })
	if len(ms) != n {
		t.Fatalf("%d messages, want %d", len(ms), n)
	}
	return ms
}

// A new mail starts a conversation with its sender as a new contact; a
// reply to our mail threads into that conversation (reopening it, where
// without the thread a new one would start), its quoted history trimmed;
// an HTML-only mail becomes text; an attachment is stored. The fetcher
// waits in IDLE: the poll interval is far longer than the test.
func TestFetcherStoresNewMailThreadsRepliesAndKeepsFiles(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e, imapPassword)
		heard := apitest.Listen(t, w.hub, w.inbox.AccountID)
		w.mailbox.deliver(t, mail("first@example.test", "Where is my parcel?", "Hello,\nit has not arrived.\n\n-- \nAnn"))
		w.fetcher(t, mailin.Options{PollInterval: time.Hour})
		first := w.waitMessages(t, 1)[0]
		heard.Await(t, []events.Kind{events.ContactCreated, events.ConversationCreated, events.MessageCreated})
		if first.Content == nil || *first.Content != "Hello,\nit has not arrived." || first.ContentType != "incoming_email" {
			t.Errorf("first message: %v (%s), want the text without the signature", first.Content, first.ContentType)
		}
		email, _ := first.ContentAttributes["email"].(map[string]any)
		if email["subject"] != "Where is my parcel?" || email["message_id"] != "first@example.test" {
			t.Errorf("content_attributes.email = %v", email)
		}
		cv := w.svc.DB.Conversation.GetX(sys(), first.ConversationID)
		ct := w.svc.DB.Contact.GetX(sys(), cv.ContactID)
		if ct.Email == nil || *ct.Email != "ann@example.test" || ct.Name != "Ann Example" {
			t.Errorf("contact %v <%v>, want Ann Example <ann@example.test>", ct.Name, ct.Email)
		}
		w.svc.DB.Conversation.UpdateOneID(cv.ID).SetStatus("resolved").ExecX(sys())

		apitest.Settle(t, w.hub, w.inbox.AccountID)
		heard = apitest.Listen(t, w.hub, w.inbox.AccountID)
		ours := "<conversation/" + cv.UUID + "/messages/1@switchboard>"
		w.mailbox.deliver(t, mail("reply@example.test", "Re: Where is my parcel?",
			"Found it, thanks!\n\nOn Mon, 1 Jan 2024 at 10:00, Acme <help@acme.test> wrote:\n> It is on its way.",
			"In-Reply-To: "+ours, "References: <first@example.test> "+ours))
		reply := w.waitMessages(t, 2)[1]
		heard.Await(t, []events.Kind{events.ConversationStatusChanged, events.MessageCreated})
		if reply.ConversationID != cv.ID || reply.Content == nil || *reply.Content != "Found it, thanks!" {
			t.Errorf("reply in conversation %d with %q; want %d with the quote trimmed", reply.ConversationID, deref(reply.Content), cv.ID)
		}

		heard = apitest.Listen(t, w.hub, w.inbox.AccountID)
		w.mailbox.deliver(t, strings.Replace(mail("html@example.test", "Photo", `<html><body><p>Here is <b>the</b> label:</p>
<blockquote>old quote</blockquote></body></html>`, "Cc: bob@example.test"), "text/plain", "text/html", 1))
		w.mailbox.deliver(t, `From: Ann Example <ann@example.test>
Subject: Label
Message-ID: <file@example.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b"

--b
Content-Type: text/plain

See the file.
--b
Content-Type: application/pdf; name="label.pdf"
Content-Disposition: attachment; filename="label.pdf"
Content-Transfer-Encoding: base64

JVBERi0xLjQK
--b--`)
		ms := w.waitMessages(t, 4)
		heard.Await(t, []events.Kind{events.MessageCreated, events.MessageCreated})
		if got := deref(ms[2].Content); got != "Here is the label:" {
			t.Errorf("the HTML mail became %q, want its text without the quote", got)
		}
		if cc, _ := ms[2].ContentAttributes["email"].(map[string]any)["cc"].([]any); len(cc) != 1 || cc[0] != "bob@example.test" {
			t.Errorf("cc %v, want bob@example.test", cc)
		}
		files := ms[3].Edges.Attachments
		if len(files) != 1 || files[0].FileType != "file" || deref(ms[3].Content) != "See the file." {
			t.Errorf("the mail with a PDF stored %v with %q", files, deref(ms[3].Content))
		}
	})
}

// Each mail is stored once, also by a fetcher started again after a
// restart that lost its progress (it fetches the mailbox anew). Two
// instances at once: lease_test.go.
func TestFetcherStoresEachMailOnce(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e, imapPassword)
		for i := 1; i <= 3; i++ {
			w.mailbox.deliver(t, mail("m"+itoa(i)+"@example.test", "Mail "+itoa(i), "Body "+itoa(i)))
		}
		w.mailbox.deliver(t, mail("", "No Message-ID", "Body without id"))
		heard := apitest.Listen(t, w.hub, w.inbox.AccountID)
		a, stopA := w.fetcher(t, mailin.Options{PollOnly: true})
		apitest.Eventually(t, wait, "the fetcher at the last mail", func() bool { return a.Seen(w.inbox.ID) == 4 })
		w.waitMessages(t, 4)
		heard.Await(t, []events.Kind{events.ContactCreated, events.ConversationCreated,
			events.MessageCreated, events.MessageCreated, events.MessageCreated, events.MessageCreated})

		// A restart that lost the progress fetches everything again.
		stopA()
		w.svc.DB.MailboxState.Delete().Where(mailboxstate.InboxID(w.inbox.ID)).ExecX(sys())
		heard = apitest.Listen(t, w.hub, w.inbox.AccountID)
		again, stop := w.fetcher(t, mailin.Options{})
		apitest.Eventually(t, wait, "the new fetcher at the last mail", func() bool { return again.Seen(w.inbox.ID) == 4 })
		w.mailbox.deliver(t, mail("m5@example.test", "Mail 5", "Body 5"))
		w.waitMessages(t, 5)
		// The progress is recorded just after the mail is stored: stopping
		// between the two leaves it behind (the next start fetches the mail
		// again and stores nothing), so wait for it before stopping.
		var st *ent.MailboxState
		apitest.Eventually(t, wait, "the progress at the fifth mail", func() bool {
			st = w.svc.DB.MailboxState.Query().Where(mailboxstate.InboxID(w.inbox.ID)).OnlyX(sys())
			return st.LastUID == 5
		})
		stop()
		heard.Await(t, []events.Kind{events.MessageCreated})
		if st.UIDValidity == 0 || st.LastError != "" {
			t.Errorf("progress: uid %d validity %d error %q; want uid 5 and no error", st.LastUID, st.UIDValidity, st.LastError)
		}
	})
}

// Wrong credentials: the error is recorded on the mailbox's state (and
// retried with backoff), nothing is stored.
func TestFetcherRecordsALoginFailure(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e, "wrong-password")
		w.mailbox.deliver(t, mail("m1@example.test", "Hello", "Body"))
		heard := apitest.Listen(t, w.hub, w.inbox.AccountID)
		_, stop := w.fetcher(t, mailin.Options{})
		var st *ent.MailboxState
		apitest.Eventually(t, wait, "the recorded login error", func() bool {
			st, _ = w.svc.DB.MailboxState.Query().Where(mailboxstate.InboxID(w.inbox.ID)).Only(sys())
			return st != nil && st.LastError != ""
		})
		stop()
		heard.Expect(t, nil)
		if !strings.Contains(st.LastError, "login") || strings.Contains(st.LastError, "wrong-password") || st.FailedAt == nil {
			t.Errorf("recorded error %q at %v; want a login error without the password", st.LastError, st.FailedAt)
		}
		if n := len(w.messages(t)); n != 0 {
			t.Errorf("%d messages stored with wrong credentials", n)
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
