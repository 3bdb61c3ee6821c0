package inboxes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
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
	k := lookupKey(limit, keys)
	ibs, gen, ok := s.lookups.Get(k)
	if ok {
		return ibs, nil
	}
	ibs, err := s.Client(ctx).Inbox.Query().Where(inbox.Or(ors...)).
		Order(ent.Asc(inbox.FieldID)).Limit(limit).All(core.AsInboxLookup(ctx))
	if err == nil && len(ibs) > 0 && ent.TxFromContext(ctx) == nil {
		s.lookups.Put(k, ibs, gen)
	}
	return ibs, core.ApperrOrNil(err)
}

// Looked-up inboxes. Every channel webhook post and every public client API
// request names its inbox by its channel key, a statement each time (one
// of the seven of a WhatsApp post); inboxes change rarely, so what a lookup
// found is remembered for a short while, and any write of an inbox (or an
// account's deletion) forgets it everywhere (core.Cache). A lookup that
// found nothing is not remembered: a new inbox answers at once.
const (
	inboxLookupTTL  = 15 * time.Second
	inboxLookupSize = 10_000
)

// channelLookup is a lookup's limit and keys, as one comparable value.
type channelLookup struct {
	limit int
	keys  string
}

func lookupKey(limit int, keys []ChannelKey) channelLookup {
	var b strings.Builder
	for _, k := range keys {
		// Values are a caller's text (a visitor's inbox identifier): each
		// is prefixed with its length, so that no two lookups share a key.
		fmt.Fprintf(&b, "%s %d %s;", k.Type, len(k.Value), k.Value)
	}
	return channelLookup{limit: limit, keys: b.String()}
}

func newLookupCache(c *core.Core) *core.Cache[channelLookup, []*ent.Inbox] {
	return core.NewCache[channelLookup, []*ent.Inbox](c, core.CacheOptions{Name: "inbox_lookups", Kind: events.KindInboxesChanged,
		TTL: inboxLookupTTL, Size: inboxLookupSize, Changes: changesInboxes})
}

// changesInboxes: any write of an inbox, and an account's deletion (its
// inboxes go with it).
func changesInboxes(m ent.Mutation) bool {
	if m.Type() == ent.TypeInbox {
		return true
	}
	op := m.Op()
	return m.Type() == ent.TypeAccount && (op.Is(ent.OpDelete) || op.Is(ent.OpDeleteOne))
}
