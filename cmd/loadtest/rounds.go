package main

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"
)

// measureRoutes measures every route and, with -replay, its essential
// SQL, in turns: o.rounds rounds, each a share of -d for every route in
// order, a route's replay right after it. On a shared machine the load of
// other work drifts by the second: measured one after the other, a route
// and its replay (the contact show's replay ran anywhere from 6,800 to
// 12,500 a second between runs), or two routes whose ratio is a goal
// (GraphQL's contact against REST's), met different machines. In turns the
// drift falls on all alike.
func measureRoutes(ctx context.Context, routes []route, w *world, rp *replayer, o options, stmts *atomic.Int64,
	db *sql.DB, progress io.Writer) []result {
	rounds := max(1, o.rounds)
	turn := o
	turn.duration = max(o.duration/time.Duration(rounds), 100*time.Millisecond)
	turn.maxRequests = max(1, o.maxRequests/rounds)
	results, directs := make([]result, len(routes)), make([]result, len(routes))
	for i := range rounds {
		if i > 0 {
			turn.warmup = 0 // warmed by the first round
		}
		for j, r := range routes {
			fmt.Fprintf(progress, "driving %s (round %d of %d) for %s at %d clients\n", r.name, i+1, rounds, turn.duration, o.concurrency)
			res, direct := measureTurn(ctx, r, w, rp, turn, stmts, db, progress)
			results[j], directs[j] = merge(results[j], res), merge(directs[j], direct)
		}
	}
	if o.replay {
		for j := range results {
			results[j].direct = &directs[j]
		}
	}
	return results
}

// measureTurn drives route r for one turn, then (with -replay) its
// essential SQL for as long.
func measureTurn(ctx context.Context, r route, w *world, rp *replayer, turn options, stmts *atomic.Int64,
	db *sql.DB, progress io.Writer) (res, direct result) {
	settle(ctx, db, progress)
	stop := w.poster().postDuring(ctx, turn.writes)
	res = measure(ctx, r.name, w.request(r), turn, stmts, progress)
	if posted, failed := stop(); posted > 0 {
		fmt.Fprintf(progress, "posted %d messages meanwhile, %d failed\n", posted, failed)
	}
	if turn.replay {
		settle(ctx, db, progress)
		replay := func(ctx context.Context, rng *rand.Rand) error { return r.direct(ctx, rp, rng) }
		direct = measure(ctx, r.name+" (direct)", replay, turn, &atomic.Int64{}, progress)
	}
	return res, direct
}

// merge adds the figures of turn b to those of a.
func merge(a, b result) result {
	a.route = cmp.Or(a.route, b.route)
	a.requests += b.requests
	a.errors += b.errors
	a.elapsed += b.elapsed
	a.statements += b.statements
	a.cpu += b.cpu
	a.firstErr = cmp.Or(a.firstErr, b.firstErr)
	a.latencies = append(a.latencies, b.latencies...)
	slices.Sort(a.latencies)
	return a
}
