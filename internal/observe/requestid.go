// Package observe is what an operator sees of a running server: health and
// readiness probes, Prometheus metrics, JSON access logs with a request id,
// and the websocket clients to tell "going away" at shutdown.
package observe

import (
	"context"

	"github.com/google/uuid"
)

// HeaderRequestID carries the request id both ways.
const HeaderRequestID = "X-Request-Id"

// maxRequestIDLen bounds a client's request id: it lands in every log line.
const maxRequestIDLen = 128

type requestIDKey struct{}

// RequestID is the id of the request ctx belongs to ("" outside one).
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// WithRequestID returns ctx carrying id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// requestID keeps the client's id when it is sane (a proxy's or a caller's
// id then ties their logs to ours) and makes one otherwise: an id with
// spaces, quotes or control characters could forge log fields downstream.
func requestID(fromClient string) string {
	if saneRequestID(fromClient) {
		return fromClient
	}
	return uuid.NewString()
}

func saneRequestID(s string) bool {
	if s == "" || len(s) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '-' || c == '_' || c == '.' || c == ':'
		if !ok {
			return false
		}
	}
	return true
}
