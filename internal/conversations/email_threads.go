package conversations

import (
	"context"
	"regexp"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/core"
)

// ourMessageID is the Message-ID delivery gives an outgoing e-mail
// (internal/delivery/email.go): it names the conversation by its uuid.
var ourMessageID = regexp.MustCompile(`^conversation/([0-9a-fA-F-]{36})/messages/[0-9]+@switchboard$`)

// IsOwnMessageID tells whether id (without angle brackets) is the
// Message-ID of a mail the service sent: such a mail in a mailbox is not a
// customer's.
func IsOwnMessageID(id string) bool { return ourMessageID.MatchString(id) }

// EmailThread is the display id of the inbox's conversation an e-mail
// continues, from the Message-IDs it refers to, most relevant first
// (In-Reply-To, then References newest first): one of our own mails names
// its conversation; an earlier mail of the customer is a message stored
// with that id. 0: the mail starts a thread.
func (s *Service) EmailThread(ctx context.Context, ib *ent.Inbox, refs []string) (int, error) {
	ctx = core.AsChannel(ctx, ib.AccountID)
	c := s.Client(ctx)
	for _, ref := range refs {
		cv, err := s.referencedConversation(ctx, c, ib, ref)
		if err != nil {
			return 0, err
		}
		if cv != nil {
			return cv.DisplayID, nil
		}
	}
	return 0, nil
}

func (s *Service) referencedConversation(ctx context.Context, c *ent.Client, ib *ent.Inbox, ref string) (*ent.Conversation, error) {
	var q *ent.ConversationQuery
	if m := ourMessageID.FindStringSubmatch(ref); m != nil {
		q = c.Conversation.Query().Where(conversation.InboxID(ib.ID), conversation.UUID(m[1]))
	} else {
		q = c.Conversation.Query().Where(conversation.InboxID(ib.ID),
			conversation.HasMessagesWith(message.InboxID(ib.ID), message.SourceID(ref)))
	}
	cv, err := q.First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return cv, err
}
