// Package contacts holds the operations on contacts (search, filters,
// merges, contact inboxes), their custom attribute definitions and the
// account's labels.
package contacts

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
)

// Service runs the contacts' operations.
type Service struct {
	*core.Core
	inboxesOf InboxesOf
}

// InboxesOf reads inboxes by id for ctx's viewer, leaving out those it may
// not read (the inboxes' InboxesOf, which remembers what members read).
type InboxesOf func(ctx context.Context, c *ent.Client, ids []int) (map[int]*ent.Inbox, error)

// New returns the contacts' Service; inboxesOf gives contact inboxes their
// inboxes.
func New(c *core.Core, inboxesOf InboxesOf) *Service { return &Service{Core: c, inboxesOf: inboxesOf} }
