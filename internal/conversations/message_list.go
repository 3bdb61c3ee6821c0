package conversations

import (
	"context"
	"slices"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/apperr"
)

// Message history pages by message id (keyset), never by offset, so a page
// costs the same on the millionth message as on the first.
const (
	// MessagesPerPage is the length of a page of history.
	MessagesPerPage      = 20
	messagesAfterLimit   = 100
	messagesBetweenLimit = 1000
)

// MessagePage is a page of a conversation's messages, oldest first.
type MessagePage struct {
	Conversation *ent.Conversation
	Messages     []*ent.Message
}

// Messages returns a page of a conversation's history: without bounds the
// newest 20; before=id the 20 older than id; after=id up to 100 newer than
// id; both, up to 1000 between them. Pages are oldest first.
func (s *Service) Messages(ctx context.Context, displayID int, before, after *int) (*MessagePage, error) {
	cv, err := s.conversationOf(ctx, displayID)
	if err != nil {
		return nil, err
	}
	preds := []predicate.Message{message.ConversationID(cv.ID)}
	if before != nil {
		preds = append(preds, message.IDLT(*before))
	}
	if after != nil {
		preds = append(preds, message.IDGT(*after))
	}
	q := s.Client(ctx).Message.Query().Where(preds...).WithAttachments()
	var msgs []*ent.Message
	switch {
	case after != nil && before != nil:
		msgs, err = q.Order(ent.Asc(message.FieldID)).Limit(messagesBetweenLimit).All(ctx)
	case after != nil:
		msgs, err = q.Order(ent.Asc(message.FieldID)).Limit(messagesAfterLimit).All(ctx)
	default:
		msgs, err = q.Order(ent.Desc(message.FieldID)).Limit(MessagesPerPage).All(ctx)
		slices.Reverse(msgs)
	}
	if err != nil {
		return nil, apperr.From(err)
	}
	return &MessagePage{Conversation: cv, Messages: msgs}, nil
}
