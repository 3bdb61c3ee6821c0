package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/outbound"
	"github.com/switchboard/switchboard/internal/outbound/outboundtest"
	"github.com/switchboard/switchboard/internal/testdb"
)

var errRefused = &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}

func TestWaitForDatabase(t *testing.T) {
	ready := &db.DB{}
	tests := []struct {
		name      string
		wait      time.Duration
		failures  int   // how many opens fail before one succeeds
		failWith  error // what they fail with
		wantCalls int
		wantErr   string
	}{
		{"up at once", time.Second, 0, nil, 1, ""},
		{"up after two refusals", 10 * time.Second, 2, errRefused, 3, ""},
		{"never up within the wait: the last try is at its end", 600 * time.Millisecond, 100, errRefused, 3, "waited DATABASE_WAIT=600ms"},
		{"up at the end of the wait", 600 * time.Millisecond, 2, errRefused, 3, ""},
		{"wrong password is not waited for", 10 * time.Second, 100, errors.New(`pq: password authentication failed for user "x"`), 1, "password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			open := func(string) (*db.DB, error) {
				calls++
				if calls <= tt.failures {
					return nil, tt.failWith
				}
				return ready, nil
			}
			got, err := waitForDatabase(context.Background(), "postgres://x", tt.wait, open)
			if calls != tt.wantCalls {
				t.Errorf("opened %d times, want %d", calls, tt.wantCalls)
			}
			if tt.wantErr == "" && (err != nil || got != ready) {
				t.Errorf("got %v, %v", got, err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("error %v, want one saying %q", err, tt.wantErr)
			}
		})
	}
}

func TestWaitForDatabaseStopsOnSignal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := waitForDatabase(ctx, "postgres://x", time.Minute, func(string) (*db.DB, error) { return nil, errRefused })
	if err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("err = %v", err)
	}
}

// TestServeLogsJSONAndExitsCleanlyOnSIGTERM runs the real binary (this test
// binary re-executed as the server): it answers /healthz, logs JSON lines,
// and exits 0 on SIGTERM. A malformed LOG_LEVEL stops it at start.
func TestServeLogsJSONAndExitsCleanlyOnSIGTERM(t *testing.T) {
	e := testdb.Engine{Name: "sqlite"}
	port := freePort(t)
	var stderr bytes.Buffer
	cmd := serverCommand(t, e.NewURL(t), port, "info", &stderr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("the server did not answer /healthz: %v\n%s", err, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM the server exited with %v, want 0\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), `"msg":"request"`) || !strings.Contains(stderr.String(), `"route":"/healthz"`) {
		t.Errorf("no JSON access log line for /healthz in:\n%s", stderr.String())
	}

	var bad bytes.Buffer
	cmd = serverCommand(t, e.NewURL(t), freePort(t), "loud", &bad)
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 ||
		!strings.Contains(bad.String(), `LOG_LEVEL "loud": want debug, info, warn or error`) {
		t.Errorf("LOG_LEVEL=loud: exit %v, stderr %q", err, bad.String())
	}
}

func serverCommand(t *testing.T, url string, port int, level string, stderr *bytes.Buffer) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), benchServeEnv+"=1", "DATABASE_URL="+url, "PORT="+strconv.Itoa(port),
		"STORAGE_DIR="+t.TempDir(), "LOG_LEVEL="+level)
	cmd.Stderr = stderr
	return cmd
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestRunHelpAndBadConfiguration(t *testing.T) {
	noEnv := func(string) string { return "" }
	var out bytes.Buffer
	if err := run([]string{"--help"}, noEnv, &out); err != nil {
		t.Fatalf("--help: %v", err)
	}
	for _, want := range []string{"Usage: switchboard", "bootstrap", "PORT", "--port", "AUTO_MIGRATE", "SHUTDOWN_TIMEOUT"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help does not mention %s:\n%s", want, out.String())
		}
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"malformed variable", nil, map[string]string{"PORT": "abc"}, `PORT "abc": want`},
		{"malformed flag", []string{"--schedule-catch-up-window", "banana"}, nil, `--schedule-catch-up-window "banana": want`},
		{"unknown command", []string{"serve"}, nil, `unknown command "serve"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(tt.args, func(k string) string { return tt.env[k] }, &out)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
			if out.Len() != 0 {
				t.Errorf("printed %q", out.String())
			}
		})
	}
}

// TestRunSetsTheOutboundGuard: the guard is set from the configuration
// before any command runs (here one that then fails on its arguments).
func TestRunSetsTheOutboundGuard(t *testing.T) {
	outboundtest.AllowPrivate(t, false)
	env := map[string]string{"SWITCHBOARD_ALLOW_PRIVATE_NETWORKS": "1"}
	if err := run([]string{"tokens", "rotate"}, func(k string) string { return env[k] }, io.Discard); err == nil {
		t.Fatal("tokens rotate without --email succeeded")
	}
	if !outbound.AllowPrivate() {
		t.Error("SWITCHBOARD_ALLOW_PRIVATE_NETWORKS=1 did not lift the outbound guard")
	}
}
