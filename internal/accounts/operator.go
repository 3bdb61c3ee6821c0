package accounts

import (
	"context"

	"golang.org/x/crypto/bcrypt"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accesstoken"
	"github.com/switchboard/switchboard/ent/consolesession"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// Operator commands: recovery of a lost password or API token from the
// server's command line, where no user can sign in to do it.

func (s *Service) operatorUser(ctx context.Context, email string) (*ent.User, error) {
	u, err := s.Client(ctx).User.Query().Where(user.Email(core.NormalizeEmail(email))).Only(ctx)
	return u, core.NotFound(err, "User")
}

// ResetPassword sets a user's console password (a random one when password
// is empty) and returns it. Their console sessions end: a lost password may
// be a stolen one.
func (s *Service) ResetPassword(ctx context.Context, email, password string) (string, error) {
	ctx = core.AsOperator(ctx)
	if password == "" {
		password = RandomPassword()
	}
	if msg := passwordProblem(password); msg != "" {
		return "", apperr.Invalid(msg, "password")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return "", err
	}
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		u, err := s.operatorUser(ctx, email)
		if err != nil {
			return err
		}
		if err := u.Update().SetPasswordHash(string(hash)).Exec(ctx); err != nil {
			return err
		}
		_, err = c.ConsoleSession.Delete().Where(consolesession.UserID(u.ID)).Exec(ctx)
		return err
	})
	return password, core.ApperrOrNil(err)
}

// RotateAccessToken replaces every API access token of a user with one new
// token, returned once; the old ones stop working at commit.
func (s *Service) RotateAccessToken(ctx context.Context, email string) (string, error) {
	ctx = core.AsOperator(ctx)
	var tok string
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		u, err := s.operatorUser(ctx, email)
		if err != nil {
			return err
		}
		if _, err := c.AccessToken.Delete().Where(accesstoken.UserID(u.ID)).Exec(ctx); err != nil {
			return err
		}
		tok, err = s.issueAccessToken(ctx, c, u.ID)
		return err
	})
	return tok, core.ApperrOrNil(err)
}
