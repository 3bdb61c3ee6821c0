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

// Console sessions expire both ways: unused for SessionIdle, or
// SessionMaxAge after sign-in however busy (sliding idle window inside a
// fixed maximum).
const (
	SessionIdle   = 12 * time.Hour
	SessionMaxAge = 7 * 24 * time.Hour
	// sessionTouchEvery spaces the writes of last_seen_at: a page view
	// within a minute of the last recorded one writes nothing.
	sessionTouchEvery = time.Minute
)

// ConsoleSignIn is a started console session: the token goes in the
// cookie, which should expire with the session.
type ConsoleSignIn struct {
	Token     string
	AccountID int
	ExpiresAt time.Time
}

// StartSession signs a user in to the console from the client address
// addr. Guesses are throttled per e-mail and per address (429 with the
// wait); the session gets its own token, never the user's API token.
func (s *Service) StartSession(ctx context.Context, addr, email, password string) (ConsoleSignIn, error) {
	refund, err := s.guard.takePasswordAttempt(core.NormalizeEmail(email), addr)
	if err != nil {
		return ConsoleSignIn{}, err
	}
	u, err := s.Login(ctx, email, password)
	if err != nil {
		return ConsoleSignIn{}, err
	}
	refund()
	return s.openSession(ctx, u.ID, 0)
}

// purgeSessions deletes every expired session (each sign-in sweeps, so
// the table holds only live sessions and those of the last idle window).
func (s *Service) purgeSessions(sys context.Context, now time.Time) error {
	_, err := s.Client(sys).ConsoleSession.Delete().Where(consolesession.Or(
		consolesession.ExpiresAtLTE(now), consolesession.LastSeenAtLTE(now.Add(-SessionIdle)),
	)).Exec(sys)
	return err
}

// SessionViewer authenticates a console session token for accountID (0:
// the account signed in to). A missing, unknown, signed-out or expired
// session is unauthenticated; an expired one is deleted.
func (s *Service) SessionViewer(ctx context.Context, token string, accountID int) (viewer.Viewer, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return viewer.Viewer{}, apperr.Unauthenticated("Sign in to continue")
	}
	sys := core.AsCredentialCheck(ctx)
	c := s.Client(ctx)
	sess, err := c.ConsoleSession.Query().Where(consolesession.TokenHash(core.HashToken(token))).Only(sys)
	if ent.IsNotFound(err) {
		return viewer.Viewer{}, apperr.Unauthenticated("Your session has ended: sign in again")
	}
	if err != nil {
		return viewer.Viewer{}, err
	}
	now := s.Now()
	if sessionOver(sess, now) {
		if err := c.ConsoleSession.DeleteOne(sess).Exec(sys); err != nil && !ent.IsNotFound(err) {
			return viewer.Viewer{}, err
		}
		return viewer.Viewer{}, apperr.Unauthenticated("Your session has expired: sign in again")
	}
	if now.Sub(sess.LastSeenAt) >= sessionTouchEvery {
		if err := c.ConsoleSession.UpdateOne(sess).SetLastSeenAt(now).Exec(sys); err != nil && !ent.IsNotFound(err) {
			return viewer.Viewer{}, err
		}
	}
	if accountID == 0 {
		accountID = sess.AccountID
	}
	return s.ViewerForUser(ctx, sess.UserID, accountID)
}

// sessionOver reports whether sess no longer signs its holder in at now: a
// sign-in link's row, or past its maximum age or its idle window.
func sessionOver(sess *ent.ConsoleSession, now time.Time) bool {
	return isSignInLink(sess) || !now.Before(sess.ExpiresAt) || !now.Before(sess.LastSeenAt.Add(SessionIdle))
}

// SessionLive is the viewer a console session token signs in to accountID
// as now, for a live page's socket re-checking what it opened with: an
// ended session is Unauthenticated, and so is a user no longer a member of
// the account (removed, or the account suspended), whose socket would
// otherwise go on hearing the account's events. It is not use: the idle
// window does not restart (an open page would otherwise keep its session
// for ever), and an ended session is left to the next SessionViewer or
// sign-in to delete.
func (s *Service) SessionLive(ctx context.Context, token string, accountID int) (viewer.Viewer, error) {
	sess, err := s.Client(ctx).ConsoleSession.Query().
		Where(consolesession.TokenHash(core.HashToken(strings.TrimSpace(token)))).Only(core.AsCredentialCheck(ctx))
	if ent.IsNotFound(err) || (err == nil && sessionOver(sess, s.Now())) {
		return viewer.Viewer{}, apperr.Unauthenticated("Your session has ended: sign in again")
	}
	if err != nil {
		return viewer.Viewer{}, err
	}
	return s.ViewerForUser(ctx, sess.UserID, accountID)
}

// EndSession signs a console session out (deletes it).
func (s *Service) EndSession(ctx context.Context, token string) error {
	_, err := s.Client(ctx).ConsoleSession.Delete().
		Where(consolesession.TokenHash(core.HashToken(strings.TrimSpace(token)))).Exec(core.AsCredentialCheck(ctx))
	return err
}
