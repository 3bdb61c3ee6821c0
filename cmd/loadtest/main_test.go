package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// TestHarnessDrivesEveryRoute runs the harness as the README does, on a small
// account and briefly, on each engine: it seeds, drives every route and
// replays its essential SQL, in two rounds, with no error anywhere, and
// prints a row for each route and the ratios between routes; a second run with -reuse measures the account the first one
// seeded instead of seeding another.
func TestHarnessDrivesEveryRoute(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		o := options{database: e.NewURL(t), sizes: sizes{contacts: 60, conversations: 4, messages: 30, cards: 12},
			concurrency: 2, duration: 300 * time.Millisecond, warmup: 50 * time.Millisecond,
			maxRequests: 1000, replay: true, rounds: 2}
		var out, progress bytes.Buffer
		results, err := run(context.Background(), o, &out, &progress)
		if err != nil {
			t.Fatalf("run: %v\n%s", err, progress.String())
		}
		if len(results) != len(routes) {
			t.Fatalf("%d results for %d routes", len(results), len(routes))
		}
		for _, r := range results {
			checkResult(t, r)
			if !strings.Contains(out.String(), "| "+r.route+" | ") {
				t.Errorf("the table has no row for %s:\n%s", r.route, out.String())
			}
		}
		for _, rr := range routeRatios {
			if !strings.Contains(out.String(), rr.route+" against "+rr.against+": ") {
				t.Errorf("no ratio of %s against %s under the table:\n%s", rr.route, rr.against, out.String())
			}
		}

		// The reused account is read while a neighbouring account posts.
		o.reuse, o.routes, o.writes, o.writesAway = true, "GET /contacts/{id}", 50, true
		progress.Reset()
		results, err = run(context.Background(), o, &out, &progress)
		if err != nil {
			t.Fatalf("run with -reuse: %v\n%s", err, progress.String())
		}
		if !strings.Contains(progress.String(), "reusing 60 contacts") {
			t.Errorf("the second run did not reuse the seeded account:\n%s", progress.String())
		}
		if !regexp.MustCompile(`posted [1-9]\d* messages meanwhile, 0 failed`).MatchString(progress.String()) {
			t.Errorf("the neighbour's posts did not all succeed:\n%s", progress.String())
		}
		if len(results) != 1 {
			t.Fatalf("-routes picked %d routes, want 1", len(results))
		}
		checkResult(t, results[0])
	})
}

// fromMemory are the routes the server may answer without a statement
// while nothing changes (the conversation pages it keeps).
var fromMemory = map[string]bool{"GET /conversations": true}

// checkResult fails t unless route and replay both made requests, without
// an error, and the route's statements were counted.
func checkResult(t *testing.T, r result) {
	t.Helper()
	switch {
	case r.requests == 0 || r.errors > 0:
		t.Errorf("%s: %d requests, %d errors (first: %v)", r.route, r.requests, r.errors, r.firstErr)
	case r.statements == 0 && !fromMemory[r.route]:
		t.Errorf("%s: no statements counted", r.route)
	case r.direct == nil || r.direct.requests == 0 || r.direct.errors > 0:
		t.Errorf("%s: its replay did not run cleanly: %+v", r.route, r.direct)
	}
}
