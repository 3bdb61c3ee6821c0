package accounts

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// BootstrapInput names the account and administrator to set up.
type BootstrapInput struct {
	AccountName string
	Email       string
	Name        string
	// Password is optional: without it the administrator works through its
	// API token only. An existing user keeps the password it has, and one
	// given for it is refused.
	Password string
}

// Bootstrapped is what Bootstrap made. PlatformToken is set only when this
// call created the installation's platform token.
type Bootstrapped struct {
	AccountID     int    `json:"account_id"`
	UserID        int    `json:"user_id"`
	AccessToken   string `json:"access_token"`
	PlatformToken string `json:"platform_token,omitempty"`
}

// Bootstrap creates an account and an administrator of it, reusing the
// platform user when the e-mail exists, and gives the user a fresh access
// token. It runs as the system: it is the installation's own set-up.
func (s *Service) Bootstrap(ctx context.Context, in BootstrapInput) (*Bootstrapped, error) {
	ctx = core.AsStartup(ctx)
	var errs core.FieldErrors
	in.AccountName = strings.TrimSpace(in.AccountName)
	in.Name = strings.TrimSpace(in.Name)
	email := core.NormalizeEmail(in.Email)
	if in.AccountName == "" {
		errs.Add("account_name", "Account name can't be blank")
	}
	if !core.ValidEmail(email) {
		errs.Add("email", "Email is invalid")
	}
	if in.Password != "" {
		if msg := passwordProblem(in.Password); msg != "" {
			errs.Add("password", msg)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var out Bootstrapped
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		acc, err := c.Account.Create().SetName(in.AccountName).Save(ctx)
		if err != nil {
			return err
		}
		u, err := s.bootstrapUser(ctx, c, email, in)
		if err != nil {
			return err
		}
		if _, err := c.AccountUser.Create().SetAccountID(acc.ID).SetUserID(u.ID).
			SetRole("administrator").SetAvailability("online").Save(ctx); err != nil {
			return err
		}
		tok, err := s.issueAccessToken(ctx, c, u.ID)
		if err != nil {
			return err
		}
		out = Bootstrapped{AccountID: acc.ID, UserID: u.ID, AccessToken: tok}
		out.PlatformToken, err = s.ensurePlatformToken(ctx, c)
		return err
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return &out, nil
}

func (s *Service) bootstrapUser(ctx context.Context, c *ent.Client, email string, in BootstrapInput) (*ent.User, error) {
	u, err := c.User.Query().Where(user.Email(email)).Only(ctx)
	if err == nil && in.Password != "" {
		// Said, not dropped: the operator would believe the password set.
		return nil, apperr.Invalid("A user with this e-mail exists and keeps the password it has: leave the password out, or change it with users reset-password", "password")
	}
	if err == nil || !ent.IsNotFound(err) {
		return u, err
	}
	name := in.Name
	if name == "" {
		name = strings.SplitN(email, "@", 2)[0]
	}
	create := c.User.Create().SetName(name).SetEmail(email).SetConfirmed(true)
	if in.Password != "" {
		hash, err := bcrypt.GenerateFromPassword([]byte(in.Password), bcrypt.DefaultCost)
		if err != nil {
			return nil, err
		}
		create.SetPasswordHash(string(hash))
	}
	return create.Save(ctx)
}

// ensurePlatformToken creates the installation's platform token if there is
// none yet, and returns it ("" when one already existed).
func (s *Service) ensurePlatformToken(ctx context.Context, c *ent.Client) (string, error) {
	n, err := c.PlatformToken.Query().Count(ctx)
	if err != nil || n > 0 {
		return "", err
	}
	tok, hash := core.NewToken()
	_, err = c.PlatformToken.Create().SetTokenHash(hash).Save(ctx)
	return tok, err
}

// IsEmpty reports whether the database has no account yet (a fresh install).
func (s *Service) IsEmpty(ctx context.Context) (bool, error) {
	n, err := s.Client(ctx).Account.Query().Count(core.AsStartup(ctx))
	return n == 0, err
}

// RandomPassword makes a password for the first administrator of a fresh
// install, printed once at start-up.
func RandomPassword() string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
