package accounts

import (
	"context"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestSignInDoesTheSameWorkForUnknownEmails: whether the e-mail is known,
// unknown, or a user without a password, a wrong sign-in costs exactly one
// bcrypt comparison at the cost real passwords are hashed with, so its time
// does not tell which e-mails exist. (Counted, not timed: timings on a
// shared machine prove nothing.)
func TestSignInDoesTheSameWorkForUnknownEmails(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		s := New(core.New(e.New(t).Client), DefaultAuthLimits)
		ctx := context.Background()
		if _, err := s.Bootstrap(ctx, BootstrapInput{AccountName: "Acme", Email: "admin@acme.test", Name: "Ada",
			Password: "long-enough-pass"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Bootstrap(ctx, BootstrapInput{AccountName: "Globex", Email: "token-only@globex.test", Name: "Tom"}); err != nil {
			t.Fatal(err)
		}
		var costs []int
		saved := comparePassword
		comparePassword = func(hash, password []byte) error {
			cost, err := bcrypt.Cost(hash)
			if err != nil {
				t.Errorf("compared against a hash that is no bcrypt hash: %v", err)
			}
			costs = append(costs, cost)
			return saved(hash, password)
		}
		t.Cleanup(func() { comparePassword = saved })
		for _, email := range []string{"admin@acme.test", "nobody@acme.test", "token-only@globex.test"} {
			costs = nil
			if _, err := s.Login(ctx, email, "wrong-password"); err == nil {
				t.Fatalf("%s signed in with a wrong password", email)
			}
			if len(costs) != 1 || costs[0] != bcrypt.DefaultCost {
				t.Errorf("%s: a wrong sign-in made comparisons at costs %v, want one at %d", email, costs, bcrypt.DefaultCost)
			}
		}
	})
}
