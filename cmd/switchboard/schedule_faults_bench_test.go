package main

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// BenchmarkScheduleFaults runs 2,000 schedules due over 20 seconds through
// real server processes that are killed while they work: kill -9 (no
// chance to release anything: the claims' 15 s leases run out) and
// SIGTERM (running jobs get their grace, the rest are released at once),
// each followed by a restart two seconds later. On PostgreSQL two
// instances share the work and each suffers one fault; on SQLite one
// instance suffers both in turn.
//
//	go test ./cmd/switchboard/ -run '^$' -bench BenchmarkScheduleFaults -benchtime 1x -timeout 30m
//
// It fails when a schedule is lost or posted twice, or a message never
// reaches the receiver; it reports lateness as BenchmarkScheduleFiring does
// and how many deliveries the receiver got twice (a message on the wire
// when its process was killed is sent again: at least once, same content).
func BenchmarkScheduleFaults(b *testing.B) {
	for _, e := range testdb.Engines(b) {
		instances, faults := 1, []fault{
			{after: 5 * time.Second, instance: 0, signal: syscall.SIGKILL},
			{after: 12 * time.Second, instance: 0, signal: syscall.SIGTERM},
		}
		if e.Name == "postgres" {
			instances = 2
			faults[1].instance = 1
		}
		b.Run(fmt.Sprintf("%s/instances=%d", e.Name, instances), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				runScheduleBench(b, e, instances, load{count: 2000, spread: 20 * time.Second, faults: faults})
			}
		})
	}
}

// fault is a signal sent to one server process at a time after the due
// second; the process is started again two seconds later.
type fault struct {
	after    time.Duration
	instance int
	signal   syscall.Signal
}

// restartAfter is how long a faulted instance stays down.
const restartAfter = 2 * time.Second

// inflict sends each fault at its time, restarts the instance, and returns
// the processes as they now are.
func inflict(b *testing.B, url string, procs []*serverProcess, due time.Time, faults []fault) []*serverProcess {
	for _, f := range faults {
		<-time.After(time.Until(due.Add(f.after))) // the scenario's clock, not a wait for an event
		procs[f.instance].signal(f.signal)
		<-time.After(restartAfter)
		procs[f.instance] = startServer(b, url)
		b.Cleanup(procs[f.instance].stop)
		b.Logf("%v to instance %d at due+%v; restarted", f.signal, f.instance+1, f.after)
	}
	return procs
}
