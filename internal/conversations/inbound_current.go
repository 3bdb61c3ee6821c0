package conversations

import (
	"context"
	"errors"

	"entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/core"
)

// errConversationMoved: the conversation receiveToCurrent read was resolved,
// snoozed or deleted before its transaction wrote the message.
var errConversationMoved = errors.New("the conversation changed since it was read")

// receiveToCurrent stores the message of a sender the inbox knows whose
// current conversation is open or pending: a customer writing on, most of
// what a channel brings. Their conversation is read (found by the contact
// inbox's source id, in one statement) before the transaction, so that it
// only writes (SQLite holds its one write lock for the whole of a write
// transaction, and every other writer waits that long). The write of the
// conversation's activity is guarded by the statuses it was read with: a
// conversation resolved or snoozed in between rolls the message back, and
// it answers nil, nil, as when there is no such sender or conversation, for
// receiveIn to store it the whole way (reopening, or starting, the
// conversation). startsNew says it found no
// conversation the message could continue: the whole way will most likely
// start one.
func (s *Service) receiveToCurrent(ctx context.Context, in Inbound, files []core.StoredFile) (m *ent.Message, startsNew bool, err error) {
	if ent.TxFromContext(ctx) != nil {
		// Inside a caller's transaction a rolled-back guess would not roll
		// back alone: the whole way, in that transaction.
		return nil, false, nil
	}
	c := s.Client(ctx)
	// The sender's contact inbox is not read on its own: its source id
	// finds their conversation, in one statement.
	cv, err := s.conversationFrom(ctx, c, in.Inbox, sentFrom(in.Inbox.ID, in.From.SourceID), in.ConversationDisplayID)
	if err != nil || cv == nil || !writingOn(cv) {
		return nil, err == nil && cv == nil, err
	}
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) (err error) {
		m, err = s.saveMessage(ctx, c, cv, inboundMessage(c, cv, in), files,
			saveRule{onlyIf: []predicate.Conversation{conversation.StatusIn(writingOnStatuses...)}})
		return err
	})
	if errors.Is(err, errConversationMoved) {
		return nil, false, nil
	}
	return m, false, err
}

// writingOnStatuses are those of a conversation a customer's message
// continues as it is (resolved and snoozed ones are reopened).
var writingOnStatuses = []conversation.Status{conversation.StatusOpen, conversation.StatusPending}

func writingOn(cv *ent.Conversation) bool {
	return cv.Status == conversation.StatusOpen || cv.Status == conversation.StatusPending
}

// sentFrom selects the conversations of the contact whose contact inbox in
// inbox inboxID has sourceID (at most one contact: the pair is unique).
func sentFrom(inboxID int, sourceID string) predicate.Conversation {
	return func(s *sql.Selector) {
		t := sql.Table(contactinbox.Table)
		s.Where(sql.In(s.C(conversation.FieldContactID), sql.Select(t.C(contactinbox.FieldContactID)).From(t).
			Where(sql.And(sql.EQ(t.C(contactinbox.FieldInboxID), inboxID), sql.EQ(t.C(contactinbox.FieldSourceID), sourceID)))))
	}
}
