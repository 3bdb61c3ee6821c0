package schema

import (
	"context"

	"entgo.io/ent"

	gen "github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/hook"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/viewer"
)

// incomingFromUsersOnAPIInboxes: a user (through any API, or a conversation
// created with its first message) may record a customer's incoming message
// only on an API inbox, whose customers reach us through that API. On other
// channels incoming messages come from the channel itself, which the system
// receives.
func incomingFromUsersOnAPIInboxes() ent.Hook {
	return hook.On(func(next ent.Mutator) ent.Mutator {
		return hook.MessageFunc(func(ctx context.Context, m *gen.MessageMutation) (ent.Value, error) {
			mt, set := m.MessageType()
			v, _ := viewer.FromContext(ctx)
			if !set || mt != message.MessageTypeIncoming || !v.IsMember() {
				return next.Mutate(ctx, m)
			}
			inboxID, _ := m.InboxID()
			ib, err := m.Client().Inbox.Get(ctx, inboxID)
			if err != nil {
				return nil, err
			}
			if ib.ChannelType != inbox.ChannelTypeAPI {
				return nil, apperr.Invalid("Incoming messages can be created on API inboxes only", "message_type")
			}
			return next.Mutate(ctx, m)
		})
	}, ent.OpCreate)
}
