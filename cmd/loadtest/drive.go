package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// route makes the requests of one hot route.
type route struct {
	name string
	make func(w *world, rng *rand.Rand) (method, path string, body any)
}

var searchTerms = []string{"smith", "anna", "gmail", "patel", "+1415", "kowal", "zzyzx", "marco"}

const graphQLContact = `query($id: ID!) { contact(id: $id) { id name email phoneNumber contactInboxes { sourceID inbox { id name } } } }`

var routes = []route{
	{"GET /contacts/{id}", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", fmt.Sprintf("/contacts/%d", w.contacts[rng.IntN(len(w.contacts))]), nil
	}},
	{"GraphQL contact(id)", func(w *world, rng *rand.Rand) (string, string, any) {
		return "POST", "/graphql", map[string]any{"query": graphQLContact,
			"variables": map[string]any{"id": w.contacts[rng.IntN(len(w.contacts))]}}
	}},
	{"GET /contacts?page=", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", fmt.Sprintf("/contacts?page=%d", 1+rng.IntN(max(1, min(len(w.contacts)/15, 20)))), nil
	}},
	{"GET /contacts/search", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", "/contacts/search?q=" + strings.ReplaceAll(searchTerms[rng.IntN(len(searchTerms))], "+", "%2B"), nil
	}},
	{"GET /conversations", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", "/conversations?status=all", nil
	}},
	{"GET messages?before=", func(w *world, rng *rand.Rand) (string, string, any) {
		return "GET", fmt.Sprintf("/conversations/%d/messages?before=%d", w.busyConv, w.firstMsg+1+rng.IntN(w.lastMsg-w.firstMsg+1)), nil
	}},
	{"POST message", func(w *world, rng *rand.Rand) (string, string, any) {
		return "POST", fmt.Sprintf("/conversations/%d/messages", w.convs[rng.IntN(len(w.convs))]),
			map[string]any{"content": "Thanks, we are on it.", "message_type": "outgoing"}
	}},
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

// result is one route's figures.
type result struct {
	route      string
	requests   int
	errors     int
	elapsed    time.Duration
	latencies  []time.Duration // sorted
	statements int64
}

// drive sends the route's requests from o.concurrency clients until
// o.duration passes or o.maxRequests were sent.
func drive(ctx context.Context, w *world, r route, o options, stmts *atomic.Int64) result {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var sent atomic.Int64
	var mu sync.Mutex
	res := result{route: r.name}
	var wg sync.WaitGroup
	before := stmts.Load()
	started := time.Now()
	for i := range o.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 42))
			var lat []time.Duration
			errs := 0
			for ctx.Err() == nil && sent.Add(1) <= int64(o.maxRequests) {
				method, path, body := r.make(w, rng)
				t0 := time.Now()
				if err := w.send(ctx, method, path, body); err != nil {
					if ctx.Err() != nil {
						break // cut off by the deadline: not the server's error
					}
					errs++
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			res.latencies = append(res.latencies, lat...)
			res.errors += errs
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(started)
	res.statements = stmts.Load() - before
	res.requests = len(res.latencies)
	slices.Sort(res.latencies)
	return res
}

// send makes one request; any answer but 200 is an error.
func (w *world) send(ctx context.Context, method, path string, body any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(raw)
	}
	url := fmt.Sprintf("%s/api/v1/accounts/%d%s", w.base, w.accountID, path)
	if path == "/graphql" {
		url = w.base + path
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	req.Header.Set("api_access_token", w.token)
	req.Header.Set("X-Account-Id", fmt.Sprint(w.accountID))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := w.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK || (path == "/graphql" && bytes.Contains(data, []byte(`"errors"`))) {
		return fmt.Errorf("%s %s: %d", method, path, res.StatusCode)
	}
	return nil
}

func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, (len(sorted)*p+99)/100-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

func writeTable(out io.Writer, results []result) {
	fmt.Fprintln(out, "| route | req/s | p50 ms | p95 ms | p99 ms | errors | statements/req |")
	fmt.Fprintln(out, "|---|---:|---:|---:|---:|---:|---:|")
	for _, r := range results {
		perReq := 0.0
		if r.requests > 0 {
			perReq = float64(r.statements) / float64(r.requests)
		}
		fmt.Fprintf(out, "| %s | %.0f | %s | %s | %s | %d | %.1f |\n", r.route, float64(r.requests)/r.elapsed.Seconds(),
			ms(percentile(r.latencies, 50)), ms(percentile(r.latencies, 95)), ms(percentile(r.latencies, 99)), r.errors, perReq)
	}
}
