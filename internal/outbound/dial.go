package outbound

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"syscall"
)

// Resolver turns a host name into addresses (net.Resolver does; tests stub
// it so that no name is looked up and no foreign address is dialled).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// dialer resolves a host itself, checks every address it got, and connects
// only to those addresses: a name cannot resolve to a public address when
// checked and a private one when dialled (DNS rebinding), since it is not
// resolved twice.
type dialer struct {
	resolver     Resolver
	dial         func(ctx context.Context, network, address string) (net.Conn, error)
	allowPrivate bool
}

func newDialer(allowPrivate bool, connect *net.Dialer) *dialer {
	// The socket-level check is a second line behind the one in DialContext:
	// it sees the very address connect(2) gets.
	connect.Control = controlGuard(allowPrivate)
	return &dialer{resolver: net.DefaultResolver, dial: connect.DialContext, allowPrivate: allowPrivate}
}

// DialContext connects to address ("host:port") under the guard. Its errors
// name the host as given, never the addresses it resolved to nor the DNS
// server asked.
func (d *dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, &Error{msg: "invalid address " + address, cause: err}
	}
	ips, err := d.resolve(ctx, network, host)
	if err != nil {
		return nil, lookupError(host, err)
	}
	if !d.allowPrivate {
		for _, ip := range ips {
			if Forbidden(ip) {
				return nil, &Error{msg: "connect to " + host + ": " + ErrForbiddenAddress.Error(), cause: ErrForbiddenAddress}
			}
		}
	}
	var last error
	for _, ip := range ips {
		conn, err := d.dial(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return conn, nil
		}
		last = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, connectError(host, last)
}

// resolve returns host's addresses (host itself when it is one), unmapped.
func (d *dialer) resolve(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip.Unmap()}, nil
	}
	ipNetwork := "ip"
	switch network {
	case "tcp4", "udp4":
		ipNetwork = "ip4"
	case "tcp6", "udp6":
		ipNetwork = "ip6"
	}
	ips, err := d.resolver.LookupNetIP(ctx, ipNetwork, host)
	if err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	for i := range ips {
		ips[i] = ips[i].Unmap()
	}
	return ips, nil
}

// controlGuard refuses a socket about to connect to a forbidden address.
func controlGuard(allowPrivate bool) func(network, address string, _ syscall.RawConn) error {
	return func(_, address string, _ syscall.RawConn) error {
		if allowPrivate {
			return nil
		}
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return ErrForbiddenAddress
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || Forbidden(ip) {
			return ErrForbiddenAddress
		}
		return nil
	}
}

// Error is a failed outbound connection, told in words that reveal nothing
// about the service's network (no resolved address, no resolver). The cause
// stays reachable through errors.Is/As for the code that classifies it.
type Error struct {
	msg   string
	cause error
}

func (e *Error) Error() string { return e.msg }
func (e *Error) Unwrap() error { return e.cause }

// Timeout lets net/http and callers see a timed-out connection as one.
func (e *Error) Timeout() bool {
	var t interface{ Timeout() bool }
	return errors.As(e.cause, &t) && t.Timeout()
}

func lookupError(host string, err error) error {
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &Error{msg: "looking up " + host + ": " + err.Error(), cause: err}
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return &Error{msg: "host " + host + " not found", cause: err}
	case errors.As(err, &dnsErr) && dnsErr.IsTimeout:
		return &Error{msg: "looking up " + host + " timed out", cause: err}
	}
	return &Error{msg: "looking up " + host + " failed", cause: err}
}

func connectError(host string, err error) error {
	var t interface{ Timeout() bool }
	switch {
	case err == nil:
		return &Error{msg: "connect to " + host + ": no address", cause: errors.New("no address")}
	case errors.Is(err, ErrForbiddenAddress):
		return &Error{msg: "connect to " + host + ": " + ErrForbiddenAddress.Error(), cause: err}
	case errors.Is(err, context.Canceled):
		return &Error{msg: "connect to " + host + ": canceled", cause: err}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &t) && t.Timeout():
		return &Error{msg: "connect to " + host + ": i/o timeout", cause: err}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &Error{msg: "connect to " + host + ": connection refused", cause: err}
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return &Error{msg: "connect to " + host + ": unreachable", cause: err}
	}
	return &Error{msg: "connect to " + host + " failed", cause: err}
}
