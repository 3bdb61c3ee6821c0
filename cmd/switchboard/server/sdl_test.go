package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/graph"
	"github.com/switchboard/switchboard/internal/testdb"
)

// The GraphQL schema's SDL is served for code generators, without a token,
// as the committed schema (graph/testdata/schema.graphql) shows it.
func TestTheSchemaIsServed(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		h := newHarness(t, e.New(t))
		r := h.do("GET", "/graphql/schema.graphql", nil, "")
		if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
			t.Fatalf("GET /graphql/schema.graphql = %d (%s)", r.status, r.header.Get("Content-Type"))
		}
		if string(r.body) != graph.SDL() || !strings.Contains(string(r.body), "type Query {") {
			t.Errorf("the served schema is not the API's:\n%.300s", r.body)
		}
	})
}
