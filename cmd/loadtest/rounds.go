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

// measureRoute measures a route and, with -replay, its essential SQL. The
// two take turns o.rounds times, each turn a share of -d: on a shared
// machine the load of other work drifts by the second, and measured one
// after the other the route and its replay met different machines (the
// replay of the contact show ran anywhere from 6,800 to 12,500 a second
// between runs). In turns, the drift falls on both alike.
func measureRoute(ctx context.Context, r route, w *world, rp *replayer, o options, stmts *atomic.Int64,
	db *sql.DB, progress io.Writer) result {
	rounds := max(1, o.rounds)
	if !o.replay {
		rounds = 1
	}
	turn := o
	turn.duration = max(o.duration/time.Duration(rounds), 100*time.Millisecond)
	turn.maxRequests = max(1, o.maxRequests/rounds)
	replay := func(ctx context.Context, rng *rand.Rand) error { return r.direct(ctx, rp, rng) }
	var res, direct result
	for i := range rounds {
		if i > 0 {
			turn.warmup = 0 // warmed by the first turn
		}
		settle(ctx, db, progress)
		stop := w.poster().postDuring(ctx, o.writes)
		res = merge(res, measure(ctx, r.name, w.request(r), turn, stmts, progress))
		if posted, failed := stop(); posted > 0 {
			fmt.Fprintf(progress, "posted %d messages meanwhile, %d failed\n", posted, failed)
		}
		if o.replay {
			settle(ctx, db, progress)
			direct = merge(direct, measure(ctx, r.name+" (direct)", replay, turn, &atomic.Int64{}, progress))
		}
	}
	if o.replay {
		res.direct = &direct
	}
	return res
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
