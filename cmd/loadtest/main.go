// Command loadtest seeds a realistic account and drives the hot routes of an
// in-process server on 127.0.0.1 at a given concurrency for a given time,
// then prints one Markdown table: requests per second, latency percentiles,
// errors and SQL statements per request (issue 13; docs/performance.md).
//
//	go run ./cmd/loadtest -contacts 5000 -messages 2000 -conversations 30 -c 16 -d 10s
//	go run ./cmd/loadtest -database postgres://user@127.0.0.1/empty_db ...
//	go run ./cmd/loadtest -database postgres://user@127.0.0.1/seeded_db -reuse -routes search
//
// Without -database it works on a fresh SQLite file in a temporary directory.
// A PostgreSQL database must be empty, the harness migrates and seeds it,
// unless -reuse finds the account an earlier run seeded there: a large
// dataset is then seeded once and measured many times (the runs' POST
// messages stay in it). After each route, its essential SQL is replayed
// through database/sql at the same concurrency (-replay, replay.go); the
// routes and their replays take turns (-rounds).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"time"

	"github.com/KimMachineGun/automemlimit/memlimit"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/config"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/stmtcount"
)

type options struct {
	database     string
	sizes        sizes
	concurrency  int
	duration     time.Duration
	warmup       time.Duration
	maxRequests  int
	routes       string
	keepDatabase bool
	reuse        bool
	replay       bool
	rounds       int
	writes       int
	writesAway   bool
	cpuProfile   string
	memProfile   string
}

