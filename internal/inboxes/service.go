// Package inboxes holds the operations on inboxes: their channels and
// channel secrets, their members, and the agent bots that answer in them.
package inboxes

import (
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/core"
)

// Service runs the inboxes' operations.
type Service struct {
	*core.Core
	accounts *accounts.Service
	// lookups remembers the inboxes channel keys name (channel_lookup.go).
	lookups *core.Cache[channelLookup, []*ent.Inbox]
	// inboxes remembers inboxes by id (inbox_of.go).
	inboxes *core.Cache[inboxKey, *ent.Inbox]
}

// New returns the inboxes' Service; members are managed through acc.
func New(c *core.Core, acc *accounts.Service) *Service {
	return &Service{Core: c, accounts: acc, lookups: newLookupCache(c), inboxes: newInboxOfCache(c)}
}
