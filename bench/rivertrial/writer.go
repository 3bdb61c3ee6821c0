package main

import (
	"context"
	"fmt"
	"time"
)

// writer measures the app's own writes (one small INSERT transaction every
// o.writeEvery, on the pool River uses) with no River client, with an idle
// client at default and at the shortest fetch intervals, and during a burst.
// A write's lateness runs from its due time to its commit, so a write stuck
// behind the write lock also delays the ones after it.
func (s *setup) writer(ctx context.Context) error {
	phases := []struct {
		name string
		co   *clientOpts
	}{
		{"no River client", nil},
		{"River client idle, default intervals", &clientOpts{maxWorkers: s.o.workers}},
		{"River client idle, FetchPollInterval=FetchCooldown=1ms", &clientOpts{maxWorkers: s.o.workers, poll: time.Millisecond, cooldown: time.Millisecond}},
		{fmt.Sprintf("River client idle, default intervals, %d queues of MaxWorkers 1 (a queue per conversation)", s.o.idleQueues),
			&clientOpts{maxWorkers: s.o.workers, perKey: s.o.idleQueues}},
	}
	for _, ph := range phases {
		if err := s.writerIdle(ctx, ph.name, ph.co); err != nil {
			return err
		}
	}
	fmt.Printf("  -- during a %d-job burst (default intervals):\n", s.o.n)
	var res writeResult
	probe := func(done <-chan struct{}) { res = s.writeUntil(ctx, done, 0) }
	if err := s.burst(ctx, clientOpts{maxWorkers: s.o.workers}, probe); err != nil {
		return err
	}
	fmt.Printf("     app writes during the burst: %s\n", res)
	return nil
}

func (s *setup) writerIdle(ctx context.Context, name string, co *clientOpts) error {
	if err := s.reset(ctx, nil); err != nil {
		return err
	}
	if co != nil {
		rec := newRecorder(0, func(int) bool { return false })
		c, err := s.start(ctx, rec, *co)
		if err != nil {
			return err
		}
		defer stop(c)
	}
	fmt.Printf("  -- %s:\n", name)
	// Two windows one after the other: the first includes the client's
	// start (leader election, queue records), the second is steady state.
	for _, window := range []string{"first", "second"} {
		cpu := startCPU(s.eng)
		res := s.writeUntil(ctx, nil, s.o.phase)
		fmt.Printf("     %s %s after Start: app writes %s\n       %s; load average %s\n", window, s.o.phase, res, cpu, loadavg())
	}
	return nil
}

type writeResult struct {
	late   summary
	errors int
	first  error
}

func (r writeResult) String() string {
	s := fmt.Sprintf("lateness %s, errors %d", r.late, r.errors)
	if r.first != nil {
		s += fmt.Sprintf(" (first: %v)", r.first)
	}
	return s
}

// writeUntil writes one row every o.writeEvery until done is closed or, with
// no done channel, for length.
func (s *setup) writeUntil(ctx context.Context, done <-chan struct{}, length time.Duration) writeResult {
	var (
		res  writeResult
		late []time.Duration
	)
	base := time.Now()
	for i := 0; ; i++ {
		due := base.Add(time.Duration(i) * s.o.writeEvery)
		if length > 0 && due.Sub(base) >= length {
			break
		}
		select {
		case <-done:
			res.late = summarize(late)
			return res
		case <-time.After(time.Until(due)): // the next write's due time
		}
		if err := s.appWrite(ctx); err != nil {
			res.errors++
			if res.first == nil {
				res.first = err
			}
			continue
		}
		late = append(late, time.Since(due))
	}
	res.late = summarize(late)
	return res
}

func (s *setup) appWrite(ctx context.Context) error {
	tx, err := s.eng.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO app_writes (note) VALUES (`+s.eng.ph(1)+`)`, "probe"); err != nil {
		return err
	}
	return tx.Commit()
}
