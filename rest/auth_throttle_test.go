package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/throttle"
)

// TestWrongTokensAreThrottled: an address that sends too many wrong API or
// platform tokens gets 429 with Retry-After (every request of the test
// comes from one address), until the allowance refills; a missing token is
// no guess and never counts.
func TestWrongTokensAreThrottled(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		clock := newManualClock()
		limits := accounts.DefaultAuthLimits
		limits.TokenPerAddress = throttle.Config{Burst: 3, Every: time.Minute}
		a := newAppWith(t, e, server.Config{Now: clock.Now, AuthLimits: &limits})
		contacts := a.path("/contacts")
		retryAfter := func(want string) func(t *testing.T, r *response) {
			return func(t *testing.T, r *response) {
				if got := r.Header.Get("Retry-After"); got != want {
					t.Errorf("Retry-After = %q, want %q", got, want)
				}
			}
		}
		var scenarios []scenario
		for range 5 {
			scenarios = append(scenarios, scenario{
				name:       "a missing token is 401 and not counted",
				request:    request{method: "GET", path: contacts, token: noToken},
				wantStatus: http.StatusUnauthorized,
			})
		}
		scenarios = append(scenarios,
			scenario{name: "wrong token 1 is 401", request: request{method: "GET", path: contacts, token: "wrong-1"}, wantStatus: http.StatusUnauthorized},
			scenario{name: "a valid token is not slowed", request: request{method: "GET", path: contacts}, wantStatus: http.StatusOK},
			scenario{name: "wrong token 2 is 401", request: request{method: "GET", path: contacts, token: "wrong-2"}, wantStatus: http.StatusUnauthorized},
			scenario{name: "a wrong platform token counts too", request: request{method: "GET", path: "/platform/api/v1/users/1", token: "wrong-3"}, wantStatus: http.StatusUnauthorized},
			scenario{
				name:       "the next wrong token is 429",
				request:    request{method: "GET", path: contacts, token: "wrong-4"},
				wantStatus: http.StatusTooManyRequests,
				want:       map[string]any{"error": "Too many requests with an invalid access token: try again in 1 minute."},
				check:      retryAfter("60"),
			},
			scenario{
				name:       "the throttled address is refused before its token is looked up",
				request:    request{method: "GET", path: contacts},
				wantStatus: http.StatusTooManyRequests,
				check:      retryAfter("60"),
			},
			scenario{
				name:       "the platform API too",
				request:    request{method: "POST", path: "/platform/api/v1/users", token: a.Platform, body: H{"name": "X", "email": "x@people.test"}},
				wantStatus: http.StatusTooManyRequests,
				check:      retryAfter("60"),
			},
		)
		a.run(t, scenarios)
		clock.Advance(40 * time.Second)
		a.run(t, []scenario{{
			name:       "Retry-After counts down",
			request:    request{method: "GET", path: contacts},
			wantStatus: http.StatusTooManyRequests,
			check:      retryAfter("20"),
		}})
		clock.Advance(20 * time.Second)
		a.run(t, []scenario{
			{name: "after the wait a valid token works", request: request{method: "GET", path: contacts}, wantStatus: http.StatusOK},
			{name: "one wrong token is allowed again", request: request{method: "GET", path: contacts, token: "wrong-5"}, wantStatus: http.StatusUnauthorized},
			{name: "and the next is 429", request: request{method: "GET", path: contacts, token: "wrong-6"}, wantStatus: http.StatusTooManyRequests, check: retryAfter("60")},
		})
	})
}
