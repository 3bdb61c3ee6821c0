package conversations

import (
	"context"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// AgentTyping tells the live listeners of a conversation the viewer may
// read that the viewer (an agent) started or stopped typing in it, as
// Chatwoot's toggle_typing_status. Nothing is stored and no webhook is sent:
// it matters only while someone watches.
func (s *Service) AgentTyping(ctx context.Context, displayID int, on bool) error {
	cv, err := s.conversationOf(ctx, displayID)
	if err != nil {
		return err
	}
	kind := events.ConversationTypingOff
	if on {
		kind = events.ConversationTypingOn
	}
	v, _ := viewer.FromContext(ctx)
	s.PublishAfterCommit(ctx, events.Event{AccountID: cv.AccountID, Kind: kind,
		ConversationID: cv.ID, InboxID: cv.InboxID, ContactID: cv.ContactID, UserID: v.UserID})
	return nil
}
