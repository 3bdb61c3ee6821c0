package inboxes

import (
	"context"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/core"
)

// ChannelKey names inboxes of one channel type by a setting of their
// channel: a WhatsApp number, an API inbox's inbox_identifier, a web
// widget's website_token.
type ChannelKey struct {
	Type  inbox.ChannelType
	Path  string // the setting's key in the channel JSON
	Value string
}

// InboxesByChannelKey finds up to limit inboxes, oldest first, that any of
// keys names, in whichever account they are: a channel's request (a
// provider's webhook, a visitor) names its inbox before it is verified, and
// the caller must prove it against that inbox's own secret or identifier
// before acting for it (core.AsInboxLookup).
func (s *Service) InboxesByChannelKey(ctx context.Context, limit int, keys ...ChannelKey) ([]*ent.Inbox, error) {
	ibs, err := s.Client(ctx).Inbox.Query().Where(func(sel *sql.Selector) {
		ors := make([]*sql.Predicate, 0, len(keys))
		for _, k := range keys {
			ors = append(ors, sql.And(sql.EQ(sel.C(inbox.FieldChannelType), k.Type.String()),
				sqljson.ValueEQ(inbox.FieldChannel, k.Value, sqljson.Path(k.Path))))
		}
		sel.Where(sql.Or(ors...))
	}).Order(ent.Asc(inbox.FieldID)).Limit(limit).All(core.AsInboxLookup(ctx))
	return ibs, core.ApperrOrNil(err)
}
