package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/testdb"
)

func TestGraphQLAuth(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		// A's administrator also administers a third account, C.
		c, err := w.srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
			AccountName: "Second Home", Email: "admin@acme.test", Name: "Ada Admin"})
		if err != nil {
			t.Fatal(err)
		}
		w.inbox(c.AccountID, w.Admin, "C API", apiChannel())
		const names = `{ contacts(first: 100) { totalCount edges { node { name } } } }`
		count := func(n int) H { return H{"contacts.totalCount": n} }
		w.run(t, []gqlCase{
			{name: "no token", token: noToken, query: names, status: http.StatusUnauthorized, code: "UNAUTHENTICATED",
				check: func(t *testing.T, r *gqlResp) {
					if r.Data != nil {
						t.Errorf("data with a 401: %s", r)
					}
				}},
			{name: "unknown token", token: "not-a-token", query: names, status: http.StatusUnauthorized, code: "UNAUTHENTICATED"},
			{name: "platform token is not an access token", token: w.Platform, query: names,
				status: http.StatusUnauthorized, code: "UNAUTHENTICATED"},
			{name: "Authorization: Bearer", token: noToken, header: map[string]string{"Authorization": "Bearer " + w.Admin},
				query: names, want: count(5)},
			{name: "Authorization: bearer (any case)", token: noToken, header: map[string]string{"Authorization": "bearer " + w.Admin},
				query: names, want: count(5)},
			{name: "Authorization: Bearer with a bad token", token: noToken, header: map[string]string{"Authorization": "Bearer nope"},
				query: names, status: http.StatusUnauthorized, code: "UNAUTHENTICATED"},
			{name: "Api-Access-Token header", token: noToken, header: map[string]string{"Api-Access-Token": w.Admin},
				query: names, want: count(5)},
			{name: "without X-Account-Id the user's first account", query: names, want: count(5)},
			{name: "X-Account-Id selects the account", header: map[string]string{"X-Account-Id": strconv.Itoa(c.AccountID)},
				query: names, want: count(0),
				check: func(t *testing.T, r *gqlResp) {
					ib := w.gql(gqlReq{header: map[string]string{"X-Account-Id": strconv.Itoa(c.AccountID)}, query: `{ inboxes(first: 10) { edges { node { name } } } }`})
					if got, _ := lookup(ib.Data, "inboxes.edges.*.node.name"); !reflect.DeepEqual(got, []any{"C API"}) {
						t.Errorf("inboxes of C: %s", ib)
					}
				}},
			{name: "X-Account-Id of the own account", header: map[string]string{"X-Account-Id": strconv.Itoa(w.Account)},
				query: names, want: count(5)},
			{name: "X-Account-Id of a non-member account", header: map[string]string{"X-Account-Id": strconv.Itoa(w.B)},
				query: names, status: http.StatusUnauthorized, code: "UNAUTHENTICATED"},
			{name: "X-Account-Id of a missing account", header: map[string]string{"X-Account-Id": "999999"},
				query: names, status: http.StatusUnauthorized, code: "UNAUTHENTICATED"},
			{name: "X-Account-Id that is not a number", header: map[string]string{"X-Account-Id": "acme"},
				query: names, status: http.StatusBadRequest, code: "BAD_REQUEST"},
			{name: "mutation without token", token: noToken, query: `mutation { deleteContact(id: 1) { deletedId userErrors { field message code } } }`,
				status: http.StatusUnauthorized, code: "UNAUTHENTICATED",
				check: func(t *testing.T, r *gqlResp) {
					if n, _ := w.srv.DB.Client.Contact.Query().Count(sys()); n != 7 {
						t.Errorf("contacts changed: %d", n)
					}
				}},
		})

		t.Run("account_id query parameter selects the account", func(t *testing.T) {
			w.t = t
			req := httptest.NewRequest("POST", fmt.Sprintf("/graphql?account_id=%d", w.B), strings.NewReader(`{"query":"{ inboxes(first: 10) { edges { node { name } } } }"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("api_access_token", w.BAdmin)
			r := w.send(req)
			if got, _ := lookup(r.Data, "inboxes.edges.*.node.name"); r.Status != 200 || !reflect.DeepEqual(got, []any{"Rival API"}) {
				t.Errorf("want B's inboxes: %s", r)
			}
		})
		t.Run("GET with a query", func(t *testing.T) {
			w.t = t
			req := httptest.NewRequest("GET", "/graphql?query="+url.QueryEscape("{ inboxes(first: 10) { edges { node { name } } } }"), nil)
			req.Header.Set("api_access_token", w.Admin)
			req.Header.Set("Accept", "text/html,application/json")
			r := w.send(req)
			if got, _ := lookup(r.Data, "inboxes.edges.*.node.name"); r.Status != 200 || !reflect.DeepEqual(got, []any{"API", "Support Mail"}) {
				t.Errorf("want A's inboxes: %s", r)
			}
		})
		t.Run("GET without a token", func(t *testing.T) {
			w.t = t
			req := httptest.NewRequest("GET", "/graphql?query=%7BagentBots%7Bname%7D%7D", nil)
			r := w.send(req)
			if r.Status != http.StatusUnauthorized || r.code() != "UNAUTHENTICATED" {
				t.Errorf("want 401 UNAUTHENTICATED: %s", r)
			}
		})
		t.Run("GET mutation is refused", func(t *testing.T) {
			w.t = t
			req := httptest.NewRequest("GET", "/graphql?query=mutation%7BdeleteContact(id:1)%7D", nil)
			req.Header.Set("api_access_token", w.Admin)
			r := w.send(req)
			if r.Status == http.StatusOK && len(r.Errors) == 0 {
				t.Errorf("a GET ran a mutation: %s", r)
			}
			if _, err := w.srv.DB.Client.Contact.Get(sys(), 1); err != nil {
				t.Errorf("contact 1 gone: %v", err)
			}
		})
		t.Run("the explorer page for a browser, with nothing from another host", func(t *testing.T) {
			w.t = t
			req := httptest.NewRequest("GET", "/graphql", nil)
			req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
			r := w.send(req)
			if r.Status != http.StatusOK {
				t.Fatalf("want 200: %s", r)
			}
			if ct := r.Header.Get("Content-Type"); !strings.Contains(ct, "text/html") {
				t.Errorf("Content-Type %q, want text/html", ct)
			}
			body := string(r.Body)
			if !strings.Contains(body, `data-testid="graphql-explorer"`) || !strings.Contains(body, `data-endpoint="/graphql"`) {
				t.Errorf("not the explorer page for /graphql:\n%.500s", r.Body)
			}
			// Every asset is the server's own: no src or href names a host.
			for _, m := range regexp.MustCompile(`(?i)(?:src|href)\s*=\s*"([^"]*)"`).FindAllStringSubmatch(body, -1) {
				if !strings.HasPrefix(m[1], "/") || strings.HasPrefix(m[1], "//") {
					t.Errorf("the explorer loads %q, which is not the server's own", m[1])
				}
			}
		})
	})
}
