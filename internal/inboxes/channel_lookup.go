package inboxes

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/core"
)

// ChannelKey names inboxes of one channel type by the setting of their
// channel that names them to the outside (schematype.Channel.Key, kept in
// the indexed channel_key column): a WhatsApp number, an API inbox's
// inbox_identifier, a web widget's website_token.
type ChannelKey struct {
	Type  inbox.ChannelType
	Value string
}

// InboxesByChannelKey finds up to limit inboxes, oldest first, that any of
// keys names, in whichever account they are: a channel's request (a
// provider's webhook, a visitor) names its inbox before it is verified, and
// the caller must prove it against that inbox's own secret or identifier
// before acting for it (core.AsInboxLookup).
func (s *Service) InboxesByChannelKey(ctx context.Context, limit int, keys ...ChannelKey) ([]*ent.Inbox, error) {
	ors := make([]predicate.Inbox, 0, len(keys))
	for _, k := range keys {
		if k.Value != "" { // "" is every inbox without a key
			ors = append(ors, inbox.And(inbox.ChannelKey(k.Value), inbox.ChannelTypeEQ(k.Type)))
		}
	}
	if len(ors) == 0 {
		return nil, nil
	}
	ibs, err := s.Client(ctx).Inbox.Query().Where(inbox.Or(ors...)).
		Order(ent.Asc(inbox.FieldID)).Limit(limit).All(core.AsInboxLookup(ctx))
	return ibs, core.ApperrOrNil(err)
}
