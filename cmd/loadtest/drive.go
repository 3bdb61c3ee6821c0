package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// route makes the requests of one hot route; direct replays its essential
// statements (replay.go).
type route struct {
	name   string
	make   func(w *world, rng *rand.Rand) (method, path string, body any)
	direct replay
}

var searchTerms = []string{"smith", "anna", "gmail", "patel", "+1415", "kowal", "zzyzx", "marco"}

func searchTerm(rng *rand.Rand) string { return searchTerms[rng.IntN(len(searchTerms))] }

// contactListPage is one of the first 20 pages of the contact list.
func contactListPage(w *world, rng *rand.Rand) int {
	return 1 + rng.IntN(max(1, min(len(w.contacts)/15, 20)))
}

// messageCursor is a random position in the busy conversation's messages.
func messageCursor(w *world, rng *rand.Rand) int {
	return w.firstMsg + 1 + rng.IntN(w.lastMsg-w.firstMsg+1)
}

const graphQLContact = `query($id: ID!) { contact(id: $id) { id name email phoneNumber contactInboxes { sourceID inbox { id name } } } }`

var routes = []route{
	{"GET /contacts/{id}", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", fmt.Sprintf("/contacts/%d", w.contacts[rng.IntN(len(w.contacts))]), nil
	}, replayShowContact},
	{"GraphQL contact(id)", func(w *world, rng *rand.Rand) (string, string, any) {
		return "POST", "/graphql", map[string]any{"query": graphQLContact,
			"variables": map[string]any{"id": w.contacts[rng.IntN(len(w.contacts))]}}
	}, replayGraphQLContact},
	{"GET /contacts?page=", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", fmt.Sprintf("/contacts?page=%d", contactListPage(w, rng)), nil
	}, replayListContacts},
	{"GET /contacts/search", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", "/contacts/search?q=" + url.QueryEscape(searchTerm(rng)), nil
	}, replaySearchContacts},
	{"GET /conversations", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", "/conversations?status=all", nil
	}, replayConversations},
	{"GET messages?before=", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", fmt.Sprintf("/conversations/%d/messages?before=%d", w.busyConv, messageCursor(w, rng)), nil
	}, replayMessagePage},
	{"POST message", func(w *world, rng *rand.Rand) (string, string, any) {
		return "POST", fmt.Sprintf("/conversations/%d/messages", w.convs[rng.IntN(len(w.convs))]),
			map[string]any{"content": "Thanks, we are on it.", "message_type": "outgoing"}
	}, replayPostMessage},
	{"card move", cardMove, replayCardMove},
	{"schedule create", scheduleCreate, replayScheduleCreate},
}

func routeNames() []string {
	names := make([]string, len(routes))
	for i, r := range routes {
		names[i] = r.name
	}
	return names
}

