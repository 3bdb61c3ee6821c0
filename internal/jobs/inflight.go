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
// run per key, the jobs queued behind a busy key, and every claim not yet
// finished (renewed while held, released at shutdown).
type inflight struct {
	mu    sync.Mutex
	kinds map[string]*held
}

type held struct {
	running int
	perKey  map[int]int
	queued  map[int][]job
	claims  map[int]time.Time // id → lease
}

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

// saturated lists the keys of k that run as many jobs as they may: a
// claim skips them.
func (f *inflight) saturated(k kind) []int {
	if k.perKey == 0 {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	var out []int
	for key, n := range h.perKey {
		if n >= k.perKey {
			out = append(out, key)
		}
	}
	for key := range h.queued {
		out = append(out, key)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// add records a claimed job and reports whether it may start now; if its
// key is busy it waits behind it.
func (f *inflight) add(k kind, j job) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	h.claims[j.id] = j.lease
	if k.perKey > 0 && h.perKey[j.key] >= k.perKey {
		h.queued[j.key] = append(h.queued[j.key], j)
		return false
	}
	h.running++
	h.perKey[j.key]++
	return true
}

// done ends job j. A finished job's claim is dropped (its row says what
// comes next); a job stopped by shutdown keeps its claim, to be released.
// With more set, it returns the job queued behind j's key, to run on the
// same worker.
func (f *inflight) done(k kind, j job, more bool) (job, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.of(k)
	if more {
		delete(h.claims, j.id)
		if q := h.queued[j.key]; len(q) > 0 {
			if len(q) == 1 {
				delete(h.queued, j.key)
			} else {
				h.queued[j.key] = q[1:]
			}
			return q[0], true
		}
	}
	h.running--
	if h.perKey[j.key]--; h.perKey[j.key] <= 0 {
		delete(h.perKey, j.key)
	}
	return job{}, false
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
