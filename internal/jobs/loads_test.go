package jobs

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/apitest"
)

// recordingLoad answers id*10 for every id but 0 and records each call's
// ids; while hold is open the first call waits for it.
type recordingLoad struct {
	mu    sync.Mutex
	calls [][]int
	hold  chan struct{}
	err   error
}

func (l *recordingLoad) load(_ context.Context, ids []int) (map[int]int, error) {
	l.mu.Lock()
	first := len(l.calls) == 0
	l.calls = append(l.calls, slices.Clone(ids))
	l.mu.Unlock()
	if first && l.hold != nil {
		<-l.hold
	}
	out := map[int]int{}
	for _, id := range ids {
		if id != 0 {
			out[id] = id * 10
		}
	}
	return out, l.err
}

func (l *recordingLoad) callIDs() [][]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.calls)
}

func TestLoadGroupReadsForEveryoneWaitingInOneLoad(t *testing.T) {
	var jobs sync.WaitGroup
	l := &recordingLoad{hold: make(chan struct{})}
	g := newLoadGroup(&jobs, l.load)
	got := make([]int, 11)
	var wg sync.WaitGroup
	get := func(id int) {
		defer wg.Done()
		v, found, err := g.get(context.Background(), id)
		if err != nil || !found {
			t.Errorf("get(%d) = %d, %v, %v", id, v, found, err)
		}
		got[id] = v
	}
	wg.Add(1)
	go get(1)
	apitest.Eventually(t, 5*time.Second, "the first load", func() bool { return len(l.callIDs()) == 1 })
	for id := 2; id <= 10; id++ {
		wg.Add(1)
		go get(id)
	}
	apitest.Eventually(t, 5*time.Second, "9 gets waiting", func() bool { g.mu.Lock(); defer g.mu.Unlock(); return len(g.waiting) == 9 })
	close(l.hold)
	wg.Wait()
	jobs.Wait()

	calls := l.callIDs()
	if len(calls) != 2 || !slices.Equal(calls[0], []int{1}) || len(calls[1]) != 9 {
		t.Fatalf("loads %v, want [1] alone, then the 9 that waited meanwhile in one", calls)
	}
	for id := 1; id <= 10; id++ {
		if got[id] != id*10 {
			t.Errorf("get(%d) answered %d, want %d", id, got[id], id*10)
		}
	}
}

func TestLoadGroupAnswers(t *testing.T) {
	boom := errors.New("boom")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name      string
		ctx       context.Context
		id        int
		loadErr   error
		wantFound bool
		wantErr   error
	}{
		{name: "a row", ctx: context.Background(), id: 7, wantFound: true},
		{name: "no row", ctx: context.Background(), id: 0},
		{name: "the load fails", ctx: context.Background(), id: 7, loadErr: boom, wantFound: true, wantErr: boom},
		{name: "the worker is stopped", ctx: cancelled, id: 7, wantErr: context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var jobs sync.WaitGroup
			l := &recordingLoad{err: tc.loadErr}
			if tc.ctx.Err() != nil {
				l.hold = make(chan struct{}) // the load outlasts the worker
				defer close(l.hold)
			}
			_, found, err := newLoadGroup(&jobs, l.load).get(tc.ctx, tc.id)
			if !errors.Is(err, tc.wantErr) || (err == nil && found != tc.wantFound) {
				t.Fatalf("found %v, err %v; want found %v, err %v", found, err, tc.wantFound, tc.wantErr)
			}
		})
	}
}
