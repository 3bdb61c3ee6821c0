package graph

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/viewer"
)

// wsRecheckEvery is how often a connection authenticates its init payload
// again. A subscription reads as the viewer its connection started as, so
// without it a token revoked, a member removed from the account, or an
// administrator made an agent would go on receiving what they may no
// longer see for as long as the client stays. The verified-token cache
// answers most checks from memory.
var wsRecheckEvery atomic.Int64

func init() { wsRecheckEvery.Store(int64(5 * time.Second)) }

// stillHolds authenticates the connection's init payload again and reports
// whether it still signs in the viewer the connection started as; if not,
// why. A check that fails otherwise (the database) holds: the next one
// tries again.
func (c *wsConn) stillHolds() (reason string, ok bool) {
	c.mu.Lock()
	was, payload := c.viewer, c.payload
	c.mu.Unlock()
	if payload == nil {
		return "", true // not initialised yet
	}
	ctx, err := c.t.reauthenticate(c.ctx, payload)
	if err != nil {
		switch apperr.From(err).Kind {
		case apperr.KindUnauthenticated, apperr.KindForbidden:
			return "Forbidden: " + shorten(err.Error(), 100), false
		}
		return "", true
	}
	if !sameViewer(was, ctx) {
		return "Forbidden: the token's access changed; connect again", false
	}
	return "", true
}

// sameViewer reports whether two contexts carry viewers of the same access
// (viewer.SameAccess).
func sameViewer(a, b context.Context) bool {
	va, _ := viewer.FromContext(a)
	vb, _ := viewer.FromContext(b)
	return va.SameAccess(vb)
}
