package apitest

import (
	"context"
	"testing"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Admin bootstraps an account named account with its administrator (at
// email) and returns the administrator's context and the account's id.
func Admin(t testing.TB, s *ops.Service, account, email string) (context.Context, int) {
	t.Helper()
	b, err := s.Bootstrap(context.Background(), accounts.BootstrapInput{AccountName: account, Email: email, Name: "Admin"})
	if err != nil {
		t.Fatal(err)
	}
	return viewer.NewContext(context.Background(), viewer.Viewer{UserID: b.UserID, AccountID: b.AccountID, Role: viewer.RoleAdministrator}), b.AccountID
}
