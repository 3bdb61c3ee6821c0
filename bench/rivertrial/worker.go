package main

// The job under trial: post a small JSON body to the receiver, then record
// the outcome in the app's table in the transaction that completes the job.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/riverqueue/river"
)

type deliverArgs struct {
	ID   int `json:"id"`   // index of the job in its run, 0..n-1
	Conv int `json:"conv"` // the key: a conversation
	Seq  int `json:"seq"`  // order within the conversation
}

func (deliverArgs) Kind() string { return "deliver" }

type deliverWorker struct {
	river.WorkerDefaults[deliverArgs]
	eng    *engine
	target string
	client *http.Client
	rec    *recorder
}

func (w *deliverWorker) Work(ctx context.Context, job *river.Job[deliverArgs]) error {
	started := time.Now()
	status, err := w.post(ctx, job.Args)
	if err != nil {
		return err // River retries with its backoff
	}
	if err := w.complete(ctx, job, status); err != nil {
		return err
	}
	w.rec.done(job.Args.ID, job.ScheduledAt, started, time.Now())
	return nil
}

func (w *deliverWorker) post(ctx context.Context, a deliverArgs) (int, error) {
	body, _ := json.Marshal(a)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.target, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.client.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("receiver answered %d", resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// complete writes the outcome row and completes the job in one transaction,
// so the two cannot disagree after a crash.
func (w *deliverWorker) complete(ctx context.Context, job *river.Job[deliverArgs], status int) error {
	tx, err := w.eng.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ph := w.eng.ph
	q := fmt.Sprintf(`INSERT INTO deliveries (job_id, conv, seq, status) VALUES (%s, %s, %s, %s)`, ph(1), ph(2), ph(3), ph(4))
	if _, err := tx.ExecContext(ctx, q, job.ID, job.Args.Conv, job.Args.Seq, status); err != nil {
		return err
	}
	if err := w.eng.completeTx(ctx, tx, job); err != nil {
		return err
	}
	return tx.Commit()
}

// recorder keeps each job's times in memory, indexed by its ID in the run,
// and signals when the jobs it waits for are all done.
type recorder struct {
	mu        sync.Mutex
	scheduled []time.Time
	started   []time.Time
	finished  []time.Time
	runs      []int
	want      func(id int) bool // the jobs the run waits for
	left      int
	allDone   chan struct{}
}

func newRecorder(n int, want func(int) bool) *recorder {
	r := &recorder{
		scheduled: make([]time.Time, n), started: make([]time.Time, n),
		finished: make([]time.Time, n), runs: make([]int, n),
		want: want, allDone: make(chan struct{}),
	}
	for i := 0; i < n; i++ {
		if want(i) {
			r.left++
		}
	}
	return r
}

func (r *recorder) done(id int, scheduled, started, finished time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id < 0 || id >= len(r.runs) {
		return
	}
	r.runs[id]++
	if r.runs[id] > 1 {
		return // a second completion: counted, times of the first kept
	}
	r.scheduled[id], r.started[id], r.finished[id] = scheduled, started, finished
	if r.want(id) {
		r.left--
		if r.left == 0 {
			close(r.allDone)
		}
	}
}

// wait blocks until every wanted job is done or the deadline passes.
func (r *recorder) wait(timeout time.Duration) error {
	select {
	case <-r.allDone:
		return nil
	case <-time.After(timeout):
		r.mu.Lock()
		defer r.mu.Unlock()
		return fmt.Errorf("%d jobs not done after %s", r.left, timeout)
	}
}

// collect returns f of each finished job that pick chooses.
func (r *recorder) collect(pick func(id int) bool, f func(id int, scheduled, started, finished time.Time) time.Duration) []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []time.Duration
	for id := range r.runs {
		if r.runs[id] > 0 && pick(id) {
			out = append(out, f(id, r.scheduled[id], r.started[id], r.finished[id]))
		}
	}
	return out
}

func (r *recorder) duplicates() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.runs {
		if c > 1 {
			n++
		}
	}
	return n
}

func (r *recorder) lastFinish() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	var last time.Time
	for _, f := range r.finished {
		if f.After(last) {
			last = f
		}
	}
	return last
}
