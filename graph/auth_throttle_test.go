package graph_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/throttle"
)

// TestGraphQLWrongTokensAreThrottled: /graphql counts wrong tokens per
// client address as REST does (one count for both): past the allowance it
// answers 429 with Retry-After and TOO_MANY_REQUESTS, valid tokens too.
func TestGraphQLWrongTokensAreThrottled(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		limits := accounts.DefaultAuthLimits
		limits.TokenPerAddress = throttle.Config{Burst: 2, Every: time.Minute}
		a := newAppWith(t, e, server.Config{Channels: acceptAll{}, AuthLimits: &limits})
		const q = `{ contacts { totalCount } }`
		for i, want := range []int{http.StatusOK, http.StatusUnauthorized, http.StatusUnauthorized, http.StatusTooManyRequests} {
			token := "wrong"
			if i == 0 {
				token = ""
			}
			r := a.gql(gqlReq{token: token, query: q})
			if r.Status != want {
				t.Fatalf("request %d: want %d, got %s", i+1, want, r)
			}
		}
		r := a.gql(gqlReq{query: q})
		if r.Status != http.StatusTooManyRequests || r.code() != "TOO_MANY_REQUESTS" || r.Header.Get("Retry-After") != "60" {
			t.Errorf("a valid token from the throttled address: %s (Retry-After %q)", r, r.Header.Get("Retry-After"))
		}
	})
}
