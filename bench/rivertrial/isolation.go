package main

import (
	"context"
	"fmt"
	"time"
)

// isolation puts o.hangJobs jobs of conversation 0 ahead of o.perConv jobs
// of each other conversation, and measures the others' delay from insert to
// completion three ways: every receiver healthy (the baseline), conversation
// 0's receiver hanging with one shared queue, and hanging with a queue per
// conversation (MaxWorkers 1 each: River's only open-source way to bound a
// key's workers and keep its order, within one process).
func (s *setup) isolation(ctx context.Context) error {
	shared := clientOpts{maxWorkers: s.o.workers, poll: s.o.poll, cooldown: s.o.cooldown}
	perKey := shared
	perKey.perKey = s.o.convs
	for _, ph := range []struct {
		name string
		co   clientOpts
		hang bool
	}{
		{"all receivers healthy, one queue", shared, false},
		{"conversation 0 hangs, one queue", shared, true},
		{"all receivers healthy, a queue per conversation", perKey, false},
		{"conversation 0 hangs, a queue per conversation", perKey, true},
	} {
		if err := s.isolationPhase(ctx, ph.name, ph.co, ph.hang); err != nil {
			return err
		}
	}
	return nil
}

func (s *setup) isolationArgs() []deliverArgs {
	var args []deliverArgs
	for i := 0; i < s.o.hangJobs; i++ {
		args = append(args, deliverArgs{ID: len(args), Conv: 0, Seq: i})
	}
	for seq := 0; seq < s.o.perConv; seq++ {
		for c := 1; c < s.o.convs; c++ {
			args = append(args, deliverArgs{ID: len(args), Conv: c, Seq: seq})
		}
	}
	return args
}

func (s *setup) isolationPhase(ctx context.Context, name string, co clientOpts, hang bool) error {
	var hangs []int
	if hang {
		hangs = []int{0}
	}
	if err := s.reset(ctx, hangs); err != nil {
		return err
	}
	args := s.isolationArgs()
	other := func(id int) bool { return args[id].Conv != 0 }
	rec := newRecorder(len(args), other)
	c, err := s.start(ctx, rec, co)
	if err != nil {
		return err
	}
	var queue func(int) string
	if co.perKey > 0 {
		queue = func(i int) string { return queueOf(args[i].Conv) }
	}
	cpu := startCPU(s.eng)
	committed, _, err := s.insert(ctx, c, args, nil, queue)
	if err != nil {
		stop(c)
		return err
	}
	waitErr := rec.wait(5 * time.Minute)
	stop(c)
	if waitErr != nil {
		return waitErr
	}
	lat := rec.collect(other, func(_ int, _, _, fin time.Time) time.Duration { return fin.Sub(committed) })
	fmt.Printf("  -- %s: %d jobs of conversation 0 first, then %d of each of %d others; MaxWorkers %d; HTTP timeout %s\n",
		name, s.o.hangJobs, s.o.perConv, s.o.convs-1, max(co.maxWorkers, 1), s.o.httpTimeout)
	if co.perKey > 0 {
		fmt.Printf("     (%d queues of MaxWorkers 1, plus the default queue)\n", co.perKey)
	}
	fmt.Printf("     other conversations, insert commit -> completion: %s\n", summarize(lat))
	fmt.Printf("     %s; load average after %s\n", cpu, loadavg())
	_, _, inversions := s.rcv.tally()
	fmt.Printf("     messages that arrived after a later one of their conversation: %d\n", inversions)
	return nil
}
