package ops

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accesstoken"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/platformtoken"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/viewer"
	"golang.org/x/crypto/bcrypt"
)

// ViewerForToken authenticates an access token for accountID and returns the
// viewer to act as. An unknown token and a user who is not a member of the
// account are both unauthenticated (401), as in Chatwoot.
func (s *Service) ViewerForToken(ctx context.Context, token string, accountID int) (viewer.Viewer, error) {
	u, err := s.userForToken(ctx, token)
	if err != nil {
		return viewer.Viewer{}, err
	}
	return s.ViewerForUser(ctx, u.ID, accountID)
}

// ViewerForUser returns the viewer of a user acting in accountID (0: the
// user's first account).
func (s *Service) ViewerForUser(ctx context.Context, userID, accountID int) (viewer.Viewer, error) {
	sys := asCredentialCheck(ctx)
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
		Where(accesstoken.TokenHash(hashToken(token)), accesstoken.UserIDNotNil()).
		WithUser().Only(asCredentialCheck(ctx))
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
		Where(platformtoken.TokenHash(hashToken(token))).Exist(asCredentialCheck(ctx))
	if err != nil {
		return viewer.Viewer{}, err
	}
	if !ok {
		return viewer.Viewer{}, apperr.Unauthenticated("Invalid Platform Token")
	}
	return viewer.Viewer{Platform: true}, nil
}

// Login checks an e-mail and password (the console's sign-in) and returns the
// user.
func (s *Service) Login(ctx context.Context, email, password string) (*ent.User, error) {
	u, err := s.Client(ctx).User.Query().
		Where(user.Email(normalizeEmail(email))).Only(asCredentialCheck(ctx))
	if err != nil || u.PasswordHash == "" ||
		bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(password)) != nil {
		return nil, apperr.Unauthenticated("Invalid e-mail or password")
	}
	return u, nil
}

// StartSession signs a user in to the console: it checks the password and
// issues an access token that the console keeps in its session cookie, so
// the console authenticates exactly as the API does.
func (s *Service) StartSession(ctx context.Context, email, password string) (string, error) {
	u, err := s.Login(ctx, email, password)
	if err != nil {
		return "", err
	}
	return s.issueAccessToken(asCredentialCheck(ctx), s.Client(ctx), u.ID)
}

// EndSession revokes a console session's token.
func (s *Service) EndSession(ctx context.Context, token string) error {
	_, err := s.Client(ctx).AccessToken.Delete().
		Where(accesstoken.TokenHash(hashToken(token))).Exec(asCredentialCheck(ctx))
	return err
}

// ViewerUser returns the user and account a viewer acts as (names for display).
func (s *Service) ViewerUser(ctx context.Context, v viewer.Viewer) (*ent.User, *ent.Account, error) {
	sys := asCredentialCheck(ctx)
	u, err := s.Client(ctx).User.Get(sys, v.UserID)
	if err != nil {
		return nil, nil, err
	}
	a, err := s.Client(ctx).Account.Get(sys, v.AccountID)
	return u, a, err
}
