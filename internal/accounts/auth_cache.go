package accounts

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Verified tokens. Checking an access token costs four statements (token,
// user, membership, account); a client sends the same token with every
// request, so a verified token is remembered for a short while and the hot
// path spends none. A change to any token, membership, role, account or user
// empties the cache at once in this process and, through the events hub
// (PostgreSQL NOTIFY between instances), in every other; tokenCacheTTL only
// bounds how long another instance may act on a change it did not hear of
// (its listening connection was down).
const (
	tokenCacheTTL  = 15 * time.Second
	tokenCacheSize = 10_000
)

type tokenKey struct {
	hash      string
	accountID int
}

type verifiedToken struct {
	v       viewer.Viewer
	expires time.Time
}

// tokenCache maps a token (and the account asked for) to its viewer. gen
// counts invalidations: a lookup that started before one must not store what
// it read, which may predate the change.
type tokenCache struct {
	origin  string // this process, in the invalidations it announces
	mu      sync.Mutex
	now     func() time.Time
	gen     uint64
	entries map[tokenKey]verifiedToken
}

func newTokenCache(now func() time.Time) *tokenCache {
	return &tokenCache{origin: uuid.NewString(), now: now, entries: map[tokenKey]verifiedToken{}}
}

// get returns the viewer of k if it was verified lately, and the generation
// to hand to put after a lookup.
func (c *tokenCache) get(k tokenKey) (viewer.Viewer, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if ok && c.now().Before(e.expires) {
		return e.v, c.gen, true
	}
	if ok {
		delete(c.entries, k)
	}
	return viewer.Viewer{}, c.gen, false
}

// put remembers v for k unless the cache was invalidated since gen.
func (c *tokenCache) put(k tokenKey, v viewer.Viewer, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if len(c.entries) >= tokenCacheSize {
		c.evict()
	}
	c.entries[k] = verifiedToken{v: v, expires: c.now().Add(tokenCacheTTL)}
}

// evict drops the expired entries, or all of them when none has expired
// (a full cache of live tokens is rare, and refilling it is cheap).
func (c *tokenCache) evict() {
	now := c.now()
	for k, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, k)
		}
	}
	if len(c.entries) >= tokenCacheSize {
		clear(c.entries)
	}
}

func (c *tokenCache) invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.entries)
}

// cachedViewerForToken is ViewerForToken through the cache; tokenErr says
// the token itself was refused (not its user's membership).
func (s *Service) cachedViewerForToken(ctx context.Context, token string, accountID int) (v viewer.Viewer, tokenErr bool, err error) {
	k := tokenKey{hash: core.HashToken(token), accountID: accountID}
	v, gen, ok := s.tokens.get(k)
	if ok {
		return v, false, nil
	}
	u, err := s.userForToken(ctx, token)
	if err != nil {
		return viewer.Viewer{}, true, err
	}
	v, err = s.ViewerForUser(ctx, u.ID, accountID)
	if err == nil && ent.TxFromContext(ctx) == nil {
		s.tokens.put(k, v, gen)
	}
	return v, false, err
}

// credentialFields are, per entity a verified token depends on, the fields
// whose change can alter the viewer it stands for ("" means any field).
// The account's conversation counter, bumped by every new conversation, and
// a user's profile are not among them: emptying the cache for those would
// make it useless under incoming traffic.
var credentialFields = map[string][]string{
	ent.TypeAccessToken: {""},
	ent.TypeAccountUser: {""},
	ent.TypeAccount:     {"status"},
}

// watchCredentials empties the token cache whenever a credential changes:
// at once (so this process never serves a stale viewer after the write
// returns), again when the transaction commits (a lookup between the two
// may have read the old rows), and on every other instance through the hub.
func (s *Service) watchCredentials() {
	s.DB.Use(func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, err := next.Mutate(ctx, m)
			if err == nil && changesCredentials(m) {
				s.credentialsChanged(m)
			}
			return v, err
		})
	})
	if s.Hub != nil {
		// This process emptied its cache when it made the change; its own
		// notification coming back would only throw away newer entries.
		s.Hub.Listen(events.Installation, func(e events.Event) {
			if e.Kind == events.KindCredentialsChanged && e.Origin != s.tokens.origin {
				s.tokens.invalidate()
			}
		})
	}
}

// changesCredentials: a deleted token, account or user, any change to a
// membership (a new one may change a user's "first account"), or a change of
// an account's status. A new token or user invalidates nothing.
func changesCredentials(m ent.Mutation) bool {
	op := m.Op()
	if op.Is(ent.OpDelete) || op.Is(ent.OpDeleteOne) {
		return m.Type() == ent.TypeUser || credentialFields[m.Type()] != nil
	}
	if op.Is(ent.OpCreate) && m.Type() != ent.TypeAccountUser {
		return false
	}
	for _, f := range credentialFields[m.Type()] {
		if f == "" || slices.Contains(m.Fields(), f) {
			return true
		}
	}
	return false
}

func (s *Service) credentialsChanged(m ent.Mutation) {
	s.tokens.invalidate()
	announce := func() {
		s.tokens.invalidate()
		if s.Hub != nil {
			s.Hub.Publish(events.Event{AccountID: events.Installation, Kind: events.KindCredentialsChanged, Origin: s.tokens.origin})
		}
	}
	tx, err := txOf(m)
	if err != nil {
		announce()
		return
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			announce()
			return err
		})
	})
}

// txOf is the transaction m runs in (an error when it runs in none).
func txOf(m ent.Mutation) (*ent.Tx, error) {
	txm, ok := m.(interface{ Tx() (*ent.Tx, error) })
	if !ok {
		return nil, errors.New("not an ent mutation")
	}
	return txm.Tx()
}
