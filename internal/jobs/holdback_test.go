package jobs

import (
	"testing"
	"time"
)

// TestClaimsHeldUntilASaturatedKeyDrains: after a claim that found nothing
// but skipped a saturated key, claims wait until that key's queue is half
// drained — the worker that drains it says so — or holdBackLimit passes.
func TestClaimsHeldUntilASaturatedKeyDrains(t *testing.T) {
	k := kind{table: "messages", perKey: 1, workers: 4}
	r := &Runner{inflight: newInflight(), held: make([]holdBack, 1)}
	now := time.Now()
	for id := 1; id <= k.perKey+queuePerKey; id++ {
		r.inflight.add(k, job{id: id, key: 7})
	}
	if _, held := r.claimHeld(0, k, now); held {
		t.Fatal("claims held before any empty claim")
	}
	r.holdClaims(0, []int{7}, now)
	if wait, held := r.claimHeld(0, k, now.Add(time.Millisecond)); !held || wait > holdBackLimit {
		t.Fatalf("right after the empty claim: held %v for %s, want held at most %s", held, wait, holdBackLimit)
	}
	if _, held := r.claimHeld(0, k, now.Add(holdBackLimit)); held {
		t.Fatal("still held after holdBackLimit")
	}

	// Held again; the key's worker runs its queue down.
	r.holdClaims(0, []int{7}, now)
	running, signals := job{id: 1, key: 7}, 0
	for waiting := queuePerKey; waiting > drainedTo-1; waiting-- {
		if _, held := r.claimHeld(0, k, now); !held {
			t.Fatalf("with %d waiting the claims are no longer held, want held until %d", waiting, drainedTo-1)
		}
		next, ok := r.inflight.done(k, running, true)
		if !ok {
			t.Fatalf("no next job with %d waiting", waiting)
		}
		if r.inflight.justDrained(k, next.key) {
			signals++
		}
		running = next
	}
	if signals != 1 {
		t.Errorf("the drain was signalled %d times, want once", signals)
	}
	if _, held := r.claimHeld(0, k, now); held {
		t.Errorf("claims still held with %d waiting", drainedTo-1)
	}
}
