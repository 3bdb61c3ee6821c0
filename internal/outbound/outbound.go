// Package outbound is the HTTP client for every request the service makes
// to the outside (webhooks, channel APIs), and the dialer of its SMTP
// connections. Both refuse loopback, private and link-local addresses, so an
// address a user typed cannot reach the service's own network, unless
// SWITCHBOARD_ALLOW_PRIVATE_NETWORKS=1 (tests, on-premise).
package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"
)

// ErrForbiddenAddress says a URL resolves to an address outbound requests
// may not reach.
var ErrForbiddenAddress = errors.New("destination address is not allowed (loopback, private or link-local)")

// AllowPrivate reports whether private destinations are allowed.
func AllowPrivate() bool { return os.Getenv("SWITCHBOARD_ALLOW_PRIVATE_NETWORKS") == "1" }

// NewClient returns an HTTP client with the address guard and timeout.
func NewClient(timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, Control: guard(AllowPrivate())}
	tr := &http.Transport{
		DialContext:           dialer.DialContext,
		Proxy:                 nil, // a proxy would dial on our behalf and dodge the guard
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       60 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{Timeout: timeout, Transport: tr, CheckRedirect: noRedirects}
}

// Dial opens a TCP connection to address under the same guard, for the
// protocols that are not HTTP (SMTP).
func Dial(ctx context.Context, address string) (net.Conn, error) {
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: guard(AllowPrivate())}
	return dialer.DialContext(ctx, "tcp", address)
}

// noRedirects keeps a receiver from bouncing a request elsewhere: its answer
// is what counts.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// guard checks the address actually dialled (after DNS), so a name that
// resolves to a private address is refused as well.
func guard(allowPrivate bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		if allowPrivate {
			return nil
		}
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip := net.ParseIP(host)
		if ip == nil || forbidden(ip) {
			return fmt.Errorf("%w: %s", ErrForbiddenAddress, host)
		}
		return nil
	}
}

func forbidden(ip net.IP) bool {
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast()
}

// Retryable reports whether a failed request is worth another attempt:
// network errors and 5xx (and 429) are; other answers are final.
func Retryable(status int, err error) bool {
	if err != nil {
		return !errors.Is(err, ErrForbiddenAddress) && !errors.Is(err, context.Canceled)
	}
	return status >= 500 || status == http.StatusTooManyRequests
}
