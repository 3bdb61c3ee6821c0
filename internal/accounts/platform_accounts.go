package accounts

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/account"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/internal/core"
)

// AccountInput carries the account fields the platform API may change
// (Chatwoot's name, locale and status); nil means "not sent".
type AccountInput struct {
	Name   *string
	Locale *string
	Status *string
}

// UpdateAccount changes an account (platform API). Suspending it signs its
// users out of it: authentication refuses suspended accounts.
func (s *Service) UpdateAccount(ctx context.Context, id int, in AccountInput) (*ent.Account, error) {
	var errs core.FieldErrors
	if in.Name != nil && strings.TrimSpace(*in.Name) == "" {
		errs.Add("name", "Name can't be blank")
	}
	if in.Status != nil && account.StatusValidator(account.Status(*in.Status)) != nil {
		errs.Add("status", "Status must be active or suspended")
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	a, err := s.Account(ctx, id)
	if err != nil {
		return nil, err
	}
	upd := a.Update()
	if in.Name != nil {
		upd.SetName(strings.TrimSpace(*in.Name))
	}
	if in.Locale != nil {
		upd.SetLocale(strings.TrimSpace(*in.Locale))
	}
	if in.Status != nil {
		upd.SetStatus(account.Status(*in.Status))
	}
	a, err = upd.Save(ctx)
	return a, core.ApperrOrNil(err)
}

// AccountUsers lists an account's memberships (platform API), oldest first.
func (s *Service) AccountUsers(ctx context.Context, accountID int) ([]*ent.AccountUser, error) {
	if _, err := s.Account(ctx, accountID); err != nil {
		return nil, err
	}
	ms, err := s.Client(ctx).AccountUser.Query().Where(accountuser.AccountID(accountID)).
		Order(ent.Asc(accountuser.FieldID)).All(ctx)
	return ms, core.ApperrOrNil(err)
}
