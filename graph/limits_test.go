package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/graph"
	"github.com/switchboard/switchboard/internal/testdb"
)

// messageHas checks that the first error's message names the limit.
func messageHas(words ...string) func(t *testing.T, r *gqlResp) {
	return func(t *testing.T, r *gqlResp) {
		t.Helper()
		for _, w := range words {
			if !strings.Contains(r.Errors[0].Message, w) {
				t.Errorf("error message %q does not mention %q", r.Errors[0].Message, w)
			}
		}
	}
}

// nested is depth fields, each inside the one before: { f { f { ... } } }.
func nested(field string, depth int) string {
	return "{ " + strings.Repeat(field+" { ", depth-1) + "id" + strings.Repeat(" }", depth-1) + " }"
}

// memberChain is issue 10's measured attack: inbox { members { inbox {
// members ... } } }, depth 7 (8.9 s and 720 KB before the cost model).
func memberChain(inboxID int) string {
	return fmt.Sprintf(`query { inbox(id: %d) { id name members { id user { id name email } inbox { id name members { id `+
		`user { id name email } inbox { id name members { id user { id name email } inbox { id name } } } } } } } }`, inboxID)
}

// limitCases are the refusals of DefaultLimits, each with the code and the
// words its message must hold. All are refused before anything runs: 422
// as a query that fails validation, except a page argument (BAD_USER_INPUT,
// as the resolvers answered it before).
func limitCases(inboxID int) []gqlCase {
	refused := http.StatusUnprocessableEntity
	var aliases, repeats strings.Builder
	for i := range 31 {
		fmt.Fprintf(&aliases, "a%d: agentBots { id } ", i)
	}
	for range 11 {
		repeats.WriteString("agentBots { id } ")
	}
	// Each fragment spreads the next twice: 2^12 copies of id once expanded.
	doubling := "query { inbox(id: 1) { ...F0 } }"
	for i := range 12 {
		doubling += fmt.Sprintf(" fragment F%d on Inbox { ...F%d ...F%d }", i, i+1, i+1)
	}
	doubling += " fragment F12 on Inbox { id }"
	// Five aliased members per level, five levels: thousands of fields
	// from a few hundred bytes, with no name repeated.
	fanOut := "query { inbox(id: 1) { ...E0 } }"
	for i := range 5 {
		fanOut += fmt.Sprintf(" fragment E%d on Inbox { id", i)
		for j := range 5 {
			fanOut += fmt.Sprintf(" m%d%d: members { inbox { ...E%d } }", i, j, i+1)
		}
		fanOut += " }"
	}
	fanOut += " fragment E5 on Inbox { id name }"
	deepFragments := "query { inbox(id: 1) { ...D0 } }"
	for i := range 12 {
		deepFragments += fmt.Sprintf(" fragment D%d on Inbox { members { inbox { ...D%d } } }", i, i+1)
	}
	deepFragments += " fragment D12 on Inbox { id }"
	var partialIntrospections strings.Builder
	for i := range 30 {
		fmt.Fprintf(&partialIntrospections, "s%d: __schema { types { name fields { name type { name } } } } ", i)
	}
	return []gqlCase{
		{name: "20,000 repeated fields (39 s of validation before) are too large",
			query: "{ agentBots { " + strings.Repeat("id ", 20000) + "} }", status: refused, code: "QUERY_TOO_LARGE",
			check: messageHas("bytes", "32768")},
		{name: "over 3,000 tokens within the byte limit",
			query: "{ agentBots { " + strings.Repeat("id ", 3100) + "} }", status: refused, code: "QUERY_TOO_LARGE",
			check: messageHas("3000 tokens")},
		{name: "the measured inbox-members chain, depth 7", query: memberChain(inboxID), status: refused,
			code: "QUERY_TOO_COMPLEX", check: messageHas("limit of 50000")},
		{name: "13 nested fields are too deep", query: nested("a", 13), status: refused, code: "QUERY_TOO_DEEP",
			check: messageHas("13 fields deep", "depth limit of 12")},
		{name: "depth counts through fragments", query: deepFragments, status: refused, code: "QUERY_TOO_DEEP"},
		{name: "31 aliases", query: "{ " + aliases.String() + "}", status: refused, code: "TOO_MANY_ALIASES",
			check: messageHas("31 aliases", "limit of 30")},
		{name: "one field 11 times in a selection set", query: "{ " + repeats.String() + "}", status: refused,
			code: "QUERY_TOO_COMPLEX", check: messageHas(`"agentBots"`, "10 times")},
		{name: "fragments that double at every level", query: doubling, status: refused, code: "QUERY_TOO_COMPLEX"},
		{name: "repeats count in merged selections: 4 inboxes of 3 members each",
			query: "{ " + strings.Repeat("inbox(id: 1) { "+strings.Repeat("members { id } ", 3)+"} ", 4) + "}", status: refused,
			code: "QUERY_TOO_COMPLEX", check: messageHas(`"members"`)},
		{name: "fragments fanning out past 5,000 fields", query: fanOut, status: refused, code: "QUERY_TOO_COMPLEX",
			check: messageHas("5000 fields")},
		{name: "lists nested under a page cost page times their bounds",
			query: `{ inboxes(first: 100) { edges { node { members { inbox { members { id } } } } } } }`, status: refused, code: "QUERY_TOO_COMPLEX"},
		{name: "two full introspections (800 KB each)", // the whole schema a second time, under an alias
			query:  strings.Replace(fullIntrospection, "{ __schema {", "{ again: __schema { types { ...FullType } } __schema {", 1),
			status: refused, code: "QUERY_TOO_COMPLEX", check: messageHas("limit of 50000")},
		{name: "thirty aliased partial introspections (4.4 MB priced at nothing before)",
			query: "{ " + partialIntrospections.String() + "}", status: refused, code: "QUERY_TOO_COMPLEX"},
		{name: "a nested connection's page over 100, from a variable",
			query: `query($n: Int) { conversations(first: 10) { edges { node { messages(first: $n) { totalCount } } } } }`,
			vars:  H{"n": 101}, code: "BAD_USER_INPUT", attrs: []string{"first"}, check: messageHas("100")},
	}
}

