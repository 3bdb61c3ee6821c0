package accounts

import (
	"context"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/user"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/viewer"
)

// A user's own fields — name, display name, e-mail, password — belong to the
// user, not to any account they work in: they change through the user's
// profile (PUT /api/v1/profile) or the platform API, both through
// changeUser. An account's administrator changes only the account-scoped
// fields of a membership (see UpdateAgent).

// ProfileInput carries a user's own fields; nil means "not sent".
type ProfileInput struct {
	Name        *string
	DisplayName *string
	Email       *string
	Password    *string
	// CurrentPassword must come with a new e-mail or password on the
	// profile, so that a leaked API token alone cannot take the user's
	// sign-in over. The platform API does not need it.
	CurrentPassword *string
}

// UserViewer authenticates an access token for the routes of the user
// themself (the profile), which belong to no account.
func (s *Service) UserViewer(ctx context.Context, token string) (viewer.Viewer, error) {
	u, err := s.userForToken(ctx, token)
	if err != nil {
		return viewer.Viewer{}, err
	}
	return viewer.Viewer{UserID: u.ID}, nil
}

// Profile returns the signed-in user with their accounts.
func (s *Service) Profile(ctx context.Context) (*ent.User, error) {
	id, err := profileUser(ctx)
	if err != nil {
		return nil, err
	}
	return s.User(core.AsOwnProfile(ctx), id)
}

// UpdateProfile changes the signed-in user's own fields.
func (s *Service) UpdateProfile(ctx context.Context, in ProfileInput) (*ent.User, error) {
	id, err := profileUser(ctx)
	if err != nil {
		return nil, err
	}
	return s.changeUser(core.AsOwnProfile(ctx), id, in, true)
}

// UpdateUser changes a user's own fields through the platform API.
func (s *Service) UpdateUser(ctx context.Context, id int, in ProfileInput) (*ent.User, error) {
	if v, _ := viewer.FromContext(ctx); !v.Platform && !v.System {
		return nil, apperr.Forbidden("You are not authorized to do this action: users are changed through the platform API")
	}
	return s.changeUser(ctx, id, in, false)
}

func profileUser(ctx context.Context) (int, error) {
	v, ok := viewer.FromContext(ctx)
	if !ok || v.UserID == 0 || v.System || v.Platform {
		return 0, apperr.Unauthenticated("You need to sign in or sign up before continuing: send the api_access_token header")
	}
	return v.UserID, nil
}

// changeUser is the one operation that changes a user's own fields. self
// says the user changes their own profile (the current password is then
// required for a new e-mail or password).
func (s *Service) changeUser(ctx context.Context, id int, in ProfileInput, self bool) (*ent.User, error) {
	if err := checkProfile(&in); err != nil {
		return nil, err
	}
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		u, err := c.User.Get(ctx, id)
		if err != nil {
			return core.NotFound(err, "User")
		}
		newEmail := in.Email != nil && *in.Email != u.Email
		if self && (newEmail || in.Password != nil) && !currentPasswordMatches(u, in.CurrentPassword) {
			return apperr.Invalid("Current password is missing or wrong: it is needed to change the e-mail or the password", "current_password")
		}
		if newEmail {
			taken, err := c.User.Query().Where(user.Email(*in.Email), user.IDNEQ(id)).Exist(ctx)
			if err != nil {
				return err
			}
			if taken {
				return apperr.Invalid("Email has already been taken", "email")
			}
		}
		upd := u.Update().SetNillableDisplayName(in.DisplayName)
		core.SetIf(in.Name, func(v string) { upd.SetName(v) })
		core.SetIf(in.Email, func(v string) { upd.SetEmail(v) })
		if in.Password != nil {
			hash, err := bcrypt.GenerateFromPassword([]byte(*in.Password), bcrypt.DefaultCost)
			if err != nil {
				return err
			}
			upd.SetPasswordHash(string(hash))
		}
		return upd.Exec(ctx)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.User(ctx, id)
}

// checkProfile validates and normalizes the sent fields.
func checkProfile(in *ProfileInput) error {
	var errs core.FieldErrors
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		in.Name = &name
		if name == "" {
			errs.Add("name", "Name can't be blank")
		}
	}
	if in.Email != nil {
		email := core.NormalizeEmail(*in.Email)
		in.Email = &email
		if !core.ValidEmail(email) {
			errs.Add("email", "Email is invalid")
		}
	}
	if in.Password != nil {
		if msg := passwordProblem(*in.Password); msg != "" {
			errs.Add("password", msg)
		}
	}
	return errs.Err()
}

func currentPasswordMatches(u *ent.User, current *string) bool {
	if u.PasswordHash == "" {
		return true // an invited user has no password yet: nothing to confirm
	}
	return current != nil && bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(*current)) == nil
}
