package conversations

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/messagedeliveryattempt"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// MessageAttempts is the attempt log of a message's delivery through its
// channel, latest first: for whoever may see the message.
func (s *Service) MessageAttempts(ctx context.Context, displayID, messageID int) ([]*ent.MessageDeliveryAttempt, error) {
	cv, err := s.conversationOf(ctx, displayID)
	if err != nil {
		return nil, err
	}
	m, err := s.Client(ctx).Message.Query().Where(message.ID(messageID), message.ConversationID(cv.ID)).Only(ctx)
	if err != nil {
		return nil, apperr.From(core.NotFound(err, "Message"))
	}
	atts, err := m.QueryAttemptLog().Order(ent.Desc(messagedeliveryattempt.FieldID)).
		Limit(core.MaxAttemptsListed).All(ctx)
	return atts, core.ApperrOrNil(err)
}