// fullIntrospection is the introspection query GraphQL tools send
// (GraphiQL's, with its fragments); the schema answers it with about 33,000
// values.
const fullIntrospection = `query IntrospectionQuery { __schema { queryType { name } mutationType { name }
	subscriptionType { name } types { ...FullType } directives { name description locations args { ...InputValue } } } }
fragment FullType on __Type { kind name description fields(includeDeprecated: true) { name description
	args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason } inputFields { ...InputValue }
	interfaces { ...TypeRef } enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
	possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
	ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`

func TestGraphQLLimits(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		a.run(t, limitCases(ib))
		a.run(t, []gqlCase{
			{name: "a paged query within the limits runs",
				query: `query($n: Int) { inbox(id: ` + id(ib) + `) { name members { user { name } } }
					conversations(first: 25) { edges { node { messages(first: $n) { edges { node { content } } } } } } }`,
				vars: H{"n": 20}, want: H{"inbox.name": "API"}},
			{name: "a full introspection, as GraphQL tools send it, runs",
				query: fullIntrospection, want: H{"__schema.queryType.name": "Query", "__schema.types.0.name": nonEmpty}},
			{name: "introspection is not held to the depth limit",
				query: `{ __schema { types { name fields { name type { name kind ofType { name kind ofType { name kind ` +
					`ofType { name kind ofType { name kind ofType { name } } } } } } } } } }`,
				want: H{"__schema.types.0.name": nonEmpty}},
		})
	})
}

// TestRefusedQueriesAreCheap times each refusal and the slowest query the
// limits let through to validation (they are logged, not asserted: the
// machine is shared).
func TestRefusedQueriesAreCheap(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		for _, c := range limitCases(ib) {
			start := time.Now()
			r := a.gql(gqlReq{query: c.query, vars: c.vars})
			took := time.Since(start)
			if r.code() != c.code {
				t.Errorf("%s: want %s, got %s", c.name, c.code, r)
			}
			t.Logf("%-60s %s in %v", c.name, c.code, took)
		}
		// Within the text limits, so validated: ten copies of a chain of
		// members eleven fields deep (the cost check refuses it after).
		chain := "id"
		for range 5 {
			chain = "members { id inbox { id " + chain + " } }"
		}
		q := "{ " + strings.Repeat("inbox(id: 1) { id "+chain+" } ", 10) + "}"
		start := time.Now()
		r := a.gql(gqlReq{query: q})
		t.Logf("%-60s %s in %v", "ten chains of members, validated, then refused", r.code(), time.Since(start))
	})
}

// TestGraphQLTimeout: a query running past the timeout ends with TIMEOUT.
// The timeout is a nanosecond, so the first database call finds it passed.
func TestGraphQLTimeout(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		a.inbox(a.Account, a.Admin, "API", apiChannel())
		limits := graph.DefaultLimits
		limits.Timeout = time.Nanosecond
		h := graph.NewHandlerWithLimits(context.Background(), a.srv.DB.Client, a.srv.Svc, a.srv.Events, "/graphql", limits)
		raw, _ := json.Marshal(H{"query": `{ inboxes(first: 10) { edges { node { id name } } } }`})
		req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("api_access_token", a.Admin)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var body struct{ Errors []gqlErr }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || len(body.Errors) == 0 {
			t.Fatalf("want an error, got HTTP %d %s", rec.Code, rec.Body)
		}
		if got := body.Errors[0].Extensions["code"]; got != "TIMEOUT" || !strings.Contains(body.Errors[0].Message, "time limit of 1ns") {
			t.Errorf("want TIMEOUT naming the limit, got HTTP %d %s", rec.Code, rec.Body)
		}
	})
}
