package core

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/events"
)

// Cache remembers what a hot path read from the database for a short while,
// and forgets all of it whenever a change it depends on is written: at once
// in this process (so that it never serves a stale value after the write
// returns), again when the write's transaction commits (a read between the
// two may have seen the old rows), and on every other instance through the
// hub (PostgreSQL's NOTIFY relay). The lifetime only bounds how long another
// instance may act on a change it did not hear of (its listening connection
// was down). Each entry is its own read's answer: values are shared between
// requests and must not be changed by their users.
type Cache[K comparable, V any] struct {
	name string
	// origin names this process in the invalidations it announces.
	origin string
	kind   events.Kind
	keep   func(any) bool
	ttl    time.Duration
	size   int
	now    func() time.Time
	mu     sync.Mutex
	// gen counts invalidations: a read that started before one must not
	// store what it read, which may predate the change. global is the
	// last that forgot everything; accounts the last of each account's
	// own, for keys that are Scoped (genOf).
	gen, global uint64
	accounts    map[int]uint64
	// scope, for a cache of Scoped keys (NewScopedCache), is a key's
	// account: a change inside one account forgets only its entries.
	scope   func(K) int
	entries map[K]cacheEntry[V]
	// pending holds the open transactions that changed what the cache
	// holds, with the accounts they changed (0: any): each announces its
	// changes once when it ends, however many of its mutations made one (a
	// batch writes hundreds of messages).
	pending map[*ent.Tx]map[int]struct{}
	// flights are the reads under way for Load.
	flights map[flightKey[K]]*flight[V]
	// hits, misses and forgets count lookups and invalidations (metrics).
	hits, misses, forgets uint64
}

type cacheEntry[V any] struct {
	v       V
	expires time.Time
}

// CacheOptions describe a Cache.
type CacheOptions struct {
	// Name names the cache in the metrics (one name per cache).
	Name string
	// Kind is the installation event that announces an invalidation to
	// the other instances (one kind per cache).
	Kind events.Kind
	// TTL is how long an entry is served; Size bounds the entries.
	TTL  time.Duration
	Size int
	// Changes reports whether a mutation changes what the cache holds.
	Changes func(ent.Mutation) bool
	// Keep, when set, reports whether Load may keep a value it read (one
	// too large to hold is read again instead).
	Keep func(v any) bool
}

// NewCache returns a cache over c's database and hub; any change it
// depends on forgets all of it.
func NewCache[K comparable, V any](c *Core, o CacheOptions) *Cache[K, V] {
	return newCache[K, V](c, o, nil)
}

func newCache[K comparable, V any](c *Core, o CacheOptions, scope func(K) int) *Cache[K, V] {
	cache := &Cache[K, V]{name: o.Name, origin: uuid.NewString(), kind: o.Kind, keep: o.Keep, ttl: o.TTL, size: o.Size, now: c.Clock,
		scope: scope, accounts: map[int]uint64{}, entries: map[K]cacheEntry[V]{},
		pending: map[*ent.Tx]map[int]struct{}{}, flights: map[flightKey[K]]*flight[V]{}}
	cache.watch(c, o.Changes)
	c.caches = append(c.caches, cache)
	return cache
}

// Get returns the value of k while it is fresh, and the generation to hand
// to Put after a read.
func (c *Cache[K, V]) Get(k K) (V, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.fresh(k)
	return v, c.genOf(k), ok
}

// fresh is k's value while it is fresh, counting the lookup; c.mu is held.
func (c *Cache[K, V]) fresh(k K) (V, bool) {
	e, ok := c.entries[k]
	if ok && c.now().Before(e.expires) {
		c.hits++
		return e.v, true
	}
	c.misses++
	if ok {
		delete(c.entries, k)
	}
	var zero V
	return zero, false
}

// Put remembers v for k unless the cache was invalidated since gen. An
// entity read inside a transaction is not to be put: it is bound to the
// transaction. Other values read there may be: a change the transaction
// made to what the cache holds forgets the cache again when it commits or
// rolls back.
func (c *Cache[K, V]) Put(k K, v V, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.genOf(k) {
		return
	}
	if len(c.entries) >= c.size {
		c.evict()
	}
	c.entries[k] = cacheEntry[V]{v: v, expires: c.now().Add(c.ttl)}
}