// selectRoutes picks routes by a comma-separated list of names or of
// substrings of names ("" is all).
func selectRoutes(list string) ([]route, error) {
	if list == "" {
		return routes, nil
	}
	var out []route
	for _, want := range strings.Split(list, ",") {
		n := len(out)
		for _, r := range routes {
			if strings.Contains(r.name, strings.TrimSpace(want)) {
				out = append(out, r)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("no route matches %q", want)
		}
	}
	return out, nil
}

// result is the figures of one route, or of its replay.
type result struct {
	route      string
	requests   int
	errors     int
	elapsed    time.Duration
	latencies  []time.Duration // sorted
	statements int64
	cpu        time.Duration // the process's CPU time while driving
	firstErr   error         // the first error, if any
	direct     *result       // the replay's figures, if it ran
}

func (r result) perSecond() float64 { return float64(r.requests) / r.elapsed.Seconds() }

// op is one request (or one replay) of a client.
type op func(ctx context.Context, rng *rand.Rand) error

func (w *world) request(r route) op {
	return func(ctx context.Context, rng *rand.Rand) error {
		method, path, body := r.make(w, rng)
		return w.send(ctx, method, path, body)
	}
}

// drive runs do from o.concurrency clients until o.duration passes or
// o.maxRequests were made. A client starts nothing after the deadline and
// waits for what it started: cutting requests off would leave the server
// finishing them while the next measurement runs, and an interrupted SQLite
// statement can leave its connection in a read transaction.
func drive(ctx context.Context, name string, do op, o options, stmts *atomic.Int64) result {
	deadline := time.Now().Add(o.duration)
	var sent atomic.Int64
	var mu sync.Mutex
	res := result{route: name}
	var wg sync.WaitGroup
	before := stmts.Load()
	cpuBefore := processCPU()
	started := time.Now()
	for i := range o.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 42))
			var lat []time.Duration
			errs := 0
			var first error
			for time.Now().Before(deadline) && sent.Add(1) <= int64(o.maxRequests) {
				t0 := time.Now()
				if err := do(ctx, rng); err != nil {
					errs++
					first = cmp.Or(first, err)
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			res.latencies = append(res.latencies, lat...)
			res.errors += errs
			res.firstErr = cmp.Or(res.firstErr, first)
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(started)
	res.cpu = processCPU() - cpuBefore
	res.statements = stmts.Load() - before
	res.requests = len(res.latencies)
	slices.Sort(res.latencies)
	return res
}

// send makes one request; any answer but 200 is an error.
func (w *world) send(ctx context.Context, method, path string, body any) error {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return err
		}
	}
	url := fmt.Sprintf("%s/api/v1/accounts/%d%s", w.base, w.accountID, path)
	if path == "/graphql" {
		url = w.base + path
	}
	return w.do(method, url, raw, func(status int, data []byte) error {
		if status != http.StatusOK || (path == "/graphql" && bytes.Contains(data, []byte(`"errors"`))) {
			return fmt.Errorf("%s %s: %d", method, path, status)
		}
		return nil
	})
}

func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, (len(sorted)*p+99)/100-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

// writeTable prints the figures; with replays, the direct rate and the ratio
// of the route's time per request to its essential SQL's.
func writeTable(out io.Writer, results []result) {
	fmt.Fprintln(out, "| route | req/s | p50 ms | p95 ms | p99 ms | errors | statements/req | CPU ms/req | direct/s | direct p50 ms | route/direct |")
	fmt.Fprintln(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range results {
		perReq, cpuPerReq := 0.0, 0.0
		if r.requests > 0 {
			perReq = float64(r.statements) / float64(r.requests)
			cpuPerReq = r.cpu.Seconds() * 1000 / float64(r.requests)
		}
		direct := "— | — | —"
		if d := r.direct; d != nil && d.requests > 0 && r.requests > 0 {
			direct = fmt.Sprintf("%.0f | %s | %.1f", d.perSecond(), ms(percentile(d.latencies, 50)), d.perSecond()/r.perSecond())
			if d.errors > 0 {
				direct += fmt.Sprintf(" (%d direct errors)", d.errors)
			}
		}
		fmt.Fprintf(out, "| %s | %.0f | %s | %s | %s | %d | %.1f | %.2f | %s |\n", r.route, r.perSecond(),
			ms(percentile(r.latencies, 50)), ms(percentile(r.latencies, 95)), ms(percentile(r.latencies, 99)), r.errors, perReq, cpuPerReq, direct)
	}
}

// routeRatios are the goals that compare two routes of one run (issue 13):
// GraphQL's contact against REST's (throughput, at least 0.8) and the
// conversation list against the contact show (time a request, at most 2).
var routeRatios = []struct {
	route, against, what string
	byTime               bool // the ratio of times a request, not of rates
}{
	{"GraphQL contact(id)", "GET /contacts/{id}", "req/s ÷ req/s (goal ≥ 0.8)", false},
	{"GET /conversations", "GET /contacts/{id}", "time a request ÷ time a request (goal ≤ 2)", true},
}

// writeRatios prints the ratios of routeRatios whose two routes were both
// driven.
func writeRatios(out io.Writer, results []result) {
	rate := map[string]float64{}
	for _, r := range results {
		rate[r.route] = r.perSecond()
	}
	for _, rr := range routeRatios {
		a, b := rate[rr.route], rate[rr.against]
		if a == 0 || b == 0 {
			continue
		}
		ratio := a / b
		if rr.byTime {
			ratio = b / a
		}
		fmt.Fprintf(out, "\n%s against %s: %.2f, %s", rr.route, rr.against, ratio, rr.what)
	}
	fmt.Fprintln(out)
}
