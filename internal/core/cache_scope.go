package core

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Scoped is a cache key that holds what one account's rows show (a page of
// that account's conversations): a change inside another account leaves
// it. On a busy installation most writes are some other account's, and a
// cache forgotten at each of them would hardly ever be read.
type Scoped interface {
	Scope() int // the account
}

// NewScopedCache is NewCache for keys that name their account: a change
// inside one account forgets that account's entries only. (The key's
// account is asked through the type parameter, not an interface value,
// which would box the key at every lookup.)
func NewScopedCache[K interface {
	comparable
	Scoped
}, V any](c *Core, o CacheOptions) *Cache[K, V] {
	return newCache[K, V](c, o, func(k K) int { return k.Scope() })
}

// maxScopedAccounts bounds the accounts whose last change a cache
// remembers; past it a change forgets everything instead, which lets the
// cache forget them too.
const maxScopedAccounts = 4096

// maxAnnouncedAccounts bounds the announcements of one transaction: one
// that changed more accounts (a batch of firings) announces one change of
// everything.
const maxAnnouncedAccounts = 8

// genOf is the generation a read of k starts in: the last invalidation
// that concerned k. c.mu is held.
func (c *Cache[K, V]) genOf(k K) uint64 {
	if c.scope != nil {
		return max(c.global, c.accounts[c.scope(k)])
	}
	return c.global
}

// invalidate forgets the entries of account, or every entry (account 0,
// or a cache whose keys are not Scoped).
func (c *Cache[K, V]) invalidate(account int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.forgets++
	if account == 0 || c.scope == nil || len(c.accounts) >= maxScopedAccounts {
		c.global = c.gen
		clear(c.accounts)
		clear(c.entries)
		return
	}
	c.accounts[account] = c.gen
	for k := range c.entries {
		if c.scope(k) == account {
			delete(c.entries, k)
		}
	}
}

// accountOf is the one account whose rows m wrote, or 0 when that is not
// known: the account's own row, the account a new row names, else the
// account the viewer acts in, for the tenancy rules (AccountMixin's policy)
// keep the updates and deletes of a member, or of the system acting for one
// account, inside it. Rows of no account (users), the writes of the
// installation-wide system or the platform, and the account-stamped rows
// outside AccountMixin concern every account.
func accountOf(ctx context.Context, m ent.Mutation) int {
	if acc, ok := m.(*ent.AccountMutation); ok {
		id, _ := acc.ID() // an account's own row (its conversation counter)
		return id
	}
	am, ok := m.(interface{ AccountID() (int, bool) })
	if !ok {
		return 0
	}
	if id, ok := am.AccountID(); ok {
		return id
	}
	if outsideTenancy[m.Type()] {
		return 0
	}
	if v, ok := viewer.FromContext(ctx); ok && v.Visitor == nil && !v.Platform {
		return v.AccountID
	}
	return 0
}

// outsideTenancy are the entities that name an account without
// AccountMixin, so without its policy (TestAccountRowsOutsideTenancyAreListed).
var outsideTenancy = map[string]bool{ent.TypeConsoleSession: true, ent.TypeIdempotencyKey: true}
