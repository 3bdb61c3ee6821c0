package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// acceptAll is a channel that takes every message.
type acceptAll struct{}

func (acceptAll) Deliver(context.Context, delivery.Job) (string, error) { return "", nil }

type harness struct {
	t       *testing.T
	srv     *server.Server
	token   string
	account int
	log     *syncBuffer
}

// syncBuffer collects the access log (requests may log concurrently).
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines decodes the JSON log lines written so far.
func (b *syncBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", l)
		}
		out = append(out, m)
	}
	return out
}

func newHarness(t *testing.T, database *db.DB) *harness {
	t.Helper()
	logs := &syncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	srv := server.New(server.Config{StorageDir: t.TempDir(), Channels: acceptAll{}, Logger: logger,
		ShutdownTimeout: 5 * time.Second}, database)
	t.Cleanup(func() { _ = srv.Shutdown() })
	b, err := srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Acme", Email: "admin@acme.test", Name: "Ada Admin",
	})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	return &harness{t: t, srv: srv, token: b.AccessToken, account: b.AccountID, log: logs}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %q", err, r.body)
	}
	return m
}

func (h *harness) do(method, path string, header map[string]string, body string) response {
	h.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := h.srv.App.Test(req, -1)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func (h *harness) authed() map[string]string { return map[string]string{"api_access_token": h.token} }

// contactsPath is an authenticated REST route that reads the database.
func (h *harness) contactsPath() string {
	return "/api/v1/accounts/" + strconv.Itoa(h.account) + "/contacts"
}

// proxied opens a fresh PostgreSQL database through a proxy the test can
// cut.
func proxied(t *testing.T, e testdb.Engine) (*db.DB, *dbProxy) {
	t.Helper()
	u, err := url.Parse(e.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	p := newDBProxy(t, u.Host)
	u.Host = p.addr
	d, err := db.Open(u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, p
}

// eventually polls check until it holds or the deadline passes.
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	apitest.Eventually(t, 10*time.Second, what, check)
}
