package server_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func TestRequestIDAndAccessLog(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		h := newHarness(t, e.New(t))
		long := strings.Repeat("a", 129)
		tests := []struct {
			name, sent string
			keep       bool
		}{
			{"sane id is kept", "req-42_a.b:c", true},
			{"none sent: one is made", "", false},
			{"spaces and quotes are replaced", `x" injected="1`, false},
			{"too long is replaced", long, false},
			{"longest allowed is kept", long[:128], true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				header := h.authed()
				if tt.sent != "" {
					header["X-Request-Id"] = tt.sent
				}
				r := h.do("GET", h.contactsPath(), header, "")
				got := r.header.Get("X-Request-Id")
				if r.status != http.StatusOK {
					t.Fatalf("status %d %s", r.status, r.body)
				}
				if tt.keep && got != tt.sent || !tt.keep && !uuidRE.MatchString(got) {
					t.Fatalf("X-Request-Id %q sent, %q returned", tt.sent, got)
				}
				line := findLog(t, h, got)
				want := map[string]any{"level": "INFO", "msg": "request", "method": "GET",
					"route": "/api/v1/accounts/:account_id/contacts", "path": h.contactsPath(), "status": float64(200)}
				for k, v := range want {
					if line[k] != v {
						t.Errorf("log %s = %v, want %v (line %v)", k, line[k], v, line)
					}
				}
				if d, ok := line["duration_ms"].(float64); !ok || d < 0 {
					t.Errorf("log duration_ms = %v", line["duration_ms"])
				}
			})
		}
		// Errors are logged too, with the status the client got; so are the
		// requests refused before routing (a body over 1 MiB, a NUL).
		for _, r := range []response{
			h.do("GET", "/api/v1/accounts/999999/contacts", h.authed(), ""),
			h.do("POST", h.contactsPath(), h.authed(), `{"name": "`+strings.Repeat("a", 2<<20)+`"}`),
			h.do("GET", h.contactsPath()+"/search?q=a%00b", h.authed(), ""),
		} {
			if line := findLog(t, h, r.header.Get("X-Request-Id")); line["status"] != float64(r.status) || r.status < 400 {
				t.Errorf("error request logged as %v, answered %d", line["status"], r.status)
			}
		}
	})
}

func findLog(t *testing.T, h *harness, id string) map[string]any {
	t.Helper()
	for _, l := range h.log.lines(t) {
		if l["request_id"] == id {
			return l
		}
	}
	t.Fatalf("no access log line with request_id %q", id)
	return nil
}

func TestMetrics(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		h := newHarness(t, e.New(t))
		h.do("GET", h.contactsPath(), h.authed(), "")
		h.do("GET", h.contactsPath(), h.authed(), "")
		conversations := strings.TrimSuffix(h.contactsPath(), "contacts") + "conversations"
		for range 3 { // read once, then twice from memory
			h.do("GET", conversations, h.authed(), "")
		}
		h.do("GET", "/no/such/route/1", nil, "")
		h.do("GET", "/no/such/route/2", nil, "")
		r := h.do("GET", "/metrics", nil, "")
		if r.status != http.StatusOK {
			t.Fatalf("GET /metrics = %d", r.status)
		}
		body := string(r.body)
		for _, want := range []string{
			`switchboard_http_requests_total{method="GET",route="/api/v1/accounts/:account_id/contacts",status="200"} 2`,
			// Unknown URLs share one series: bounded cardinality.
			`switchboard_http_requests_total{method="GET",route="unmatched",status="404"} 2`,
			`switchboard_http_request_duration_seconds_bucket{method="GET",route="/api/v1/accounts/:account_id/contacts",le="+Inf"} 2`,
			`go_sql_open_connections{db_name="` + dialectOf(e) + `"}`,
			`go_sql_in_use_connections{db_name=`,
			`go_sql_idle_connections{db_name=`,
			`go_sql_wait_count_total{db_name=`,
			"switchboard_websocket_clients 0",
			"switchboard_live_listeners_dropped_total 0",
			"switchboard_live_event_gaps_total 0",
			`switchboard_jobs_due{kind="messages"} 0`,
			`switchboard_jobs_lateness_seconds{kind="scheduled_messages"} 0`,
			`switchboard_jobs_running{kind="webhook_deliveries"} 0`,
			"switchboard_jobs_firing_turn ",
			`switchboard_cache_lookups_total{cache="conversation_pages",result="hit"} 2`,
			`switchboard_cache_lookups_total{cache="conversation_pages",result="miss"} 1`,
			`switchboard_cache_entries{cache="conversation_pages"} 1`,
			`switchboard_cache_forgets_total{cache="tokens"}`,
			"go_goroutines ",
			"process_cpu_seconds_total ",
		} {
			if !strings.Contains(body, want) {
				t.Errorf("/metrics lacks %q", want)
			}
		}
		if strings.Contains(body, "/no/such/route") {
			t.Error("/metrics labels a raw URL")
		}
	})
}

func dialectOf(e testdb.Engine) string {
	if e.Name == "postgres" {
		return "postgres"
	}
	return "sqlite3"
}
