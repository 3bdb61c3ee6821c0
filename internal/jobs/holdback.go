package jobs

import "time"

// Holding claims back. In a burst to one key (an inbox's channel, a webhook
// subscription) the key's local queue fills (queuePerKey) and claims skip
// it: a claim then reads past every due row of that key to return none.
// Made every claimPause, such empty claims took a third of a 10,000
// schedule burst's CPU on SQLite (docs/performance.md). So after an empty
// claim that skipped saturated keys, the kind's claims wait until those
// keys' queues are half drained (the worker that drains one wakes the
// loop), or holdBackLimit passes, whichever comes first. A claim that finds
// rows is not held: rows of other keys still start at once.

// holdBackLimit bounds a hold: rows of other keys that came due meanwhile
// wait at most this long.
const holdBackLimit = 250 * time.Millisecond

// holdBack is what a kind's claims wait for: keys to drain, until at most.
type holdBack struct {
	keys  []int
	until time.Time
}

// claimHeld reports whether claims of kind i are held back at now, and for
// how long at most.
func (r *Runner) claimHeld(i int, k kind, now time.Time) (time.Duration, bool) {
	h := r.held[i]
	if h.keys == nil {
		return 0, false
	}
	if now.Before(h.until) && !r.inflight.drained(k, h.keys) {
		return h.until.Sub(now), true
	}
	r.held[i] = holdBack{}
	return 0, false
}

// holdClaims holds claims of kind i back after one that found nothing but
// skipped the saturated keys.
func (r *Runner) holdClaims(i int, saturated []int, now time.Time) {
	r.held[i] = holdBack{keys: saturated, until: now.Add(holdBackLimit)}
}

// drainedTo is the queue length at which a held key counts as drained.
const drainedTo = queuePerKey / 2

// drained reports whether every key of keys has fewer than drainedTo jobs
// waiting.
func (f *inflight) drained(k kind, keys []int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	for _, key := range keys {
		if len(h.queued[key]) >= drainedTo {
			return false
		}
	}
	return true
}

// justDrained reports whether key's queue has just dropped below drainedTo
// (it did with the job just taken from it): a held claim may go ahead.
func (f *inflight) justDrained(k kind, key int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.of(k).queued[key]) == drainedTo-1
}
