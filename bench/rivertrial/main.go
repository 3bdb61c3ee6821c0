// Command rivertrial measures River (github.com/riverqueue/river) against
// the goals of Switchboard's issue 16 on this machine: delivery throughput
// and lateness of a 10,000-job burst, lateness of jobs scheduled one every
// 100 ms, per-key isolation and order with a hanging receiver, and on SQLite
// the lateness of the app's own writes while River works. See README.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"strings"
	"time"
)

type options struct {
	engines, scenarios string
	pgURL              string
	fsync              bool

	n, convs, workers int
	poll, cooldown    time.Duration
	httpTimeout       time.Duration

	schedCount int
	schedEvery time.Duration
	schedPolls string
	schedLead  time.Duration

	hangJobs, perConv int

	writeEvery, phase time.Duration
	idleQueues        int
}

func main() {
	var o options
	flag.StringVar(&o.engines, "engine", "sqlite,postgres", "engines to run on, comma-separated")
	flag.StringVar(&o.scenarios, "scenario", "burst,scheduled,scheduled-trickle,isolation,writer", "scenarios to run, comma-separated")
	flag.StringVar(&o.pgURL, "pg-url", "", "PostgreSQL URL of an empty database; empty starts a throwaway cluster with initdb/pg_ctl")
	flag.BoolVar(&o.fsync, "fsync", false, "throwaway cluster with fsync on (default off, as the test suite's cluster)")
	flag.IntVar(&o.n, "n", 10000, "burst: jobs inserted in one transaction")
	flag.IntVar(&o.convs, "convs", 100, "burst and isolation: conversations (keys) the jobs are spread over")
	flag.IntVar(&o.workers, "workers", 50, "MaxWorkers of the queue")
	flag.DurationVar(&o.poll, "poll", 0, "burst, isolation, writer: FetchPollInterval (0: River's default, 1s)")
	flag.DurationVar(&o.cooldown, "cooldown", 0, "burst, isolation, writer: FetchCooldown (0: River's default, 100ms)")
	flag.DurationVar(&o.httpTimeout, "http-timeout", 5*time.Second, "worker's HTTP client timeout")
	flag.IntVar(&o.schedCount, "sched-count", 200, "scheduled: jobs")
	flag.DurationVar(&o.schedEvery, "sched-every", 100*time.Millisecond, "scheduled: time between two jobs' ScheduledAt")
	flag.StringVar(&o.schedPolls, "sched-polls", "default,50ms,1ms", "scheduled: FetchPollInterval values to try (FetchCooldown follows when shorter than its default)")
	flag.DurationVar(&o.schedLead, "sched-lead", 500*time.Millisecond, "scheduled-trickle: how long before its due time each job is inserted")
	flag.IntVar(&o.hangJobs, "hang-jobs", 200, "isolation: jobs of the conversation whose receiver hangs")
	flag.IntVar(&o.perConv, "per-conv", 20, "isolation: jobs of every other conversation")
	flag.DurationVar(&o.writeEvery, "write-every", 50*time.Millisecond, "writer: one app write this often")
	flag.DurationVar(&o.phase, "phase", 10*time.Second, "writer: length of each idle phase")
	flag.IntVar(&o.idleQueues, "idle-queues", 1000, "writer: queues of an idle client in the queue-per-conversation phase")
	flag.Parse()

	ctx := context.Background()
	rcv, err := startReceiver()
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range split(o.engines) {
		if err := runEngine(ctx, name, o, rcv); err != nil {
			log.Fatalf("%s: %v", name, err)
		}
	}
}

func runEngine(ctx context.Context, name string, o options, rcv *receiver) error {
	eng, err := openEngine(ctx, name, o.pgURL, o.fsync)
	if err != nil {
		return err
	}
	defer eng.close()
	s := &setup{eng: eng, rcv: rcv, o: o}
	for _, sc := range split(o.scenarios) {
		fmt.Printf("\n== %s / %s (load average %s)\n", name, sc, loadavg())
		var err error
		switch sc {
		case "burst":
			err = s.burst(ctx, clientOpts{maxWorkers: o.workers, poll: o.poll, cooldown: o.cooldown}, nil)
		case "scheduled":
			err = s.scheduled(ctx, 0)
		case "scheduled-trickle":
			err = s.scheduled(ctx, o.schedLead)
		case "isolation":
			err = s.isolation(ctx)
		case "writer":
			err = s.writer(ctx)
		default:
			err = fmt.Errorf("unknown scenario %q", sc)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", sc, err)
		}
	}
	return nil
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
