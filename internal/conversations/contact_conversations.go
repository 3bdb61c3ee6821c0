package conversations

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// contactConversationsLimit bounds a contact's conversation list.
const contactConversationsLimit = 20

// ContactConversations returns a contact's latest 20 conversations, each
// with its last message (as the conversation list carries it).
func (s *Service) ContactConversations(ctx context.Context, id int) ([]*ent.Conversation, error) {
	if _, err := s.Client(ctx).Contact.Get(ctx, id); err != nil {
		return nil, apperr.From(core.NotFound(err, "Contact"))
	}
	convs, err := s.Client(ctx).Conversation.Query().Where(conversation.ContactID(id)).
		Order(ent.Desc(conversation.FieldLastActivityAt), ent.Desc(conversation.FieldID)).
		Limit(contactConversationsLimit).WithContact().WithInbox().All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	if err := s.attachLastMessages(ctx, convs); err != nil {
		return nil, err
	}
	return convs, nil
}
