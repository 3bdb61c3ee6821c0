// Package outbound is the one guard on connections the service opens to
// addresses users configure (account webhooks, API inbox webhook URLs, the
// kanban webhook, agent bots, channel APIs, SMTP servers). It refuses every
// IANA special-purpose address (ranges.go) twice: when a URL or host is
// configured (CheckURL, CheckHost: literal addresses and localhost) and
// after every DNS resolution when connecting (dial.go), so an address a user
// typed cannot reach the service's own network. Redirects are not followed.
// SetAllowPrivate(true) lifts the address checks (tests, on-premise
// receivers): main sets it from SWITCHBOARD_ALLOW_PRIVATE_NETWORKS.
package outbound

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// allowPrivate is process-wide rather than per client because the
// configuration-time checks (CheckURL, CheckHost) run in every layer that
// accepts a URL, far from any place a setting could be handed down.
var allowPrivate atomic.Bool

// AllowPrivate reports whether private destinations are allowed.
func AllowPrivate() bool { return allowPrivate.Load() }

// SetAllowPrivate sets whether private destinations are allowed (main, once
// at start) and returns a function that restores the previous setting, for
// tests: t.Cleanup(outbound.SetAllowPrivate(true)). Clients already made
// keep the setting they were made with; tests that change it must not run
// in parallel with other tests of the guard.
func SetAllowPrivate(allow bool) (restore func()) {
	prev := allowPrivate.Swap(allow)
	return func() { allowPrivate.Store(prev) }
}

// NewClient returns an HTTP client with the address guard and timeout.
func NewClient(timeout time.Duration) *http.Client {
	return newClient(timeout, newDialer(AllowPrivate(), &net.Dialer{Timeout: 5 * time.Second}))
}

func newClient(timeout time.Duration, d *dialer) *http.Client {
	// MaxIdleConnsPerHost: as many as the job runner delivers to one
	// receiver at once (jobs' deliveriesPerKey); a connection beyond the idle
	// ones is closed after its request, and a burst would dial (and for
	// https shake hands) anew.
	tr := &http.Transport{
		DialContext:           d.DialContext,
		Proxy:                 nil, // a proxy would dial on our behalf and dodge the guard
		MaxIdleConnsPerHost:   96,
		IdleConnTimeout:       60 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{Timeout: timeout, Transport: tr, CheckRedirect: noRedirects}
}

// Dial opens a TCP connection to address under the same guard, for the
// protocols that are not HTTP (SMTP).
func Dial(ctx context.Context, address string) (net.Conn, error) {
	return newDialer(AllowPrivate(), &net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, "tcp", address)
}

// noRedirects keeps a receiver from bouncing a request elsewhere, to a
// private address above all: its answer is what counts. (A followed
// redirect would go through the guarded dialer too; not following one at all
// also keeps the request's signature from reaching a third party.)
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Retryable reports whether a failed request is worth another attempt:
// network errors, 5xx, 408 and 429 are; other answers are final.
func Retryable(status int, err error) bool {
	if err != nil {
		return !errors.Is(err, ErrForbiddenAddress) && !errors.Is(err, context.Canceled)
	}
	return status >= 500 || status == http.StatusTooManyRequests || status == http.StatusRequestTimeout
}
