package core

import (
	"context"
	"time"
)

// Sleep waits d, or less if ctx ends first; it answers whether the whole
// wait passed (false: ctx ended). Waits between retries and polls use it,
// so that a shutdown never waits one out.
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