func main() {
	var o options
	flag.StringVar(&o.database, "database", "", "DATABASE_URL of an empty database (default: SQLite in a temporary directory)")
	flag.IntVar(&o.sizes.contacts, "contacts", 5000, "contacts to seed")
	flag.IntVar(&o.sizes.conversations, "conversations", 30, "conversations to seed (one message each, the first gets -messages)")
	flag.IntVar(&o.sizes.messages, "messages", 2000, "messages in the first conversation")
	flag.IntVar(&o.sizes.cards, "cards", 2000, "kanban cards, in a funnel of two stages")
	flag.IntVar(&o.concurrency, "c", 16, "concurrent clients per route")
	flag.DurationVar(&o.duration, "d", 5*time.Second, "how long each route is driven")
	flag.DurationVar(&o.warmup, "warmup", time.Second, "unmeasured driving of each route first (caches, connections)")
	flag.IntVar(&o.maxRequests, "max-requests", 100_000, "at most this many requests per route")
	flag.StringVar(&o.routes, "routes", "", "comma-separated routes to drive (default: all): "+strings.Join(routeNames(), ","))
	flag.BoolVar(&o.keepDatabase, "keep", false, "keep the temporary SQLite database")
	flag.BoolVar(&o.reuse, "reuse", false, "use the account an earlier run seeded in -database, if there is one, instead of seeding (sizes are then what it holds)")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the driving (server and clients: they share the process) to this file")
	flag.StringVar(&o.memProfile, "memprofile", "", "write an allocation profile of the driving (server and clients) to this file")
	flag.BoolVar(&o.replay, "replay", true, "after each route, replay its essential SQL through database/sql at the same concurrency (route/direct column)")
	flag.IntVar(&o.rounds, "rounds", 3, "the routes (and each route's replay) take turns this many times, -d shared between a route's turns")
	flag.IntVar(&o.writes, "writes", 0, "messages posted a second while each route is driven, as agents answering meanwhile (their statements and CPU count in the route's figures)")
	flag.BoolVar(&o.writesAway, "writes-elsewhere", false, "with -writes, post into another account (a neighbour on the same installation) instead of the driven one")
	flag.Parse()
	// The server runs in this process: its collector is set as the binary
	// sets its own, so the figures are the binary's.
	config.TuneRuntime(os.Getenv, memlimit.FromCgroup)
	if _, err := run(context.Background(), o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// run prints the table of the routes' figures to out and returns them.
func run(ctx context.Context, o options, out, progress io.Writer) ([]result, error) {
	if o.concurrency < 1 || o.duration <= 0 || o.maxRequests < 1 || o.rounds < 1 || o.writes < 0 {
		return nil, fmt.Errorf("-c, -d, -max-requests and -rounds must be positive, -writes not negative")
	}
	if err := o.sizes.check(); err != nil {
		return nil, err
	}
	selected, err := selectRoutes(o.routes)
	if err != nil {
		return nil, err
	}
	url := o.database
	if url == "" {
		dir, err := os.MkdirTemp("", "switchboard-loadtest-")
		if err != nil {
			return nil, err
		}
		url = "sqlite://" + filepath.Join(dir, "loadtest.db")
		if !o.keepDatabase {
			defer os.RemoveAll(dir)
		} else {
			fmt.Fprintf(progress, "keeping the database: -database %s\n", url)
		}
	}
	raw, err := db.Open(url)
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	dir, err := raw.Migrations()
	if err != nil {
		return nil, err
	}
	if _, err := raw.MigrateUp(ctx, dir); err != nil {
		return nil, err
	}
	stmts := &atomic.Int64{}
	counted := stmtcount.Counted(raw, stmts, true)
	storage, err := os.MkdirTemp("", "switchboard-loadtest-files-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(storage)
	srv := server.New(server.Config{StorageDir: storage, Channels: discardChannels{},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, counted)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go func() { _ = srv.App.Listener(ln) }()
	defer func() { _ = srv.Shutdown() }()

	w, err := prepare(ctx, srv, raw, "http://"+ln.Addr().String(), o, progress)
	if err != nil {
		return nil, err
	}
	if o.writesAway && o.writes > 0 {
		if w.writer, err = neighbour(ctx, srv, w); err != nil {
			return nil, fmt.Errorf("making the neighbouring account: %w", err)
		}
	}
	rp := newReplayer(raw.SQL, raw.Dialect, w)
	if o.cpuProfile != "" {
		stop, err := startCPUProfile(o.cpuProfile)
		if err != nil {
			return nil, err
		}
		defer stop()
	}
	if o.memProfile != "" {
		defer writeAllocProfile(o.memProfile, progress)
		runtime.MemProfileRate = 64 << 10
	}
	results := measureRoutes(ctx, selected, w, rp, o, stmts, raw.SQL, progress)
	fmt.Fprintf(out, "Engine: %s · dataset: %s · %d clients · %s per route · %s/%s, %d CPUs · %s\n\n",
		raw.Dialect, w.sizes, o.concurrency, o.duration, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(),
		time.Now().UTC().Format("2006-01-02"))
	writeTable(out, results)
	writeRatios(out, results)
	return results, nil
}

// prepare seeds the dataset, or with -reuse finds the one an earlier run
// seeded.
func prepare(ctx context.Context, srv *server.Server, raw *db.DB, base string, o options, progress io.Writer) (*world, error) {
	started := time.Now()
	if o.reuse {
		w, err := attach(ctx, srv, raw, base)
		if err != nil {
			return nil, fmt.Errorf("reusing the seeded account: %w", err)
		}
		if w != nil {
			fmt.Fprintf(progress, "reusing %s\n", w.sizes)
			return w, nil
		}
	}
	w, err := seed(ctx, srv, raw, base, o.sizes, progress)
	if err != nil {
		return nil, fmt.Errorf("seeding: %w", err)
	}
	fmt.Fprintf(progress, "\rseeded %s in %s\n", o.sizes, time.Since(started).Round(time.Millisecond))
	return w, nil
}

// measure drives do unmeasured for o.warmup, then measured for o.duration.
func measure(ctx context.Context, name string, do op, o options, stmts *atomic.Int64, progress io.Writer) result {
	if o.warmup > 0 {
		warm := o
		warm.duration = o.warmup
		drive(ctx, name, do, warm, stmts)
	}
	res := drive(ctx, name, do, o, stmts)
	if res.firstErr != nil {
		fmt.Fprintf(progress, "%s: %d errors, the first: %v\n", name, res.errors, res.firstErr)
	}
	return res
}

// startCPUProfile profiles the process into path until the returned
// function is called.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// writeAllocProfile writes what the process allocated since
// MemProfileRate was set (the seeding's allocations come before it).
func writeAllocProfile(path string, progress io.Writer) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
	}
	if err != nil {
		fmt.Fprintln(progress, "memprofile:", err)
	}
}
