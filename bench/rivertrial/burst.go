package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/riverqueue/river"
)

// burst inserts o.n jobs at once and waits until all are delivered and
// completed. during, if set, runs beside it (the SQLite writer probe).
func (s *setup) burst(ctx context.Context, co clientOpts, during func(done <-chan struct{})) error {
	if err := s.reset(ctx, nil); err != nil {
		return err
	}
	n := s.o.n
	rec := newRecorder(n, func(int) bool { return true })
	c, err := s.start(ctx, rec, co)
	if err != nil {
		return err
	}
	defer stop(c)
	probeDone := make(chan struct{})
	if during != nil {
		go func() { during(rec.allDone); close(probeDone) }()
	} else {
		close(probeDone)
	}
	cpu := startCPU(s.eng)
	committed, took, err := s.insert(ctx, c, spread(n, s.o.convs), nil, nil)
	if err != nil {
		return err
	}
	if err := rec.wait(15 * time.Minute); err != nil {
		return err
	}
	<-probeDone
	all := rec.lastFinish().Sub(committed)
	lat := rec.collect(func(int) bool { return true }, func(_ int, _, _, fin time.Time) time.Duration { return fin.Sub(committed) })
	fmt.Printf("  %s: %d jobs over %d conversations, MaxWorkers %d, %s\n", s.eng.name, n, s.o.convs, co.maxWorkers, intervals(co))
	fmt.Printf("  InsertManyTx of %d jobs: %s; all completed %.1fs after its commit: %.0f jobs/s\n",
		n, took.Round(time.Millisecond), all.Seconds(), float64(n)/all.Seconds())
	fmt.Printf("  insert commit -> completion: %s\n", summarize(lat))
	fmt.Printf("  %s; load average after %s\n", cpu, loadavg())
	return s.checkOutcome(ctx, rec)
}

func intervals(co clientOpts) string {
	var parts []string
	if co.poll == 0 {
		parts = append(parts, "FetchPollInterval default (1s)")
	} else {
		parts = append(parts, "FetchPollInterval "+co.poll.String())
	}
	if co.cooldown == 0 {
		parts = append(parts, "FetchCooldown default (100ms)")
	} else {
		parts = append(parts, "FetchCooldown "+co.cooldown.String())
	}
	return strings.Join(parts, ", ")
}

// scheduled runs o.schedCount jobs due one every o.schedEvery, for each
// fetch interval in o.schedPolls, and reports how late each started (worker
// entered) and finished (completion committed) against its ScheduledAt. With
// lead 0 all are inserted at once, the first due 3 s later; otherwise each is
// inserted on its own, lead before it is due (as a retry or a message
// scheduled shortly ahead would be), which leaves it to River's JobScheduler.
func (s *setup) scheduled(ctx context.Context, lead time.Duration) error {
	for _, p := range split(s.o.schedPolls) {
		co := clientOpts{maxWorkers: s.o.workers}
		if p != "default" {
			d, err := time.ParseDuration(p)
			if err != nil {
				return err
			}
			co.poll = d
			co.cooldown = min(d, 100*time.Millisecond)
		}
		if err := s.scheduledOnce(ctx, co, lead); err != nil {
			return err
		}
	}
	return nil
}

func (s *setup) scheduledOnce(ctx context.Context, co clientOpts, lead time.Duration) error {
	if err := s.reset(ctx, nil); err != nil {
		return err
	}
	n := s.o.schedCount
	rec := newRecorder(n, func(int) bool { return true })
	c, err := s.start(ctx, rec, co)
	if err != nil {
		return err
	}
	defer stop(c)
	cpu := startCPU(s.eng)
	base := time.Now().Add(3 * time.Second)
	due := func(i int) time.Time { return base.Add(time.Duration(i) * s.o.schedEvery) }
	if err := s.insertScheduled(ctx, c, spread(n, n), due, lead); err != nil {
		return err
	}
	if err := rec.wait(time.Duration(n)*s.o.schedEvery + time.Minute); err != nil {
		return err
	}
	all := func(int) bool { return true }
	startLate := rec.collect(all, func(id int, _, st, _ time.Time) time.Duration { return st.Sub(due(id)) })
	doneLate := rec.collect(all, func(id int, _, _, fin time.Time) time.Duration { return fin.Sub(due(id)) })
	how := "all inserted at once, the first due 3s later"
	if lead > 0 {
		how = fmt.Sprintf("each inserted on its own %s before it is due", lead)
	}
	fmt.Printf("  %s: %d jobs due one every %s, %s; %s; JobScheduler interval 5s (not configurable)\n",
		s.eng.name, n, s.o.schedEvery, how, intervals(co))
	fmt.Printf("  lateness, worker start:  %s\n", summarize(startLate))
	fmt.Printf("  lateness, completed:     %s\n", summarize(doneLate))
	fmt.Printf("  %s; load average after %s\n", cpu, loadavg())
	return s.checkOutcome(ctx, rec)
}

func (s *setup) insertScheduled(ctx context.Context, c *river.Client[*sql.Tx], args []deliverArgs,
	due func(int) time.Time, lead time.Duration) error {
	if lead == 0 {
		_, _, err := s.insert(ctx, c, args, due, nil)
		return err
	}
	for i := range args {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Until(due(i).Add(-lead))): // this job's insert time
		}
		at := func(int) time.Time { return due(i) }
		if _, _, err := s.insert(ctx, c, args[i:i+1], at, nil); err != nil {
			return err
		}
	}
	return nil
}
