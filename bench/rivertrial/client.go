package main

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/riverqueue/river"
)

type setup struct {
	eng *engine
	rcv *receiver
	o   options
}

// clientOpts are the River settings a phase runs with; zero durations keep
// River's defaults. perKey gives every conversation a queue of its own.
type clientOpts struct {
	maxWorkers     int
	poll, cooldown time.Duration
	perKey         int // number of conversations, when each has its own queue
}

func queueOf(conv int) string { return fmt.Sprintf("conv_%d", conv) }

// start builds a River client whose worker reports to rec, and starts it.
func (s *setup) start(ctx context.Context, rec *recorder, o clientOpts) (*river.Client[*sql.Tx], error) {
	workers := river.NewWorkers()
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = max(o.maxWorkers, 100)
	river.AddWorker(workers, &deliverWorker{
		eng: s.eng, target: s.rcv.url, rec: rec,
		client: &http.Client{Timeout: s.o.httpTimeout, Transport: transport},
	})
	queues := map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: o.maxWorkers}}
	for c := 0; c < o.perKey; c++ {
		queues[queueOf(c)] = river.QueueConfig{MaxWorkers: 1}
	}
	cfg := &river.Config{
		Queues:            queues,
		Workers:           workers,
		FetchPollInterval: o.poll,
		FetchCooldown:     o.cooldown,
		Logger:            slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
	}
	c, err := s.eng.newClient(cfg)
	if err != nil {
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// stop cancels whatever still runs (a hanging receiver's jobs) after a
// short grace period.
func stop(c *river.Client[*sql.Tx]) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = c.StopAndCancel(ctx)
}

// insert inserts the jobs in one transaction (InsertManyTx) and returns
// when it committed; at gives a job's ScheduledAt (zero: now) and queue its
// queue (empty: the default one).
func (s *setup) insert(ctx context.Context, c *river.Client[*sql.Tx], args []deliverArgs,
	at func(int) time.Time, queue func(int) string) (time.Time, time.Duration, error) {
	params := make([]river.InsertManyParams, len(args))
	for i, a := range args {
		opts := &river.InsertOpts{}
		if at != nil {
			opts.ScheduledAt = at(i)
		}
		if queue != nil {
			opts.Queue = queue(i)
		}
		params[i] = river.InsertManyParams{Args: a, InsertOpts: opts}
	}
	began := time.Now()
	tx, err := s.eng.db.BeginTx(ctx, nil)
	if err != nil {
		return time.Time{}, 0, err
	}
	defer tx.Rollback()
	if _, err := c.InsertManyTx(ctx, tx, params); err != nil {
		return time.Time{}, 0, err
	}
	if err := tx.Commit(); err != nil {
		return time.Time{}, 0, err
	}
	committed := time.Now()
	return committed, committed.Sub(began), nil
}

// spread makes n jobs over convs conversations, in order within each.
func spread(n, convs int) []deliverArgs {
	args := make([]deliverArgs, n)
	for i := range args {
		args[i] = deliverArgs{ID: i, Conv: i % convs, Seq: i / convs}
	}
	return args
}

func (s *setup) reset(ctx context.Context, hang []int) error {
	s.rcv.reset(hang)
	return s.eng.resetAppTables(ctx)
}

// checkOutcome prints what the receiver and the app table saw against the
// jobs the recorder counted.
func (s *setup) checkOutcome(ctx context.Context, rec *recorder) error {
	distinct, dupAtReceiver, inversions := s.rcv.tally()
	rows, err := s.eng.count(ctx, "deliveries")
	if err != nil {
		return err
	}
	fmt.Printf("  receiver: %d distinct deliveries, %d received more than once, %d arrived after a later message of their conversation\n",
		distinct, dupAtReceiver, inversions)
	fmt.Printf("  app table: %d outcome rows; jobs completed twice: %d\n", rows, rec.duplicates())
	return nil
}
