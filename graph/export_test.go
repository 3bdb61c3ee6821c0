package graph

import "time"

// SetWSRecheck makes websocket connections authenticate again every d.
func SetWSRecheck(d time.Duration) (restore func()) {
	old := wsRecheckEvery.Swap(int64(d))
	return func() { wsRecheckEvery.Store(old) }
}
