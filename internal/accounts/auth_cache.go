package accounts

import (
	"context"
	"slices"
	"time"

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
// (its listening connection was down). See core.Cache.
const (
	tokenCacheTTL  = 15 * time.Second
	tokenCacheSize = 10_000
)

type tokenKey struct {
	hash      string
	accountID int
}

// newTokenCache maps a token (and the account asked for) to its viewer.
func newTokenCache(c *core.Core) *core.Cache[tokenKey, viewer.Viewer] {
	return core.NewCache[tokenKey, viewer.Viewer](c, core.CacheOptions{Name: "tokens", Kind: events.KindCredentialsChanged,
		TTL: tokenCacheTTL, Size: tokenCacheSize, Changes: changesCredentials})
}

// cachedViewerForToken is ViewerForToken through the cache; tokenErr says
// the token itself was refused (not its user's membership).
func (s *Service) cachedViewerForToken(ctx context.Context, token string, accountID int) (v viewer.Viewer, tokenErr bool, err error) {
	k := tokenKey{hash: core.HashToken(token), accountID: accountID}
	v, gen, ok := s.tokens.Get(k)
	if ok {
		return v, false, nil
	}
	u, err := s.userForToken(ctx, token)
	if err != nil {
		return viewer.Viewer{}, true, err
	}
	v, err = s.ViewerForUser(ctx, u.ID, accountID)
	if err == nil && ent.TxFromContext(ctx) == nil {
		s.tokens.Put(k, v, gen)
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
