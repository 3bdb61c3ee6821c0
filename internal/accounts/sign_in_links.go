package accounts

import (
	"context"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/consolesession"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// SignInLinkTTL is how long a single sign-on link works (Chatwoot's is five
// minutes too).
const SignInLinkTTL = 5 * time.Minute

// A sign-in link is a console session row that has not started yet: its
// last_seen_at is set to its expiry, which no live session can have (a
// session whose last use is at or past its expiry is over). Keeping links in
// the sessions table reuses the hashed-token storage and the purge without a
// new table; SessionViewer refuses such a row as a cookie and burns it.
func isSignInLink(sess *ent.ConsoleSession) bool {
	return !sess.LastSeenAt.Before(sess.ExpiresAt)
}

// SignInLink is a one-time console sign-in for a user, minted by the
// platform API (GET /platform/api/v1/users/{id}/login).
type SignInLink struct {
	Token string
	Email string
}

// CreateSignInLink mints a single-use, short-lived console sign-in for the
// user, into the first account they belong to. Only the platform may.
func (s *Service) CreateSignInLink(ctx context.Context, userID int) (SignInLink, error) {
	if v, _ := viewer.FromContext(ctx); !v.Platform {
		return SignInLink{}, apperr.Forbidden("You are not authorized to do this action: sign-in links come from the platform API")
	}
	u, err := s.Client(ctx).User.Get(ctx, userID)
	if err != nil {
		return SignInLink{}, core.NotFound(err, "User")
	}
	v, err := s.ViewerForUser(ctx, u.ID, 0)
	if err != nil {
		return SignInLink{}, apperr.Invalid("User belongs to no active account to sign in to", "id")
	}
	sys := core.AsCredentialCheck(ctx)
	now := s.Now()
	if err := s.purgeSessions(sys, now); err != nil {
		return SignInLink{}, err
	}
	token, hash := core.NewToken()
	expires := now.Add(SignInLinkTTL)
	err = s.Client(ctx).ConsoleSession.Create().SetTokenHash(hash).SetUserID(u.ID).
		SetAccountID(v.AccountID).SetExpiresAt(expires).SetLastSeenAt(expires).Exec(sys)
	return SignInLink{Token: token, Email: u.Email}, core.ApperrOrNil(err)
}

// RedeemSignInLink exchanges a sign-in link's token for a console session.
// The link works once: it is deleted before the session is made, and of two
// concurrent redeems only the one whose delete removed the row wins.
func (s *Service) RedeemSignInLink(ctx context.Context, token string) (ConsoleSignIn, error) {
	bad := apperr.Unauthenticated("This sign-in link is invalid, used or expired: ask for a new one")
	token = strings.TrimSpace(token)
	if token == "" {
		return ConsoleSignIn{}, bad
	}
	sys := core.AsCredentialCheck(ctx)
	c := s.Client(ctx)
	link, err := c.ConsoleSession.Query().Where(consolesession.TokenHash(core.HashToken(token))).Only(sys)
	if ent.IsNotFound(err) {
		return ConsoleSignIn{}, bad
	}
	if err != nil {
		return ConsoleSignIn{}, err
	}
	if !isSignInLink(link) {
		return ConsoleSignIn{}, bad
	}
	n, err := c.ConsoleSession.Delete().Where(consolesession.ID(link.ID)).Exec(sys)
	if err != nil {
		return ConsoleSignIn{}, err
	}
	if n == 0 || !s.Now().Before(link.ExpiresAt) {
		return ConsoleSignIn{}, bad
	}
	return s.openSession(ctx, link.UserID, link.AccountID)
}

// openSession starts a console session for a user already authenticated.
func (s *Service) openSession(ctx context.Context, userID, accountID int) (ConsoleSignIn, error) {
	v, err := s.ViewerForUser(ctx, userID, accountID)
	if err != nil {
		return ConsoleSignIn{}, err
	}
	sys := core.AsCredentialCheck(ctx)
	now := s.Now()
	if err := s.purgeSessions(sys, now); err != nil {
		return ConsoleSignIn{}, err
	}
	token, hash := core.NewToken()
	in := ConsoleSignIn{Token: token, AccountID: v.AccountID, ExpiresAt: now.Add(SessionMaxAge)}
	err = s.Client(ctx).ConsoleSession.Create().SetTokenHash(hash).SetUserID(userID).
		SetAccountID(v.AccountID).SetExpiresAt(in.ExpiresAt).SetLastSeenAt(now).Exec(sys)
	return in, err
}
