package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestHealthAndReadiness(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		h := newHarness(t, e.New(t))
		tests := []struct {
			path   string
			status int
			body   string
		}{
			{"/healthz", http.StatusOK, `{"status":"ok"}`},
			{"/readyz", http.StatusOK, `{"status":"ready","checks":{"database":"ok","jobs":"ok"}}`},
		}
		for _, tt := range tests {
			r := h.do("GET", tt.path, nil, "")
			if r.status != tt.status || string(r.body) != tt.body {
				t.Errorf("GET %s = %d %s, want %d %s", tt.path, r.status, r.body, tt.status, tt.body)
			}
		}
	})
}

// On SQLite the database cannot become unreachable the way a server can;
// a closed pool is the nearest: readiness must say so and health must not
// care. (The realistic outage, on PostgreSQL, is TestDatabaseOutage.)
func TestReadinessWithAClosedPool(t *testing.T) {
	e := testdb.Engine{Name: "sqlite"}
	d := e.New(t)
	h := newHarness(t, d)
	d.SQL.Close()
	if r := h.do("GET", "/readyz", nil, ""); r.status != http.StatusServiceUnavailable ||
		string(r.body) != `{"status":"not ready","checks":{"database":"unreachable","jobs":"ok"}}` {
		t.Errorf("GET /readyz on a closed pool = %d %s", r.status, r.body)
	}
	if r := h.do("GET", "/healthz", nil, ""); r.status != http.StatusOK {
		t.Errorf("GET /healthz on a closed pool = %d %s, want 200", r.status, r.body)
	}
}

// TestDatabaseOutage takes PostgreSQL away behind a proxy (connections cut,
// new ones refused, as when its host goes down): readiness, REST and
// GraphQL say 503/UNAVAILABLE, and all recover when it is back.
func TestDatabaseOutage(t *testing.T) {
	d, proxy := proxied(t, testdb.Postgres(t, "an outage takes PostgreSQL away"))
	h := newHarness(t, d)
	if r := h.do("GET", h.contactsPath(), h.authed(), ""); r.status != http.StatusOK {
		t.Fatalf("before the outage: %d %s", r.status, r.body)
	}

	proxy.cut()
	r := h.do("GET", "/readyz", nil, "")
	if r.status != http.StatusServiceUnavailable || r.json(t)["checks"].(map[string]any)["database"] != "unreachable" {
		t.Errorf("GET /readyz during the outage = %d %s", r.status, r.body)
	}
	if r := h.do("GET", "/healthz", nil, ""); r.status != http.StatusOK {
		t.Errorf("GET /healthz during the outage = %d, want 200", r.status)
	}
	for _, path := range []string{h.contactsPath(), h.contactsPath() + "/search?q=ada"} {
		r := h.do("GET", path, h.authed(), "")
		if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "5" ||
			!strings.Contains(r.json(t)["error"].(string), "temporarily unavailable") {
			t.Errorf("GET %s during the outage = %d (Retry-After %q) %s, want 503 with Retry-After 5",
				path, r.status, r.header.Get("Retry-After"), r.body)
		}
	}
	gql := h.do("POST", "/graphql", h.authed(), `{"query":"{ __typename }"}`)
	if gql.status != http.StatusServiceUnavailable || gql.header.Get("Retry-After") != "5" ||
		!strings.Contains(string(gql.body), `"code":"UNAVAILABLE"`) {
		t.Errorf("GraphQL during the outage = %d %s, want extensions.code UNAVAILABLE", gql.status, gql.body)
	}

	proxy.restore()
	eventually(t, "readiness after the outage", func() bool {
		return h.do("GET", "/readyz", nil, "").status == http.StatusOK
	})
	if r := h.do("GET", h.contactsPath(), h.authed(), ""); r.status != http.StatusOK {
		t.Errorf("after the outage: %d %s", r.status, r.body)
	}
}
