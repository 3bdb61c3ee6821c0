// Package accounts holds the operations on who may act: accounts and the
// platform API, users and their profiles, sign-in (passwords, tokens,
// console sessions and links), agents, teams, memberships, and the stored
// answers of idempotent requests.
package accounts

import (
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Service runs the accounts' operations.
type Service struct {
	*core.Core
	authLimits AuthLimits
	// guard throttles guessed passwords and tokens.
	guard *authGuard
	// tokens remembers verified access tokens for a few seconds.
	tokens *core.Cache[tokenKey, viewer.Viewer]
}

// New returns the accounts' Service, throttling sign-ins by limits.
func New(c *core.Core, limits AuthLimits) *Service {
	s := &Service{Core: c, authLimits: limits}
	s.guard = newAuthGuard(limits, c.Clock)
	s.tokens = newTokenCache(c)
	return s
}
