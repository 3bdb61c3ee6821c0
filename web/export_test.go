package web

import "time"

// SetLiveTimings shortens the board socket's ping and pong waits for a
// test; the returned function restores them.
func SetLiveTimings(pongWait, pingPeriod time.Duration) (restore func()) {
	old := boardTimings.Load()
	boardTimings.Store(&liveTimings{writeWait: old.writeWait, pongWait: pongWait, pingPeriod: pingPeriod})
	return func() { boardTimings.Store(old) }
}
