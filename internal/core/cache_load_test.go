package core_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestCacheLoadReadsOnceForManyMisses: misses of a key that come while its
// read is under way wait for that read; one that comes after a change
// does not (it must see the change), and one whose shared read failed
// reads for itself.
func TestCacheLoadReadsOnceForManyMisses(t *testing.T) {
	e := testdb.Engines(t)[0]
	c := core.New(e.New(t).Client)
	c.Hub = events.NewHub()
	cache := core.NewCache[string, int](c, core.CacheOptions{Kind: "test_changed", TTL: time.Minute, Size: 10,
		Changes: func(m ent.Mutation) bool { return m.Type() == ent.TypeLabel }})

	var reads atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{}, 10)
	slowRead := func(v int, err error) func() (int, error) {
		return func() (int, error) {
			reads.Add(1)
			started <- struct{}{}
			<-release
			return v, err
		}
	}
	load := func(read func() (int, error), got *int, gotErr *error, wg *sync.WaitGroup) {
		wg.Add(1)
		go func() { defer wg.Done(); *got, *gotErr = cache.Load("page", read) }()
	}

	cases := []struct {
		name         string
		changeMidway bool  // a change comes after the first read began
		firstErr     error // what the first read answers
		waiting      int   // the later misses that join a read under way
		wantReads    int32
		wantLater    int // what a later miss gets
	}{
		{"five misses at once: one read", false, nil, 4, 1, 1},
		// The first later miss reads after the change; the others join it.
		{"a miss after a change: a read of its own", true, nil, 3, 2, 2},
		{"a failed shared read: the others read themselves", false, errors.New("client went away"), 4, 5, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cache.Invalidate()
			reads.Store(0)
			release = make(chan struct{})
			var wg sync.WaitGroup
			var first int
			var firstErr error
			load(slowRead(1, tc.firstErr), &first, &firstErr, &wg)
			<-started
			if tc.changeMidway {
				cache.Invalidate()
			}
			got := make([]int, 4)
			errs := make([]error, 4)
			for i := range got {
				load(slowRead(2, nil), &got[i], &errs[i], &wg)
			}
			apitest.Eventually(t, 5*time.Second, "the later misses to join a read", func() bool {
				return cache.Waiting("page") == tc.waiting
			})
			close(release)
			wg.Wait()
			for len(started) > 0 {
				<-started
			}
			if r := reads.Load(); r != tc.wantReads {
				t.Errorf("%d reads, want %d", r, tc.wantReads)
			}
			if (firstErr != nil) != (tc.firstErr != nil) {
				t.Errorf("the first miss answered %v, want %v", firstErr, tc.firstErr)
			}
			for i := range got {
				if errs[i] != nil || got[i] != tc.wantLater {
					t.Errorf("a later miss got %d, %v; want %d", got[i], errs[i], tc.wantLater)
				}
			}
		})
	}
}

// TestCacheLoadKeepsOnlyWhatKeepAllows: a value Keep refuses is read again
// at the next miss; one it allows is given from memory.
func TestCacheLoadKeepsOnlyWhatKeepAllows(t *testing.T) {
	e := testdb.Engines(t)[0]
	c := core.New(e.New(t).Client)
	cache := core.NewCache[string, int](c, core.CacheOptions{Kind: "test_changed", TTL: time.Minute, Size: 10,
		Changes: func(ent.Mutation) bool { return false }, Keep: func(v any) bool { return v.(int) <= 10 }})
	for _, tc := range []struct {
		key       string
		value     int
		wantReads int
	}{{"small", 10, 1}, {"large", 11, 3}} {
		reads := 0
		for range 3 {
			if v, err := cache.Load(tc.key, func() (int, error) { reads++; return tc.value, nil }); err != nil || v != tc.value {
				t.Fatalf("%s: got %d, %v", tc.key, v, err)
			}
		}
		if reads != tc.wantReads {
			t.Errorf("%s: read %d times in three loads, want %d", tc.key, reads, tc.wantReads)
		}
	}
}