// evict drops the expired entries, or all of them when none has expired (a
// full cache of live entries is rare, and refilling it is cheap).
func (c *Cache[K, V]) evict() {
	now := c.now()
	for k, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, k)
		}
	}
	if len(c.entries) >= c.size {
		clear(c.entries)
	}
}

// Invalidate forgets every entry.
func (c *Cache[K, V]) Invalidate() { c.invalidate(0) }

// watch invalidates the cache whenever a mutation changes what it holds,
// and when another instance announces one.
func (c *Cache[K, V]) watch(core *Core, changes func(ent.Mutation) bool) {
	core.DB.Use(func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, err := next.Mutate(ctx, m)
			if err == nil && changes(m) {
				c.changed(ctx, core.Hub, m)
			}
			return v, err
		})
	})
	if core.Hub != nil {
		// This process emptied its cache when it made the change; its own
		// notification coming back would only throw away newer entries.
		core.Hub.Listen(events.Installation, func(e events.Event) {
			if e.Kind == c.kind && e.Origin != c.origin {
				c.invalidate(e.Scope)
			}
		})
	}
}

// changed invalidates the cache now and when m's transaction commits, and
// announces it then; a rollback invalidates it too (a value read inside the
// transaction after the change may have been put).
func (c *Cache[K, V]) changed(ctx context.Context, hub *events.Hub, m ent.Mutation) {
	account := 0
	if c.scope != nil {
		account = accountOf(ctx, m)
	}
	c.invalidate(account)
	tx, err := txOf(m)
	if err != nil {
		c.announce(hub, account)
		return
	}
	// ent hands each mutation a Tx of its own over the one transaction;
	// the Tx that InTx put in ctx names the transaction.
	key := ent.TxFromContext(ctx)
	if key != nil && !c.watchTx(key, account) {
		return
	}
	accounts := func() []int {
		if key == nil {
			return []int{account}
		}
		return c.txEnded(key)
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			for _, a := range accounts() {
				c.announce(hub, a)
			}
			return err
		})
	})
	tx.OnRollback(func(next ent.Rollbacker) ent.Rollbacker {
		return ent.RollbackFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Rollback(ctx, tx)
			for _, a := range accounts() {
				c.invalidate(a)
			}
			return err
		})
	})
}

// announce forgets what a change of account (0: of any) may have made
// stale, here and on the other instances.
func (c *Cache[K, V]) announce(hub *events.Hub, account int) {
	c.invalidate(account)
	if hub != nil {
		hub.Publish(events.Event{AccountID: events.Installation, Kind: c.kind, Origin: c.origin, Scope: account})
	}
}

// watchTx records that tx changed account, and reports whether tx was not
// watched yet.
func (c *Cache[K, V]) watchTx(tx *ent.Tx, account int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if changed, ok := c.pending[tx]; ok {
		changed[account] = struct{}{}
		return false
	}
	c.pending[tx] = map[int]struct{}{account: {}}
	return true
}

// txEnded forgets tx, which committed or rolled back, and returns the
// accounts it changed: [0] when it changed one it could not name, or more
// than are worth announcing one by one.
func (c *Cache[K, V]) txEnded(tx *ent.Tx) []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	changed := c.pending[tx]
	delete(c.pending, tx)
	if _, unknown := changed[0]; unknown || len(changed) > maxAnnouncedAccounts {
		return []int{0}
	}
	out := make([]int, 0, len(changed))
	for a := range changed {
		out = append(out, a)
	}
	return out
}

// txOf is the transaction m runs in (an error when it runs in none).
func txOf(m ent.Mutation) (*ent.Tx, error) {
	txm, ok := m.(interface{ Tx() (*ent.Tx, error) })
	if !ok {
		return nil, errors.New("not an ent mutation")
	}
	return txm.Tx()
}
