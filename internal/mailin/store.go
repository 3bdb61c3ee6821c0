package mailin

import (
	"context"
	"errors"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/mailboxstate"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
)

// cursor is where a session stands in its mailbox.
type cursor struct {
	validity uint32
	last     uint32
	// first: nothing of this mailbox (with this UIDVALIDITY) was read yet.
	first bool
}

// openCursor reads the inbox's progress for the mailbox's UIDVALIDITY,
// starting over (a first sync) when it changed: the old UIDs name nothing
// now. It clears the last error: the session got in.
func (f *Fetcher) openCursor(ctx context.Context, inboxID int, validity uint32) (*cursor, error) {
	ctx = core.AsBackgroundWork(ctx)
	c := f.svc.DB
	// The state row is there: the session runs under the lease, which made
	// it. Keep the progress; only the error is cleared.
	err := c.MailboxState.Update().Where(mailboxstate.InboxID(inboxID)).SetLastError("").ClearFailedAt().Exec(ctx)
	if err != nil {
		return nil, errorf("reading the mailbox's progress", err)
	}
	st, err := c.MailboxState.Query().Where(mailboxstate.InboxID(inboxID)).Only(ctx)
	if err != nil {
		return nil, errorf("reading the mailbox's progress", err)
	}
	if st.UIDValidity != int64(validity) {
		// Another UIDVALIDITY: start over from it (only if no other
		// instance did so meanwhile).
		if err := c.MailboxState.Update().Where(mailboxstate.InboxID(inboxID), mailboxstate.UIDValidity(st.UIDValidity)).
			SetUIDValidity(int64(validity)).SetLastUID(0).Exec(ctx); err != nil {
			return nil, errorf("resetting the mailbox's progress", err)
		}
		return &cursor{validity: validity, first: true}, nil
	}
	return &cursor{validity: validity, last: uint32(st.LastUID), first: st.LastUID == 0}, nil
}

// advance moves the cursor to uid, and the stored progress too unless
// another instance got further.
func (f *Fetcher) advance(ctx context.Context, inboxID int, cur *cursor, uid uint32) error {
	if uid <= cur.last {
		return nil
	}
	cur.last = uid
	err := f.svc.DB.MailboxState.Update().Where(mailboxstate.InboxID(inboxID),
		mailboxstate.UIDValidity(int64(cur.validity)), mailboxstate.LastUIDLT(int64(uid))).
		SetLastUID(int64(uid)).Exec(core.AsBackgroundWork(ctx))
	if err != nil {
		return errorf("saving the mailbox's progress", err)
	}
	return nil
}

// recordError keeps the session's last error on the inbox's state row.
func (f *Fetcher) recordError(ctx context.Context, inboxID int, cause error) error {
	// The state row is there: sessions run under the lease, which made it.
	return f.svc.DB.MailboxState.Update().Where(mailboxstate.InboxID(inboxID)).
		SetLastError(clip(cause.Error(), 1000)).SetFailedAt(time.Now().UTC()).
		Exec(core.AsBackgroundWork(context.WithoutCancel(ctx)))
}

// receive parses a mail and stores it as an incoming message. A mail that
// cannot become a message (no sender, nothing to say, one of ours) is
// skipped; other errors end the session, which retries it.
func (f *Fetcher) receive(ctx context.Context, ib *ent.Inbox, uid imap.UID, raw []byte) error {
	m, err := Parse(raw, Limits{MaxFiles: core.MaxAttachments, MaxFileSize: f.maxFileSize()})
	if err != nil {
		f.skip(ib, uid, err.Error())
		return nil
	}
	if conversations.IsOwnMessageID(m.MessageID) {
		f.skip(ib, uid, "the service sent this mail")
		return nil
	}
	displayID, err := f.svc.EmailThread(ctx, ib, threadRefs(m))
	if err != nil {
		return errorf("threading a mail", err)
	}
	content := m.Text
	if content == "" && len(m.Files) == 0 {
		content = m.Subject
	}
	_, dup, err := f.svc.Receive(ctx, conversations.Inbound{
		Inbox: ib, SourceID: m.SourceID, Content: content, ContentType: message.ContentTypeIncomingEmail,
		From:              contacts.Sender{SourceID: m.FromAddress, Name: m.FromName, Email: m.FromAddress},
		ContentAttributes: attributes(m), Files: m.Files, ConversationDisplayID: displayID,
	})
	var ae *apperr.Error
	switch {
	case errors.As(err, &ae) && (ae.Kind == apperr.KindInvalid || ae.Kind == apperr.KindBadRequest):
		f.skip(ib, uid, err.Error())
		return nil
	case err != nil:
		return errorf("storing a mail", err)
	case dup:
		f.metrics.mails.WithLabelValues("duplicate").Inc()
	default:
		f.metrics.mails.WithLabelValues("stored").Inc()
	}
	return nil
}

func (f *Fetcher) maxFileSize() int64 {
	if f.svc.Files == nil {
		return 0
	}
	return f.svc.Files.MaxFileSize()
}

// skip logs a mail that will not become a message; the cursor moves past
// it, so it is not fetched again.
func (f *Fetcher) skip(ib *ent.Inbox, uid imap.UID, why string) {
	f.metrics.mails.WithLabelValues("skipped").Inc()
	f.log.Warn("mail fetcher: skipped a mail", "inbox_id", ib.ID, "uid", uint32(uid), "reason", why)
}

// threadRefs are the Message-IDs a mail answers, the most telling first:
// In-Reply-To, then References newest first.
func threadRefs(m *Mail) []string {
	refs := make([]string, 0, len(m.References)+1)
	if m.InReplyTo != "" {
		refs = append(refs, m.InReplyTo)
	}
	for i := len(m.References) - 1; i >= 0; i-- {
		refs = append(refs, m.References[i])
	}
	return refs
}

// attributes are the message's content_attributes, in Chatwoot's shape
// for an incoming e-mail.
func attributes(m *Mail) map[string]any {
	email := map[string]any{
		"subject": m.Subject, "from": []string{m.FromAddress}, "to": m.To, "cc": m.CC,
		"in_reply_to": m.InReplyTo, "message_id": m.MessageID,
	}
	if !m.Date.IsZero() {
		email["date"] = m.Date.UTC().Format(time.RFC3339)
	}
	attrs := map[string]any{"email": email}
	if len(m.Skipped) > 0 {
		attrs["skipped_attachments"] = m.Skipped
	}
	return attrs
}
