package graph_test

// Automatic persisted queries (Apollo's protocol, gqlgen's extension): a
// client sends a query's SHA-256 alone; the server answers
// PERSISTED_QUERY_NOT_FOUND until it has seen the text with the hash once.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func persisted(hash string) H {
	return H{"persistedQuery": H{"version": 1, "sha256Hash": hash}}
}

// apq POSTs a request with the persisted-query extension; query may be "".
func (a *app) apq(query, hash string) *gqlResp {
	a.t.Helper()
	body := H{"extensions": persisted(hash)}
	if query != "" {
		body["query"] = query
	}
	raw, err := json.Marshal(body)
	if err != nil {
		a.t.Fatal(err)
	}
	req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	setToken(req, a, "")
	return a.send(req)
}

func TestAutomaticPersistedQueries(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		a.inbox(a.Account, a.Admin, "Support", apiChannel())
		const query = `{ inboxes(first: 5) { edges { node { name } } } }`
		sum := sha256.Sum256([]byte(query))
		hash := hex.EncodeToString(sum[:])
		names := func(t *testing.T, r *gqlResp) {
			t.Helper()
			if got, _ := lookup(r.Data, "inboxes.edges.*.node.name"); r.Status != http.StatusOK || len(r.Errors) > 0 ||
				len(got.([]any)) != 1 || got.([]any)[0] != "Support" {
				t.Errorf("want the inboxes: %s", r)
			}
		}
		t.Run("an unknown hash alone asks for the text", func(t *testing.T) {
			a.t = t
			r := a.apq("", hash)
			// Apollo's clients look for this message (and send the text again)
			// on a 200.
			if r.Status != http.StatusOK || r.code() != "PERSISTED_QUERY_NOT_FOUND" || r.Data != nil ||
				r.Errors[0].Message != "PersistedQueryNotFound" {
				t.Errorf("want 200 PersistedQueryNotFound and no data: %s", r)
			}
		})
		t.Run("a text that does not match its hash is refused and not kept", func(t *testing.T) {
			a.t = t
			other := `{ labels(first: 5) { totalCount } }`
			if r := a.apq(other, hash); len(r.Errors) == 0 || r.Data != nil {
				t.Errorf("want an error for a mismatched hash: %s", r)
			}
			if r := a.apq("", hash); r.code() != "PERSISTED_QUERY_NOT_FOUND" {
				t.Errorf("the mismatched text was kept: %s", r)
			}
		})
		t.Run("the text with its hash runs and is kept", func(t *testing.T) {
			a.t = t
			names(t, a.apq(query, hash))
		})
		t.Run("then the hash alone runs it", func(t *testing.T) {
			a.t = t
			names(t, a.apq("", hash))
		})
		t.Run("and so does a GET with the hash alone", func(t *testing.T) {
			a.t = t
			ext, _ := json.Marshal(persisted(hash))
			req := httptest.NewRequest("GET", "/graphql?extensions="+url.QueryEscape(string(ext)), nil)
			req.Header.Set("Accept", "application/json")
			setToken(req, a, "")
			names(t, a.send(req))
		})
		t.Run("the hash alone still needs a token", func(t *testing.T) {
			a.t = t
			body, _ := json.Marshal(H{"extensions": persisted(hash)})
			req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if r := a.send(req); r.Status != http.StatusUnauthorized || r.code() != "UNAUTHENTICATED" {
				t.Errorf("want 401 UNAUTHENTICATED: %s", r)
			}
		})
		t.Run("a text over the limits is refused before it is kept", func(t *testing.T) {
			a.t = t
			big := "{ agentBots { " + string(bytes.Repeat([]byte("id "), 20000)) + "} }"
			sum := sha256.Sum256([]byte(big))
			bigHash := hex.EncodeToString(sum[:])
			if r := a.apq(big, bigHash); r.code() != "QUERY_TOO_LARGE" {
				t.Errorf("want QUERY_TOO_LARGE: %s", r)
			}
			if r := a.apq("", bigHash); r.code() != "PERSISTED_QUERY_NOT_FOUND" {
				t.Errorf("the refused text was kept: %s", r)
			}
		})
	})
}
