package accounts

import (
	"time"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/throttle"
)

// AuthLimits throttle guessed credentials. Each instance keeps its own
// counts in memory (bounded, least recently used keys forgotten first):
// with N instances an attacker gets N times the allowance, which is still
// far too little to guess a password, and nothing is shared or written.
type AuthLimits struct {
	// PasswordPerEmail and PasswordPerAddress count console sign-ins; only
	// failed ones are kept.
	PasswordPerEmail   throttle.Config
	PasswordPerAddress throttle.Config
	// TokenPerAddress counts wrong API and platform tokens; valid tokens
	// are never counted (and cost no write).
	TokenPerAddress throttle.Config
}

// DefaultAuthLimits: five wrong passwords per e-mail, then one a minute;
// twenty per client address, then one every ten seconds; twenty wrong
// tokens per address, then one every three seconds.
var DefaultAuthLimits = AuthLimits{
	PasswordPerEmail:   throttle.Config{Burst: 5, Every: time.Minute},
	PasswordPerAddress: throttle.Config{Burst: 20, Every: 10 * time.Second},
	TokenPerAddress:    throttle.Config{Burst: 20, Every: 3 * time.Second},
}

type authGuard struct {
	emails, passwordAddrs, tokenAddrs *throttle.Limiter
}

func newAuthGuard(l AuthLimits, now func() time.Time) *authGuard {
	limiter := func(c throttle.Config) *throttle.Limiter {
		if c.Now == nil {
			c.Now = now
		}
		return throttle.New(c)
	}
	return &authGuard{
		emails:        limiter(l.PasswordPerEmail),
		passwordAddrs: limiter(l.PasswordPerAddress),
		tokenAddrs:    limiter(l.TokenPerAddress),
	}
}

// takePasswordAttempt spends one sign-in attempt of both the e-mail and
// the address before the password is checked; refund gives them back after
// a success.
func (g *authGuard) takePasswordAttempt(email, addr string) (refund func(), err error) {
	byEmail, wait := g.emails.Take(email)
	if byEmail == nil {
		return nil, tooManySignIns(wait)
	}
	byAddr, wait := g.passwordAddrs.Take(throttle.AddressKey(addr))
	if byAddr == nil {
		byEmail.Refund()
		return nil, tooManySignIns(wait)
	}
	return func() { byEmail.Refund(); byAddr.Refund() }, nil
}

func tooManySignIns(wait time.Duration) error {
	return apperr.TooManyRequests("Too many sign-in attempts: try again in "+throttle.WaitText(wait)+".", wait)
}

// tokenWait refuses an address that sent too many wrong tokens, before the
// token is looked up.
func (g *authGuard) tokenWait(addr string) error {
	if wait := g.tokenAddrs.Wait(throttle.AddressKey(addr)); wait > 0 {
		return apperr.TooManyRequests("Too many requests with an invalid access token: try again in "+throttle.WaitText(wait)+".", wait)
	}
	return nil
}

// tokenFailed counts a wrong token of addr.
func (g *authGuard) tokenFailed(addr string) { g.tokenAddrs.Take(throttle.AddressKey(addr)) }

// UnthrottledAuthLimits never throttle: for test suites that send many
// refused credentials on purpose (authorization matrices).
var UnthrottledAuthLimits = AuthLimits{
	PasswordPerEmail:   throttle.Config{Burst: 1 << 20, Every: time.Nanosecond},
	PasswordPerAddress: throttle.Config{Burst: 1 << 20, Every: time.Nanosecond},
	TokenPerAddress:    throttle.Config{Burst: 1 << 20, Every: time.Nanosecond},
}
