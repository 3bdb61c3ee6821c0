package accounts

import (
	"context"
	"strings"
	"sync"

	"golang.org/x/crypto/bcrypt"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accesstoken"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/platformtoken"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// ViewerForToken authenticates an access token for accountID and returns the
// viewer to act as. An unknown token and a user who is not a member of the
// account are both unauthenticated (401), as in Chatwoot.
func (s *Service) ViewerForToken(ctx context.Context, token string, accountID int) (viewer.Viewer, error) {
	v, _, err := s.cachedViewerForToken(ctx, token, accountID)
	return v, err
}

// AuthenticateToken is ViewerForToken for a request from the client address
// addr: an address that sent too many wrong tokens is refused (429) before
// the token is looked up. A valid token costs no write, and no statement
// when it was verified in the last few seconds (auth_cache.go).
func (s *Service) AuthenticateToken(ctx context.Context, addr, token string, accountID int) (viewer.Viewer, error) {
	if err := s.guard.tokenWait(addr); err != nil {
		return viewer.Viewer{}, err
	}
	v, tokenErr, err := s.cachedViewerForToken(ctx, token, accountID)
	if tokenErr {
		s.countWrongToken(addr, token, err)
	}
	return v, err
}

// AuthenticatePlatform is PlatformViewer for a request from addr, throttled
// as AuthenticateToken is (one count per address for both kinds of token).
func (s *Service) AuthenticatePlatform(ctx context.Context, addr, token string) (viewer.Viewer, error) {
	if err := s.guard.tokenWait(addr); err != nil {
		return viewer.Viewer{}, err
	}
	v, err := s.PlatformViewer(ctx, token)
	if err != nil {
		s.countWrongToken(addr, token, err)
	}
	return v, err
}

// countWrongToken counts a token that was sent and is unknown; a missing
// token is no guess, and a database failure is nobody's fault.
func (s *Service) countWrongToken(addr, token string, err error) {
	if strings.TrimSpace(token) != "" && apperr.From(err).Kind == apperr.KindUnauthenticated {
		s.guard.tokenFailed(addr)
	}
}

// ViewerForUser returns the viewer of a user acting in accountID (0: the
// user's first account).
func (s *Service) ViewerForUser(ctx context.Context, userID, accountID int) (viewer.Viewer, error) {
	sys := core.AsCredentialCheck(ctx)
	q := s.Client(ctx).AccountUser.Query().Where(accountuser.UserID(userID))
	if accountID != 0 {
		q = q.Where(accountuser.AccountID(accountID))
	}
	m, err := q.Order(ent.Asc(accountuser.FieldAccountID)).WithAccount().First(sys)
	if ent.IsNotFound(err) {
		return viewer.Viewer{}, apperr.Unauthenticated("You are not authorized to access this account")
	}
	if err != nil {
		return viewer.Viewer{}, err
	}
	if m.Edges.Account != nil && m.Edges.Account.Status == "suspended" {
		return viewer.Viewer{}, apperr.Unauthenticated("Account is suspended")
	}
	return viewer.Viewer{UserID: userID, AccountID: m.AccountID, Role: viewer.Role(m.Role)}, nil
}

func (s *Service) userForToken(ctx context.Context, token string) (*ent.User, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return nil, apperr.Unauthenticated("You need to sign in or sign up before continuing: send the api_access_token header")
	}
	t, err := s.Client(ctx).AccessToken.Query().
		Where(accesstoken.TokenHash(core.HashToken(token)), accesstoken.UserIDNotNil()).
		WithUser().Only(core.AsCredentialCheck(ctx))
	if ent.IsNotFound(err) || (err == nil && t.Edges.User == nil) {
		return nil, apperr.Unauthenticated("Invalid Access Token")
	}
	if err != nil {
		return nil, err
	}
	return t.Edges.User, nil
}

// PlatformViewer authenticates a platform token.
func (s *Service) PlatformViewer(ctx context.Context, token string) (viewer.Viewer, error) {
	token = strings.TrimSpace(token)
	if token == "" {
		return viewer.Viewer{}, apperr.Unauthenticated("You need to sign in or sign up before continuing: send the api_access_token header")
	}
	ok, err := s.Client(ctx).PlatformToken.Query().
		Where(platformtoken.TokenHash(core.HashToken(token))).Exist(core.AsCredentialCheck(ctx))
	if err != nil {
		return viewer.Viewer{}, err
	}
	if !ok {
		return viewer.Viewer{}, apperr.Unauthenticated("Invalid Platform Token")
	}
	return viewer.Viewer{Platform: true}, nil
}

// Login checks an e-mail and password (the console's sign-in) and returns the
// user. An unknown e-mail, or a user without a password, is checked against
// a dummy hash of the same cost, so the answer takes as long as for a known
// user and does not tell which e-mails exist.
func (s *Service) Login(ctx context.Context, email, password string) (*ent.User, error) {
	u, err := s.Client(ctx).User.Query().
		Where(user.Email(core.NormalizeEmail(email))).Only(core.AsCredentialCheck(ctx))
	hash := dummyPasswordHash()
	if err == nil && u.PasswordHash != "" {
		hash = []byte(u.PasswordHash)
	}
	match := comparePassword(hash, []byte(password)) == nil
	if err != nil || u.PasswordHash == "" || !match {
		return nil, apperr.Unauthenticated("Invalid e-mail or password")
	}
	return u, nil
}

// comparePassword is bcrypt's comparison; a test counts the comparisons a
// sign-in makes (the work that must not depend on the e-mail).
var comparePassword = bcrypt.CompareHashAndPassword

// dummyPasswordHash is a hash no password matches in practice, made once
// with the cost real passwords are hashed with.
var dummyPasswordHash = sync.OnceValue(func() []byte {
	random, _ := core.NewToken()
	h, err := bcrypt.GenerateFromPassword([]byte(random), bcrypt.DefaultCost)
	if err != nil {
		panic("bcrypt: " + err.Error())
	}
	return h
})

// ViewerUser returns the user and account a viewer acts as (names for display).
func (s *Service) ViewerUser(ctx context.Context, v viewer.Viewer) (*ent.User, *ent.Account, error) {
	sys := core.AsCredentialCheck(ctx)
	u, err := s.Client(ctx).User.Get(sys, v.UserID)
	if err != nil {
		return nil, nil, err
	}
	a, err := s.Client(ctx).Account.Get(sys, v.AccountID)
	return u, a, err
}
