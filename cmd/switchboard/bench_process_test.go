package main

// The schedule benchmarks' parts: the server processes (this test binary
// re-executed as `switchboard serve`) and the local receivers.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apitest"
)

// stopProfile ends the CPU profile BENCH_CPUPROFILE asked for.
var stopProfile = func() {}

// serveIfChild runs the server when this test binary was started as one of
// the benchmark's server processes; it never returns then.
func serveIfChild() {
	if os.Getenv(benchServeEnv) != "1" {
		return
	}
	// BENCH_CPUPROFILE=DIR writes each server process's CPU profile there,
	// to see where a burst's time goes.
	if dir := os.Getenv("BENCH_CPUPROFILE"); dir != "" {
		f, err := os.CreateTemp(dir, "server-*.pprof")
		if err == nil && pprof.StartCPUProfile(f) == nil {
			stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
		}
	}
	if err := run(nil, os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "switchboard:", err)
		stopProfile()
		os.Exit(1)
	}
	stopProfile()
	os.Exit(0)
}

// countingReceiver is the API channel's webhook: it counts the deliveries
// of each message content, to catch a duplicate at the far end.
type countingReceiver struct {
	mu  sync.Mutex
	got map[string]int
}

func (c *countingReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Content string `json:"content"`
	}
	raw, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(raw, &body)
	c.mu.Lock()
	c.got[body.Content]++
	c.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// lagReceiver is an account webhook's receiver: it keeps each delivery's
// lag, from the event's occurred_at to its arrival.
type lagReceiver struct {
	mu   sync.Mutex
	lags []time.Duration
}

func (l *lagReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	var body struct {
		OccurredAt time.Time `json:"occurred_at"`
	}
	raw, _ := io.ReadAll(r.Body)
	if json.Unmarshal(raw, &body) == nil && !body.OccurredAt.IsZero() {
		l.mu.Lock()
		l.lags = append(l.lags, arrived.Sub(body.OccurredAt))
		l.mu.Unlock()
	}
	w.WriteHeader(http.StatusOK)
}

// waitFor waits until n deliveries have arrived.
func (l *lagReceiver) waitFor(b *testing.B, n int) {
	apitest.Eventually(b, 10*time.Minute, fmt.Sprintf("%d webhook deliveries", n), func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.lags) >= n
	})
}

func (l *lagReceiver) report(b *testing.B) {
	l.mu.Lock()
	defer l.mu.Unlock()
	slices.Sort(l.lags)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(pct(l.lags, 50)), "webhook-p50-ms")
	b.ReportMetric(ms(pct(l.lags, 99)), "webhook-p99-ms")
}

func (c *countingReceiver) counts() (distinct, total, dup int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.got {
		total += n
		if n > 1 {
			dup += n - 1
		}
	}
	return len(c.got), total, dup
}

// serverProcess is `switchboard serve` running as a child process.
type serverProcess struct {
	cmd    *exec.Cmd
	base   string
	stderr bytes.Buffer
	once   sync.Once
}

func startServer(b *testing.B, url string) *serverProcess {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	p := &serverProcess{base: fmt.Sprintf("http://127.0.0.1:%d", port)}
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), benchServeEnv+"=1", "DATABASE_URL="+url, "PORT="+strconv.Itoa(port),
		"STORAGE_DIR="+b.TempDir(), "SWITCHBOARD_ALLOW_PRIVATE_NETWORKS=1")
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(p.base + "/api/v1/accounts/1/inboxes")
		if err == nil {
			res.Body.Close()
			return p
		}
		if time.Now().After(deadline) {
			p.stop()
			b.Fatalf("server did not start: %s", p.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the process as an operator would (SIGTERM) and waits for it.
func (p *serverProcess) stop() { p.signal(syscall.SIGTERM) }

// signal sends sig (SIGTERM, or SIGKILL for a crash) and waits for the
// process to end; later calls do nothing.
func (p *serverProcess) signal(sig syscall.Signal) {
	p.once.Do(func() {
		_ = p.cmd.Process.Signal(sig)
		_ = p.cmd.Wait()
	})
}

var firedPattern = regexp.MustCompile(`"jobs run".*"scheduled_messages":(\d+)`)

// fired is how many schedule firings the process ran, from its shutdown log.
func (p *serverProcess) fired() int {
	m := firedPattern.FindStringSubmatch(p.stderr.String())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// post sends a REST create as the bootstrapped administrator and returns
// the integer at path in the answer.
func (p *serverProcess) post(b *testing.B, boot *accounts.Bootstrapped, route string, body map[string]any, path ...string) int {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/accounts/%d%s", p.base, boot.AccountID, route), bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api_access_token", boot.AccessToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var v any
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != http.StatusOK {
		b.Fatalf("POST %s: %d %v", route, res.StatusCode, v)
	}
	for _, k := range path {
		v = v.(map[string]any)[k]
	}
	return int(v.(float64))
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// logProblems logs how many warnings and errors a server process logged,
// and the first few: a benchmark that passes with errors hides a cost.
func logProblems(b *testing.B, instance int, log string) {
	var problems []string
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, `"level":"ERROR"`) || strings.Contains(line, `"level":"WARN"`) {
			problems = append(problems, line)
		}
	}
	if len(problems) > 0 {
		b.Logf("instance %d logged %d warnings and errors, first: %s", instance, len(problems), strings.Join(problems[:min(3, len(problems))], "\n"))
	}
}
