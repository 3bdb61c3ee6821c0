package graph_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestInputsTheDatabaseWouldRefuseAreTheCallers: inputs that used to reach
// the database and fail there (an INTERNAL_SERVER_ERROR, or stored on one
// engine and refused by the other) are the caller's mistake, answered alike
// on both engines with the field named:
//   - a cursor from another order, or altered by hand;
//   - a NUL written as a GraphQL string escape (REST refuses the JSON one);
//   - a search text past the longest LIKE pattern SQLite takes;
//   - attributes nested deeper than SQLite's JSON functions read.
func TestInputsTheDatabaseWouldRefuseAreTheCallers(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.annAndBob()
		byName := a.gqlOK(t, `{ contacts(first: 1, orderBy: [{field: NAME, direction: ASC}]) { edges { node { id } } pageInfo { endCursor } } }`, nil)
		cursor := mustGet(t, byName.Data, "contacts.pageInfo.endCursor").(string)
		deep := H{"v": 1}
		for range 40 {
			deep = H{"x": deep}
		}
		long := strings.Repeat("x", 60_000)
		cases := []gqlCase{
			{name: "a cursor of another order is refused, naming after",
				query: `query($c: Cursor) { contacts(first: 1, after: $c) { edges { node { name } } } }`, vars: H{"c": cursor},
				code: "BAD_USER_INPUT", attrs: []string{"after"}},
			{name: "and so is it as before",
				query: `query($c: Cursor) { contacts(last: 1, before: $c) { edges { node { name } } } }`, vars: H{"c": cursor},
				code: "BAD_USER_INPUT", attrs: []string{"before"}},
			{name: "a cursor with a value altered to an object is refused",
				query: `{ contacts(first: 1, after: "gqFpAaF2kYGhYQE") { edges { node { name } } } }`,
				code:  "BAD_USER_INPUT", attrs: []string{"after"}},
			{name: "the cursor still serves the order it came from",
				query: `query($c: Cursor) { contacts(first: 1, after: $c, orderBy: [{field: NAME, direction: ASC}]) { edges { node { name } } } }`,
				vars:  H{"c": cursor}, want: H{"contacts.edges.0.node.name": "Bob"}},
			{name: "a NUL in a GraphQL string escape is refused, naming the field",
				query: `mutation($ib: ID!) { createContact(input: {inboxID: $ib, name: "nul\u0000here"}) { contact { id } userErrors { field code } } }`,
				vars:  H{"ib": ib}, code: "INVALID", attrs: []string{"input.name"}},
			{name: "a card search text past the cap is refused",
				query: `query($q: String) { searchKanbanItems(input: {query: $q}) { totalCount } }`, vars: H{"q": long},
				code: "BAD_USER_INPUT", attrs: []string{"query"}},
			{name: "a contact search text past the cap is refused",
				query: `query($q: String!) { searchContacts(q: $q) { totalCount } }`, vars: H{"q": long},
				code: "BAD_USER_INPUT", attrs: []string{"q"}},
			{name: "attributes nested past the cap are refused",
				query: `mutation($ib: ID!, $attrs: Map) { createContact(input: {inboxID: $ib, name: "Deep", additionalAttributes: $attrs}) { contact { id } userErrors { field code } } }`,
				vars:  H{"ib": ib, "attrs": deep}, code: "INVALID", attrs: []string{"input.additionalAttributes"}},
		}
		if e.Name == "postgres" {
			// A text where the order compares a time: PostgreSQL refuses the
			// statement (SQLite compares the two as they are).
			cases = append(cases, gqlCase{name: "a cursor with a text for a time is refused",
				query: `{ contacts(first: 1, after: "gqFpAaF2kaFh", orderBy: [{field: CREATED_AT, direction: DESC}]) { edges { node { name } } } }`,
				code:  "BAD_USER_INPUT", attrs: []string{"after"}})
		}
		a.run(t, cases)
	})
}

// TestRequestsRefusedBeforeGraphQLRunsCarryACode: what the server refuses
// before a query runs (a body it has no transport for, a method it is not
// served over, a NUL the app refuses for both APIs) is answered as GraphQL
// answers, with extensions.code; and an Int variable sent as digits, which
// gqlgen takes, counts for the query's cost as the number it is.
func TestRequestsRefusedBeforeGraphQLRunsCarryACode(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		a.annAndBob()
		a.run(t, []gqlCase{
			{name: "a body that is not JSON is 415 with a code", header: map[string]string{"Content-Type": "text/plain"},
				query: `{ contacts(first: 1) { totalCount } }`, status: http.StatusUnsupportedMediaType, code: "BAD_REQUEST"},
			{name: "a NUL in the variables is 400 with a code",
				query: `query($n: String!) { searchContacts(q: $n) { totalCount } }`, vars: H{"n": "a\u0000b"},
				status: http.StatusBadRequest, code: "BAD_REQUEST"},
			{name: "an Int variable sent as digits pages as the number",
				query: `query($f: Int) { contacts(first: $f) { edges { node { name } } } }`, vars: H{"f": "1"},
				want: H{"contacts.edges.#": 1}},
		})
		t.Run("a method GraphQL is not served over is 405 with a code", func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPut, "/graphql", strings.NewReader(`{"query": "{ __typename }"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("api_access_token", a.Admin)
			r := a.send(req)
			if r.Status != http.StatusMethodNotAllowed || len(r.Errors) == 0 || r.Errors[0].Extensions["code"] != "BAD_REQUEST" {
				t.Fatalf("PUT answered %d %+v, want 405 with code BAD_REQUEST", r.Status, r.Errors)
			}
		})
	})
}

// annAndBob makes an API inbox with the contacts Ann and Bob, and returns
// the inbox.
func (a *app) annAndBob() int {
	a.t.Helper()
	ib := a.inbox(a.Account, a.Admin, "Support", apiChannel())
	a.contact(a.Admin, ib, H{"name": "Ann"})
	a.contact(a.Admin, ib, H{"name": "Bob"})
	return ib
}
