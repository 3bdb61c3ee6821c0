package jobs

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/core"
)

// TestWaitingJobsRunWhenAWorkerFrees: claimed jobs beyond the free workers
// or their key's share wait; a finishing worker takes the next of its own
// key first (its order), else the oldest whose key has room; a key with a
// full queue is skipped by claims.
func TestWaitingJobsRunWhenAWorkerFrees(t *testing.T) {
	k := kind{table: "messages", perKey: 2, workers: 3}
	f := newInflight()
	j := func(id, key int) job { return job{id: id, key: key} }
	for _, tc := range []struct {
		job      job
		startNow bool
	}{
		{j(1, 10), true}, {j(2, 10), true}, {j(3, 10), false}, // key 10 runs its two
		{j(4, 20), true},  // the third worker
		{j(5, 30), false}, // no worker free
		{j(6, 10), false},
	} {
		if got := f.add(k, tc.job); got != tc.startNow {
			t.Errorf("job %d starts at once: %v, want %v", tc.job.id, got, tc.startNow)
		}
	}
	if got := f.free(k); got != 0 {
		t.Errorf("%d workers free, want 0", got)
	}
	// Job 1 ends: its key's next (3) runs on the same worker.
	if next, ok := f.done(k, j(1, 10), true); !ok || next.id != 3 {
		t.Fatalf("after job 1 the worker took %v (%v), want job 3", next, ok)
	}
	// Job 4 (key 20, none waiting) ends: key 10 runs its two, so the oldest
	// waiting job of a key with room is 5.
	if next, ok := f.done(k, j(4, 20), true); !ok || next.id != 5 {
		t.Fatalf("after job 4 the worker took %v (%v), want job 5", next, ok)
	}
	// Job 5 ends: key 10 is still full, nothing else waits.
	if next, ok := f.done(k, j(5, 30), true); ok {
		t.Fatalf("after job 5 the worker took %v, want none", next)
	}
	if next, ok := f.done(k, j(2, 10), true); !ok || next.id != 6 {
		t.Fatalf("after job 2 the worker took %v (%v), want job 6", next, ok)
	}
	if got := f.count(k); got != 2 {
		t.Errorf("%d claims held, want 2 (jobs 3 and 6)", got)
	}

	// A key whose queue is full is left out of claims.
	full := newInflight()
	for id := range k.perKey + queuePerKey {
		full.add(k, j(id+1, 7))
	}
	if got := full.saturated(k); !slices.Equal(got, []int{7}) {
		t.Errorf("saturated keys %v, want [7]", got)
	}
	if got := full.room(k); got != 1+queueLimit-queuePerKey {
		t.Errorf("a claim may take %d, want %d", got, 1+queueLimit-queuePerKey)
	}
}

// TestFiringWorkersHoldBackAfterFindingNone: a kind that claims its own
// rows starts a worker per free one; after a worker found no row to take
// (the due rows are held by firings still running), a pass starts one at a
// time, until one takes rows again. The claims its workers take for rows
// run alone are held for renewal and release, and dropped when they end.
func TestFiringWorkersHoldBackAfterFindingNone(t *testing.T) {
	k := kind{table: "scheduled_messages", workers: 2}
	f := newInflight()
	steps := []struct {
		name string
		do   func()
		want int
	}{
		{"at first", func() {}, 2},
		{"one running", func() { f.firingStarted(k) }, 1},
		{"both running", func() { f.firingStarted(k) }, 0},
		{"one found none", func() { f.firingEnded(k, true) }, 1},
		{"both found none", func() { f.firingEnded(k, true) }, 1},
		{"the one started took rows", func() { f.firingStarted(k); f.firingEnded(k, false) }, 2},
	}
	for _, s := range steps {
		s.do()
		if got := f.firingsToStart(k); got != s.want {
			t.Errorf("%s: %d workers to start, want %d", s.name, got, s.want)
		}
	}
	alone := []job{{id: 7, key: 7}, {id: 8, key: 8}}
	f.hold(k, alone)
	if got := f.count(k); got != 2 {
		t.Errorf("%d claims held, want 2", got)
	}
	f.drop(k, alone, false) // stopped by shutdown: kept, to be released
	if got := f.count(k); got != 2 {
		t.Errorf("after a shutdown %d claims held, want 2", got)
	}
	f.drop(k, alone, true)
	if got := f.count(k); got != 0 {
		t.Errorf("after running %d claims held, want 0", got)
	}
}

// TestAHeldClaimStartsWithItsRenewedLease: a handed message waits behind
// its conversation's, held and renewed meanwhile; when it starts, its claim
// keeps the renewed lease, which its renewals and release look for, not
// the one it was written with.
func TestAHeldClaimStartsWithItsRenewedLease(t *testing.T) {
	k := kind{table: "messages", perKey: 2, workers: 3}
	f := newInflight()
	written := time.Unix(100, 0)
	renewed := written.Add(5 * time.Second)
	j := job{id: 1, key: 10, lease: written}
	f.hold(k, []job{j})
	f.renewed(k, []int{1}, renewed)
	if !f.add(k, j) {
		t.Fatal("the held job did not start")
	}
	if got := f.claimsByLease(k); len(got) != 1 || !slices.Equal(got[renewed], []int{1}) {
		t.Errorf("claims by lease %v, want job 1 at %v", got, renewed)
	}
	if got := f.leasesOf(k, []job{j, {id: 2}}); len(got) != 1 || !slices.Equal(got[renewed], []int{1}) {
		t.Errorf("leases of jobs 1 and 2: %v, want job 1 at %v (2 is not held)", got, renewed)
	}
}

// TestHandOffsAreTakenOverInTheOrderTheyCommitted: a hand-off waits for the
// ones committed before it; one that committed twice ends both turns.
func TestHandOffsAreTakenOverInTheOrderTheyCommitted(t *testing.T) {
	c := newChains()
	c.awaitTurn(1) // the first never waits
	passed := make(chan struct{})
	go func() {
		c.awaitTurn(4)
		close(passed)
	}()
	c.endTurn(nil, 1)
	select {
	case <-passed:
		t.Fatal("hand-off 4 went before 2 and 3 were taken over")
	default:
	}
	c.awaitTurn(2)
	c.endTurn(nil, 3) // one hand-off whose batch committed as 2 and 3
	select {
	case <-passed:
	case <-time.After(5 * time.Second):
		t.Fatal("hand-off 4 still waits after 3 was taken over")
	}
}

// TestHandOffsStillToBeTakenOverAreKnown: a hand-off's messages count as
// still to be taken over for the others until its turn has ended, and no
// longer once it has (released ones are then pending outside every chain).
func TestHandOffsStillToBeTakenOverAreKnown(t *testing.T) {
	c := newChains()
	var commits atomic.Uint64
	a := core.NewHandoff(time.Now(), map[string]int{message.Table: 10}, &commits)
	b := core.NewHandoff(time.Now(), map[string]int{message.Table: 10}, &commits)
	c.begin(a)
	c.begin(b)
	b.Written(context.Background(), core.HandedRow{Table: message.Table, ID: 7})
	b.Written(context.Background(), core.HandedRow{Table: "webhook_deliveries", ID: 8})
	if got := c.untaken(a); len(got) != 1 || !got[7] {
		t.Errorf("untaken for a: %v, want b's message 7 alone", got)
	}
	if got := c.untaken(b); len(got) != 0 {
		t.Errorf("untaken for b: %v, want none (a wrote nothing, b's own are its own)", got)
	}
	c.endTurn(b, 1)
	if got := c.untaken(a); len(got) != 0 {
		t.Errorf("untaken for a after b's turn: %v, want none", got)
	}
}
