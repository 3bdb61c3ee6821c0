package jobs

import (
	"context"
	"sync"
)

// Load groups. Each delivery starts by reading its row and what it needs
// (a message's conversation, inbox, contact and account; a webhook's
// subscription): a statement an edge. In a burst dozens of workers start at
// once, and reading for each alone was a fifth of the server's CPU in a
// 10,000-schedule burst. A load group reads for every worker waiting when it
// comes round, in one query an edge, like the committer (commits.go) writes:
// a lone worker is read for at once, nothing waits for a group to fill, and
// each row is read when its worker needs it, not at claim time, so a worker
// queued behind its key sends what the row says when its turn comes.

// maxLoad bounds the rows one load reads.
const maxLoad = 64

// loadGroup coalesces the loads of concurrent workers.
type loadGroup[V any] struct {
	load func(context.Context, []int) (map[int]V, error)
	// jobs counts the loading goroutine with the runner's jobs, so a
	// drained runner reads nothing more.
	jobs *sync.WaitGroup

	mu      sync.Mutex
	waiting []loadRequest[V]
	running bool
}

type loadRequest[V any] struct {
	id   int
	done chan loadResult[V]
}

type loadResult[V any] struct {
	v     V
	found bool
	err   error
}

func newLoadGroup[V any](jobs *sync.WaitGroup, load func(context.Context, []int) (map[int]V, error)) *loadGroup[V] {
	return &loadGroup[V]{load: load, jobs: jobs}
}

// get reads id with whatever other ids are waiting; found is false when
// the load has no row for it.
func (g *loadGroup[V]) get(ctx context.Context, id int) (v V, found bool, err error) {
	req := loadRequest[V]{id: id, done: make(chan loadResult[V], 1)}
	g.mu.Lock()
	g.waiting = append(g.waiting, req)
	if !g.running {
		g.running = true
		g.jobs.Add(1)
		go g.drain(context.WithoutCancel(ctx))
	}
	g.mu.Unlock()
	select {
	case res := <-req.done:
		return res.v, res.found, res.err
	case <-ctx.Done():
		return v, false, ctx.Err()
	}
}

// drain loads for the waiting requests, a group at a time, until none is
// left.
func (g *loadGroup[V]) drain(ctx context.Context) {
	defer g.jobs.Done()
	for {
		group := g.take()
		if group == nil {
			return
		}
		ids := make([]int, len(group))
		for i, req := range group {
			ids[i] = req.id
		}
		rows, err := g.load(ctx, ids)
		for _, req := range group {
			v, found := rows[req.id]
			req.done <- loadResult[V]{v: v, found: found, err: err}
		}
	}
}

// take removes up to maxLoad waiting requests, or ends the drain (nil)
// when none is waiting.
func (g *loadGroup[V]) take() []loadRequest[V] {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiting) == 0 {
		g.running = false
		return nil
	}
	n := min(len(g.waiting), maxLoad)
	group := g.waiting[:n:n]
	g.waiting = g.waiting[n:]
	return group
}
