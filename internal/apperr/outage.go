package apperr

import (
	"database/sql/driver"
	"errors"
	"net"
	"net/url"
	"strings"
	"syscall"

	"github.com/lib/pq"
)

const unavailableMessage = "The service is temporarily unavailable: its database cannot be reached. Retry later."

// Unavailable says a dependency is down and the request may be retried.
func Unavailable() *Error { return &Error{Kind: KindUnavailable, Message: unavailableMessage} }

// IsOutage reports whether err says the database cannot be reached (as
// opposed to a query that failed): the connection was refused, cut or
// reset, or the server is shutting down or starting up.
func IsOutage(err error) bool { return isOutage(err) }

func isOutage(err error) bool {
	// An outbound HTTP call (a webhook, a channel) failing is that
	// receiver's problem, not ours: its net errors are not an outage.
	var ue *url.Error
	if errors.As(err, &ue) {
		return false
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var pe *pq.Error
	if errors.As(err, &pe) {
		return pqOutage(pe.Code)
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		return true
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return true
	}
	// Drivers that flatten the dial error into text.
	return strings.Contains(err.Error(), "connection refused")
}

// pqOutage: class 08 is "connection exception"; 57P01-57P03 are the server
// shutting down, crashing or not yet accepting connections; 53300 is "too
// many connections" (the server is up but cannot take this one now). SQLite
// busy beyond its timeout is not among them: that is contention, which a
// retry loop of clients would only worsen.
func pqOutage(code pq.ErrorCode) bool {
	switch code {
	case "57P01", "57P02", "57P03", "53300":
		return true
	}
	return code.Class() == "08"
}
