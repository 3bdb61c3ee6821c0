package accounts

import (
	"context"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inboxmember"
	"github.com/switchboard/switchboard/ent/teammember"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// Platform (provisioning) operations: the only way users with passwords come
// to exist. They run with the platform viewer.

// CreateAccount creates an account.
func (s *Service) CreateAccount(ctx context.Context, name string) (*ent.Account, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, apperr.Invalid("Name can't be blank", "name")
	}
	a, err := s.Client(ctx).Account.Create().SetName(name).Save(ctx)
	return a, core.ApperrOrNil(err)
}

// Account returns an account.
func (s *Service) Account(ctx context.Context, id int) (*ent.Account, error) {
	a, err := s.Client(ctx).Account.Get(ctx, id)
	return a, core.NotFound(err, "Account")
}

// UserInput is a new platform user.
type UserInput struct {
	Name     string
	Email    string
	Password string
}

// CreatedUser is a new user and the access token made for it, shown once.
type CreatedUser struct {
	User        *ent.User
	AccessToken string
}

const minPasswordLen = 8

// maxPasswordBytes is what bcrypt hashes: it refuses anything longer, so a
// longer password is the caller's mistake, said as such, not a failure.
const maxPasswordBytes = 72

// passwordProblem says what is wrong with a new password ("" when nothing).
func passwordProblem(pw string) string {
	switch {
	case utf8.RuneCountInString(pw) < minPasswordLen:
		return "Password is too short (minimum is 8 characters)"
	case len(pw) > maxPasswordBytes:
		return "Password is too long (maximum is 72 bytes)"
	}
	return ""
}

// CreateUser creates a platform user with a password and an access token.
func (s *Service) CreateUser(ctx context.Context, in UserInput) (*CreatedUser, error) {
	var errs core.FieldErrors
	name := strings.TrimSpace(in.Name)
	if name == "" {
		errs.Add("name", "Name can't be blank")
	}
	email := core.NormalizeEmail(in.Email)
	if !core.ValidEmail(email) {
		errs.Add("email", "Email is invalid")
	}
	if msg := passwordProblem(in.Password); msg != "" {
		errs.Add("password", msg)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	taken, err := s.Client(ctx).User.Query().Where(user.Email(email)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	if taken {
		return nil, apperr.Invalid("Email has already been taken", "email")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(in.Password), bcrypt.DefaultCost)
	if err != nil {
		return nil, err
	}
	var out CreatedUser
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		u, err := c.User.Create().SetName(name).SetEmail(email).
			SetPasswordHash(string(hash)).SetConfirmed(true).Save(ctx)
		if err != nil {
			return err
		}
		tok, err := s.issueAccessToken(ctx, c, u.ID)
		out = CreatedUser{User: u, AccessToken: tok}
		return err
	})
	return &out, core.ApperrOrNil(err)
}

func (s *Service) issueAccessToken(ctx context.Context, c *ent.Client, userID int) (string, error) {
	tok, hash := core.NewToken()
	_, err := c.AccessToken.Create().SetTokenHash(hash).SetUserID(userID).Save(ctx)
	return tok, err
}

// User returns a platform user with its memberships.
func (s *Service) User(ctx context.Context, id int) (*ent.User, error) {
	u, err := s.Client(ctx).User.Query().Where(user.ID(id)).
		WithMemberships(func(q *ent.AccountUserQuery) { q.WithAccount() }).Only(ctx)
	return u, core.NotFound(err, "User")
}

// AddAccountUser makes a user a member of an account with role (or changes
// the role of an existing member).
func (s *Service) AddAccountUser(ctx context.Context, accountID, userID int, role string) (*ent.AccountUser, error) {
	if role == "" {
		role = "agent"
	}
	if err := accountuser.RoleValidator(accountuser.Role(role)); err != nil {
		return nil, apperr.Invalid("Role must be agent or administrator", "role")
	}
	if _, err := s.Account(ctx, accountID); err != nil {
		return nil, err
	}
	if _, err := s.Client(ctx).User.Get(ctx, userID); err != nil {
		return nil, core.NotFound(err, "User")
	}
	var m *ent.AccountUser
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		existing, err := c.AccountUser.Query().
			Where(accountuser.AccountID(accountID), accountuser.UserID(userID)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			m, err = c.AccountUser.Create().SetAccountID(accountID).SetUserID(userID).
				SetRole(accountuser.Role(role)).Save(ctx)
			return err
		case err != nil:
			return err
		}
		m, err = existing.Update().SetRole(accountuser.Role(role)).Save(ctx)
		return err
	})
	return m, core.ApperrOrNil(err)
}

// RemoveAccountUser ends a user's membership of an account, with its inbox
// and team memberships and conversation assignments there (as DeleteAgent).
func (s *Service) RemoveAccountUser(ctx context.Context, accountID, userID int) error {
	return core.ApperrOrNil(s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		return removeMembership(ctx, c, accountID, userID)
	}))
}

func removeMembership(ctx context.Context, c *ent.Client, accountID, userID int) error {
	n, err := c.AccountUser.Delete().
		Where(accountuser.AccountID(accountID), accountuser.UserID(userID)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.NotFound("Account user")
	}
	if _, err := c.InboxMember.Delete().
		Where(inboxmember.AccountID(accountID), inboxmember.UserID(userID)).Exec(ctx); err != nil {
		return err
	}
	if _, err := c.TeamMember.Delete().
		Where(teammember.AccountID(accountID), teammember.UserID(userID)).Exec(ctx); err != nil {
		return err
	}
	return c.Conversation.Update().
		Where(conversation.AccountID(accountID), conversation.AssigneeID(userID)).ClearAssigneeID().Exec(ctx)
}
