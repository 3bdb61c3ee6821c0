package outbound

import (
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// ErrForbiddenAddress says a destination is an address outbound requests
// may not reach. The text names no address: whoever reads it typed the host.
var ErrForbiddenAddress = errors.New("destination address is not allowed (loopback, private or reserved network)")

// ErrNotHTTP says a URL is not an absolute http(s) URL with a host.
var ErrNotHTTP = errors.New("not an http(s) URL with a host")

// CheckURL is the configuration-time check of a URL the service will call:
// an absolute http(s) URL whose host is not localhost, not a literal
// special-purpose address and not a number in another notation. Names are
// not resolved here (they may change): the dialer checks every address it
// connects to.
func CheckURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.Opaque != "" {
		return ErrNotHTTP
	}
	return CheckHost(u.Hostname())
}

// CheckHost is CheckURL for a bare host name or address (an SMTP server).
func CheckHost(host string) error {
	if AllowPrivate() {
		return nil
	}
	return checkHost(host)
}

func checkHost(host string) error {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h // "smtp.example.com:25": the port is not the check's business
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(strings.TrimSpace(host), "[]")), ".")
	if host == "" {
		return ErrForbiddenAddress
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return ErrForbiddenAddress
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if Forbidden(ip) {
			return ErrForbiddenAddress
		}
		return nil
	}
	if numericHost(host) {
		return ErrForbiddenAddress
	}
	return nil
}

// numericHost reports a host that is no DNS name but an address in a
// notation netip does not read (2130706433, 0x7f.1, 127.1, 0177.0.0.1):
// some resolvers (inet_aton) turn these into addresses. No top-level domain
// is numeric, so a numeric last label is never a real name.
func numericHost(host string) bool {
	labels := strings.Split(host, ".")
	last := labels[len(labels)-1]
	if strings.HasPrefix(last, "0x") {
		return true
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}
