package inboxes

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Inboxes by id. Posting a message reads its conversation's inbox (the
// reply window, whether the channel delivers): a statement each post, a
// tenth of its server CPU (docs/performance.md). Inboxes change rarely, so
// what was read is remembered for a short while, and any write of an inbox
// (or an account's deletion) forgets it everywhere (core.Cache), as the
// channel lookups are.
const (
	inboxOfTTL  = 15 * time.Second
	inboxOfSize = 10_000
)

// inboxKey is an inbox's account and id.
type inboxKey struct{ accountID, id int }

func newInboxOfCache(c *core.Core) *core.Cache[inboxKey, *ent.Inbox] {
	return core.NewCache[inboxKey, *ent.Inbox](c, core.CacheOptions{Name: "inboxes", Kind: events.KindInboxesChanged,
		TTL: inboxOfTTL, Size: inboxOfSize, Changes: changesInboxes})
}

// InboxOf returns inbox id of account accountID, read with c for ctx's
// viewer. Every member of an account reads all its inboxes, so what one
// read is given to the others, and to the system, from memory. What the
// system reads is not kept (it reads past the privacy rules, and nothing it
// reads may reach a user), and anyone else (a visitor, another account's
// member) reads through the privacy rules.
func (s *Service) InboxOf(ctx context.Context, c *ent.Client, accountID, id int) (*ent.Inbox, error) {
	k := inboxKey{accountID: accountID, id: id}
	ib, gen, ok, member := s.recall(ctx, k)
	if ok {
		return ib, nil
	}
	ib, err := c.Inbox.Query().Where(inbox.ID(id), inbox.AccountID(accountID)).Only(ctx)
	if err != nil {
		return nil, apperr.From(core.NotFound(err, "Inbox"))
	}
	if member {
		s.inboxes.Put(k, detached(ib), gen)
	}
	return ib, nil
}

// RememberedInbox is InboxOf from memory alone: false when the inbox is
// not remembered or ctx's viewer may not be given it from there.
func (s *Service) RememberedInbox(ctx context.Context, accountID, id int) (*ent.Inbox, bool) {
	ib, _, ok, _ := s.recall(ctx, inboxKey{accountID: accountID, id: id})
	return ib, ok
}

// recall is InboxOf's rule for k and ctx's viewer: the remembered inbox,
// when there is one the viewer may be given (a member of its account, or
// the system); the generation a read is kept with (Put); and whether the
// viewer's reads are kept (a member's only).
func (s *Service) recall(ctx context.Context, k inboxKey) (ib *ent.Inbox, gen uint64, ok, member bool) {
	v, _ := viewer.FromContext(ctx)
	member = v.IsMember() && v.AccountID == k.accountID
	ib, gen, ok = s.inboxes.Get(k)
	return ib, gen, ok && (member || v.System), member
}

// detached is a copy of ib whose queries go through the client's own
// driver: an entity read in a transaction is bound to it, and the
// transaction ends before the cache forgets the copy.
func detached(ib *ent.Inbox) (out *ent.Inbox) {
	cp := *ib
	defer func() {
		if recover() != nil { // not read in a transaction: Unwrap refuses it
			out = &cp
		}
	}()
	return cp.Unwrap()
}

// InboxesOf is InboxOf for many inboxes at once (a page of contacts' contact
// inboxes, a GraphQL response's), of ctx's viewer's own account, by the
// same rule (recall): the rest are read in one statement, through the
// privacy rules. An inbox the viewer may not read is left out.
func (s *Service) InboxesOf(ctx context.Context, c *ent.Client, ids []int) (map[int]*ent.Inbox, error) {
	v, _ := viewer.FromContext(ctx)
	out := make(map[int]*ent.Inbox, len(ids))
	var missing []int
	var gen uint64
	var member bool
	for _, id := range core.UniqueInts(ids) {
		ib, g, ok, m := s.recall(ctx, inboxKey{accountID: v.AccountID, id: id})
		gen, member = g, m
		if ok {
			out[id] = ib
			continue
		}
		missing = append(missing, id)
	}
	if len(missing) == 0 {
		return out, nil
	}
	ibs, err := c.Inbox.Query().Where(inbox.IDIn(missing...)).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	for _, ib := range ibs {
		out[ib.ID] = ib
		if member && ib.AccountID == v.AccountID {
			s.inboxes.Put(inboxKey{accountID: ib.AccountID, id: ib.ID}, detached(ib), gen)
		}
	}
	return out, nil
}
