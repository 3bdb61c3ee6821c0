package jobs

import (
	"slices"
	"sync"
	"time"
)

// job is a claimed row, the key it counts against (an inbox, a webhook
// subscription) and the lease its claim set.
type job struct {
	id, key int
	lease   time.Time
}

// inflight is what a runner holds: per kind, the jobs running, how many
// run per key, the claimed jobs waiting for a worker or for their key, and
// every claim not yet finished (renewed while held, released at shutdown).
//
// Waiting jobs are why a burst to one key needs few claims: a claim takes
// rows of a key that already runs all it may, they wait here, and a worker
// that finishes takes the next at once. A key's waiting jobs are bounded
// (queuePerKey), so a hanging key holds few rows, and claims skip it then.
type inflight struct {
	mu    sync.Mutex
	kinds map[string]*held
}

type held struct {
	running int
	perKey  map[int]int
	queued  map[int][]job
	waiting int               // jobs in queued, all keys
	claims  map[int]time.Time // id → lease
	// firingsFoundNone: the last worker of a kind that claims its own rows
	// ended without taking one.
	firingsFoundNone bool
}

// queuePerKey bounds the claimed jobs waiting behind one key; queueLimit
// the waiting jobs of a kind.
const (
	queuePerKey = 64
	queueLimit  = 128
)

func newInflight() *inflight { return &inflight{kinds: map[string]*held{}} }

func (f *inflight) of(k kind) *held {
	h, ok := f.kinds[k.table]
	if !ok {
		h = &held{perKey: map[int]int{}, queued: map[int][]job{}, claims: map[int]time.Time{}}
		f.kinds[k.table] = h
	}
	return h
}

// free is how many more jobs of k may start.
func (f *inflight) free(k kind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return max(k.workers-f.of(k).running, 0)
}

// room is how many jobs a claim of k may take: one per free worker, and
// more to wait while the queue has room.
func (f *inflight) room(k kind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	if k.perKey == 0 {
		return max(k.workers-h.running, 0)
	}
	return max(k.workers-h.running, 0) + max(queueLimit-h.waiting, 0)
}

// saturated lists the keys of k with as many waiting jobs as they may
// have: a claim skips them.
func (f *inflight) saturated(k kind) []int {
	if k.perKey == 0 {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int
	for key, q := range f.of(k).queued {
		if len(q) >= queuePerKey {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

// add records a claimed job and reports whether it may start now; if no
// worker is free or its key runs all it may, it waits.
func (f *inflight) add(k kind, j job) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	if _, held := h.claims[j.id]; !held {
		// A claim held already (a handed message behind its conversation's)
		// keeps the lease its renewals moved it to.
		h.claims[j.id] = j.lease
	}
	if h.running >= k.workers || (k.perKey > 0 && h.perKey[j.key] >= k.perKey) {
		h.queued[j.key] = append(h.queued[j.key], j)
		h.waiting++
		return false
	}
	h.running++
	h.perKey[j.key]++
	return true
}

// firingStarted counts a worker of a kind that claims its own rows
// (firing.go) as running.
func (f *inflight) firingStarted(k kind) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.of(k).running++
}

// firingEnded ends a worker started by firingStarted; tookNone says it
// found no row to take, all of them held by other firings.
func (f *inflight) firingEnded(k kind, tookNone bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	h.running--
	h.firingsFoundNone = tookNone
}

// firingsToStart is how many workers of a kind that claims its own rows a
// pass starts: one per free worker, but a single one after a worker found
// nothing to take (the due rows are held by firings still running, whose
// end wakes the loop).
func (f *inflight) firingsToStart(k kind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	free := max(k.workers-h.running, 0)
	if h.firingsFoundNone {
		return min(free, 1)
	}
	return free
}

// hold records claims js that a worker already running runs itself.
func (f *inflight) hold(k kind, js []job) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	for _, j := range js {
		h.claims[j.id] = j.lease
	}
}

// drop ends the claims js taken by hold; as done, claims stopped by
// shutdown are kept, to be released.
func (f *inflight) drop(k kind, js []job, finished bool) {
	if !finished {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	for _, j := range js {
		delete(h.claims, j.id)
	}
}

// done ends job j. A finished job's claim is dropped (its row says what
// comes next); a job stopped by shutdown keeps its claim, to be released.
// With more set, it returns the next waiting job to run on the same worker:
// one of j's key first (its order), else the oldest whose key has room.
func (f *inflight) done(k kind, j job, more bool) (job, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	h.running--
	if h.perKey[j.key]--; h.perKey[j.key] <= 0 {
		delete(h.perKey, j.key)
	}
	if !more {
		return job{}, false
	}
	delete(h.claims, j.id)
	next, ok := h.nextWaiting(k, j.key)
	if !ok {
		return job{}, false
	}
	h.running++
	h.perKey[next.key]++
	return next, true
}

// nextWaiting takes the waiting job to run next: key's first, else the
// lowest id among keys with room.
func (h *held) nextWaiting(k kind, key int) (job, bool) {
	if _, ok := h.queued[key]; !ok {
		best, found := 0, false
		for kk, q := range h.queued {
			if k.perKey > 0 && h.perKey[kk] >= k.perKey {
				continue
			}
			if !found || q[0].id < h.queued[best][0].id {
				best, found = kk, true
			}
		}
		if !found {
			return job{}, false
		}
		key = best
	}
	q := h.queued[key]
	if len(q) == 1 {
		delete(h.queued, key)
	} else {
		h.queued[key] = q[1:]
	}
	h.waiting--
	return q[0], true
}

// leasesOf returns the leases of those of js whose claims k holds, with
// their ids.
func (f *inflight) leasesOf(k kind, js []job) map[time.Time][]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	out := map[time.Time][]int{}
	for _, j := range js {
		if l, ok := h.claims[j.id]; ok {
			out[l] = append(out[l], j.id)
		}
	}
	return out
}

// claimsByLease returns k's claims grouped by their lease.
func (f *inflight) claimsByLease(k kind) map[time.Time][]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[time.Time][]int{}
	for id, l := range f.of(k).claims {
		out[l] = append(out[l], id)
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out
}

// renewed moves the lease of the claims in ids (those still held).
func (f *inflight) renewed(k kind, ids []int, lease time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	for _, id := range ids {
		if _, ok := h.claims[id]; ok {
			h.claims[id] = lease
		}
	}
}

// count is how many claims of k are held.
func (f *inflight) count(k kind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.of(k).claims)
}

// running is how many jobs of k run now.
func (f *inflight) running(k kind) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.of(k).running
}
