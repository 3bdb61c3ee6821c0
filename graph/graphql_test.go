package graph_test

// GraphQL scenarios through POST /graphql of the real app (built as main
// builds it), on every engine testdb offers. Each table runs in order, one
// named subtest per case, so a failure names the broken behaviour.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/graph"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// H is a JSON object: variables, request bodies, expectations.
type H = map[string]any

// ---- the app under test ----

// app is the server over a fresh database holding one bootstrapped account
// (A) with its administrator.
type app struct {
	t        *testing.T
	srv      *server.Server
	Account  int    // account A
	AdminID  int    // A's administrator
	Admin    string // A's administrator's token
	Platform string // the platform token
	seq      atomic.Int64
}

// acceptAll stands in for the channels: messages never leave the machine.
type acceptAll struct{}

func (acceptAll) Deliver(context.Context, delivery.Job) (string, error) { return "", nil }

func newApp(t *testing.T, e testdb.Engine) *app {
	t.Helper()
	return newAppWith(t, e, server.Config{Channels: acceptAll{}})
}

// newAppWith is newApp with the server configured by cfg (its storage is a
// temporary directory).
func newAppWith(t *testing.T, e testdb.Engine, cfg server.Config) *app {
	t.Helper()
	return newAppOn(t, e.New(t), cfg)
}

// newAppOn builds the server over an open, migrated database and
// bootstraps account A.
func newAppOn(t *testing.T, database *db.DB, cfg server.Config) *app {
	t.Helper()
	cfg.StorageDir = t.TempDir()
	srv := server.New(cfg, database)
	t.Cleanup(func() { _ = srv.Shutdown() })
	b, err := srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Acme", Email: "admin@acme.test", Name: "Ada Admin",
	})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	if b.PlatformToken == "" {
		t.Fatal("bootstrap on a fresh database returned no platform token")
	}
	return &app{t: t, srv: srv, Account: b.AccountID, AdminID: b.UserID, Admin: b.AccessToken, Platform: b.PlatformToken}
}

// sys is a context that passes every privacy rule, to look behind the API.
func sys() context.Context { return viewer.SystemContext(context.Background()) }

func (a *app) next() int64 { return a.seq.Add(1) }

// otherAccount bootstraps account B with its own administrator.
func (a *app) otherAccount(name string) (accountID int, adminToken string) {
	a.t.Helper()
	b, err := a.srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: name, Email: fmt.Sprintf("admin%d@%s.test", a.next(), strings.ToLower(name)), Name: name + " Admin",
	})
	if err != nil {
		a.t.Fatalf("bootstrap %s: %v", name, err)
	}
	return b.AccountID, b.AccessToken
}

// agent makes a new platform user an agent of accountID and returns its token.
func (a *app) agent(accountID int) string {
	a.t.Helper()
	_, token := a.agentUser(accountID)
	return token
}

// agentUser is agent, returning the user's id too.
func (a *app) agentUser(accountID int) (int, string) {
	a.t.Helper()
	r := a.mustREST("POST", "/platform/api/v1/users", a.Platform, H{
		"name": "Agent", "email": fmt.Sprintf("agent%d@people.test", a.next()), "password": "s3cret-pass",
	}, http.StatusOK)
	userID := int(mustGet(a.t, r, "id").(float64))
	a.mustREST("POST", fmt.Sprintf("/platform/api/v1/accounts/%d/account_users", accountID), a.Platform,
		H{"user_id": userID, "role": "agent"}, http.StatusOK)
	return userID, mustGet(a.t, r, "access_token").(string)
}

// inbox creates an inbox in accountID through REST and returns its id.
func (a *app) inbox(accountID int, token, name string, channel H) int {
	a.t.Helper()
	r := a.mustREST("POST", fmt.Sprintf("/api/v1/accounts/%d/inboxes", accountID), token,
		H{"name": name, "channel": channel}, http.StatusOK)
	return int(mustGet(a.t, r, "id").(float64))
}

func apiChannel() H { return H{"type": "api"} }

// contact creates a contact through the createContact mutation (a setup step
// that must succeed) and returns its id.
func (a *app) contact(token string, inboxID int, fields H) int {
	a.t.Helper()
	input := H{"inboxID": inboxID}
	for k, v := range fields {
		input[k] = v
	}
	r := a.gql(gqlReq{token: token, query: `mutation($in: CreateContactInput!) {
		createContact(input: $in) { contact { id } userErrors { field message code } } }`, vars: H{"in": input}})
	if r.Status != http.StatusOK || len(r.Errors) > 0 {
		a.t.Fatalf("seeding contact %v: %s", fields, r)
	}
	return atoi(a.t, mustGet(a.t, r.Data, "createContact.contact.id"))
}

// ---- transport ----

// noToken as a request's token sends no token at all.
const noToken = "\x00none"

type gqlReq struct {
	token  string // "" means A's administrator; noToken none
	header map[string]string
	query  string
	vars   H
}

// gqlErr is one entry of a GraphQL response's errors.
type gqlErr struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

type gqlResp struct {
	Status int
	Header http.Header
	Body   []byte
	Data   any
	Errors []gqlErr
}

func (r *gqlResp) String() string {
	b := string(r.Body)
	if len(b) > 3000 {
		b = b[:3000] + "…"
	}
	return fmt.Sprintf("HTTP %d %s", r.Status, b)
}

// code is errors[0].extensions.code; without errors, the code of the first
// user error a mutation's payload answers (INVALID, CONFLICT); "" for none.
func (r *gqlResp) code() string {
	if len(r.Errors) == 0 {
		for _, ue := range r.userErrors() {
			c, _ := ue["code"].(string)
			return c
		}
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// attrs is errors[0].extensions.attributes; without errors, the input paths
// of the user errors, each joined with dots ("input.email").
func (r *gqlResp) attrs() []string {
	out := []string{}
	if len(r.Errors) == 0 {
		for _, ue := range r.userErrors() {
			path, _ := ue["field"].([]any)
			parts := make([]string, len(path))
			for i, p := range path {
				parts[i] = fmt.Sprint(p)
			}
			out = append(out, strings.Join(parts, "."))
		}
		return out
	}
	list, _ := r.Errors[0].Extensions["attributes"].([]any)
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// gql POSTs a GraphQL operation to /graphql.
func (a *app) gql(rq gqlReq) *gqlResp {
	a.t.Helper()
	raw, err := json.Marshal(H{"query": rq.query, "variables": rq.vars})
	if err != nil {
		a.t.Fatalf("encoding request: %v", err)
	}
	req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	setToken(req, a, rq.token)
	for k, v := range rq.header {
		req.Header.Set(k, v)
	}
	return a.send(req)
}

func setToken(req *http.Request, a *app, token string) {
	switch token {
	case noToken:
	case "":
		req.Header.Set("api_access_token", a.Admin)
	default:
		req.Header.Set("api_access_token", token)
	}
}

func (a *app) send(req *http.Request) *gqlResp {
	a.t.Helper()
	res, err := a.srv.App.Test(req, -1)
	if err != nil {
		a.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		a.t.Fatalf("reading body: %v", err)
	}
	r := &gqlResp{Status: res.StatusCode, Header: res.Header, Body: body}
	var env struct {
		Data   any      `json:"data"`
		Errors []gqlErr `json:"errors"`
	}
	if json.Unmarshal(body, &env) == nil {
		r.Data, r.Errors = env.Data, env.Errors
	}
	return r
}

// rest sends a REST request and decodes its JSON body.
func (a *app) rest(method, path, token string, body any) (int, any) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			a.t.Fatalf("encoding body: %v", err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	setToken(req, a, token)
	res, err := a.srv.App.Test(req, -1)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var v any
	_ = json.Unmarshal(raw, &v)
	return res.StatusCode, v
}

func (a *app) mustREST(method, path, token string, body any, status int) any {
	a.t.Helper()
	got, v := a.rest(method, path, token, body)
	if got != status {
		a.t.Fatalf("setup %s %s: want %d, got %d %v", method, path, status, got, v)
	}
	return v
}

// ---- JSON paths and expectations: the shared harness's ----

var (
	lookup    = apitest.Lookup
	normalize = apitest.Normalize
	sameItems = apitest.SameItems
	nonEmpty  = apitest.NonEmpty
	// absent: a GraphQL field is absent or null.
	absent = apitest.AbsentOrNull
)

// matcher is an expectation other than equality (apitest.Matcher).
type matcher = apitest.Matcher

func mustGet(t testing.TB, v any, path string) any {
	t.Helper()
	got, ok := lookup(v, path)
	if !ok {
		t.Fatalf("no value at %q in %v", path, v)
	}
	return got
}

// atoi reads a global ID (a string) as its database id, or a number as an
// int. The scenarios send database ids back, which every ID argument takes;
// node_test.go covers the global ids themselves.
func atoi(t testing.TB, v any) int {
	t.Helper()
	switch x := v.(type) {
	case string:
		_, n, err := graph.DecodeGlobalID(x)
		if err != nil {
			t.Fatalf("want an id, got %q: %v", x, err)
		}
		return n
	case float64:
		return int(x)
	}
	t.Fatalf("want an id, got %#v", v)
	return 0
}

// gid is the global id GraphQL answers for the typ object with database id n.
func gid(typ string, n int) string { return graph.EncodeGlobalID(typ, n) }

// id is a database id as an ID argument takes it.
func id(n int) string { return strconv.Itoa(n) }

// lazy is a variable value computed when the request is sent (it may depend
// on an earlier case).
type lazy func() any

func resolve(v any) any {
	switch x := v.(type) {
	case lazy:
		return x()
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, el := range x {
			out[k] = resolve(el)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, el := range x {
			out[i] = resolve(el)
		}
		return out
	}
	return v
}

// ---- cases ----

// gqlCase is one GraphQL request and what its response must hold.
type gqlCase struct {
	name   string
	token  string // "" means A's administrator; noToken none
	header map[string]string
	query  string
	vars   H
	status int      // the HTTP status; 0 means 200
	code   string   // errors[0].extensions.code, or a payload's userErrors[0].code; "" means neither
	attrs  []string // errors[0].extensions.attributes, or the userErrors' fields (dotted paths)
	// want maps paths of data to values (or matchers).
	want  H
	check func(t *testing.T, r *gqlResp)
	// events, when not nil, are exactly the kinds of change the request
	// tells account A's listeners, in order (empty: none at all).
	events []events.Kind
}

func (a *app) run(t *testing.T, cases []gqlCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a.t = t
			vars, _ := resolve(c.vars).(H)
			var heard *apitest.EventLog
			if c.events != nil {
				heard = apitest.Listen(t, a.srv.Events, a.Account)
			}
			r := a.gql(gqlReq{token: c.token, header: c.header, query: c.query, vars: vars})
			status := c.status
			if status == 0 {
				status = http.StatusOK
			}
			if r.Status != status {
				t.Fatalf("want HTTP %d, got %s", status, r)
			}
			if got := r.code(); got != c.code {
				t.Fatalf("want error code %q, got %q: %s", c.code, got, r)
			}
			if c.code == "" && len(r.Errors) > 0 {
				t.Fatalf("want no errors: %s", r)
			}
			if c.attrs != nil {
				if got := r.attrs(); !reflect.DeepEqual(got, c.attrs) {
					t.Errorf("want extensions.attributes %v, got %v: %s", c.attrs, got, r)
				}
			}
			if isUserErrorCode(c.code) && len(r.Errors) == 0 {
				r.refusedEmpty(t)
			} else if c.code != "" && r.Errors[0].Message == "" {
				t.Errorf("error without a message: %s", r)
			}
			want := make(H, len(c.want))
			for path, w := range c.want {
				want[path] = resolve(w)
			}
			apitest.Expect(t, "data", r.Data, want)
			if c.check != nil {
				c.check(t, r)
			}
			if heard != nil {
				heard.Expect(t, c.events)
			}
		})
	}
	a.t = t
}

// ---- fixture ----

// world is account A with two inboxes and five contacts, and account B with
// one inbox and a contact that shares A's e-mail domain (and even one of its
// e-mail addresses: uniqueness is per account).
type world struct {
	*app
	APIInbox, MailInbox int
	Alice, Bob, Carol   int
	Dave, Eve           int
	B                   int    // account B
	BAdmin              string // B's administrator's token
	BInbox, Mallory     int
	BAlice              int
}

func newWorld(t *testing.T, e testdb.Engine) *world {
	t.Helper()
	w := &world{app: newApp(t, e)}
	w.APIInbox = w.inbox(w.Account, w.Admin, "API", apiChannel())
	w.MailInbox = w.inbox(w.Account, w.Admin, "Support Mail", H{"type": "email", "email": "support@acme.test"})
	w.Alice = w.contact(w.Admin, w.APIInbox, H{"name": "Alice Anders", "email": "alice@wonder.example",
		"phoneNumber": "+15550000001", "identifier": "cust-001"})
	w.Bob = w.contact(w.Admin, w.APIInbox, H{"name": "Bob Brown", "email": "bob@builders.example", "phoneNumber": "+15550000002"})
	w.Carol = w.contact(w.Admin, w.APIInbox, H{"name": "Carol Clark", "email": "carol@wonder.example"})
	w.Dave = w.contact(w.Admin, w.APIInbox, H{"name": "Dave Davis", "phoneNumber": "+442000000000"})
	w.Eve = w.contact(w.Admin, w.APIInbox, H{"name": "Eve Evans", "email": "eve@evil.example"})
	w.B, w.BAdmin = w.otherAccount("Rival")
	w.BInbox = w.inbox(w.B, w.BAdmin, "Rival API", apiChannel())
	w.Mallory = w.contact(w.BAdmin, w.BInbox, H{"name": "Mallory Mole", "email": "mallory@wonder.example",
		"phoneNumber": "+15559999999"})
	w.BAlice = w.contact(w.BAdmin, w.BInbox, H{"name": "Alice Anders (Rival)", "email": "alice@wonder.example"})
	return w
}

const contactsQuery = `query($first: Int, $after: Cursor, $last: Int, $before: Cursor, $orderBy: [ContactOrder!], $where: ContactWhereInput) {
	contacts(first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy, where: $where) {
		totalCount
		pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
		edges { cursor node { id name email } }
	}
}`

func byName(dir string) H { return H{"field": "NAME", "direction": dir} }

// ---- tests ----

func TestGraphQLContactsConnection(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		var endCursor string
		all := []any{"Alice Anders", "Bob Brown", "Carol Clark", "Dave Davis", "Eve Evans"}
		w.run(t, []gqlCase{
			{name: "every contact of the account, none of B's", query: contactsQuery,
				vars: H{"first": 100, "orderBy": []any{byName("ASC")}},
				want: H{"contacts.totalCount": 5, "contacts.edges.*.node.name": all,
					"contacts.pageInfo.hasNextPage": false}},
			{name: "first page", query: contactsQuery,
				vars: H{"first": 2, "orderBy": []any{byName("ASC")}},
				want: H{"contacts.totalCount": 5, "contacts.edges.*.node.name": []any{"Alice Anders", "Bob Brown"},
					"contacts.pageInfo.hasNextPage": true, "contacts.pageInfo.hasPreviousPage": false,
					"contacts.pageInfo.endCursor": nonEmpty},
				check: func(t *testing.T, r *gqlResp) {
					endCursor = mustGet(t, r.Data, "contacts.pageInfo.endCursor").(string)
					if last := mustGet(t, r.Data, "contacts.edges.1.cursor"); last != endCursor {
						t.Errorf("endCursor %v is not the last edge's cursor %v", endCursor, last)
					}
				}},
			{name: "second page after the first's endCursor", query: contactsQuery,
				vars: H{"first": 2, "after": lazy(func() any { return endCursor }), "orderBy": []any{byName("ASC")}},
				want: H{"contacts.totalCount": 5, "contacts.edges.*.node.name": []any{"Carol Clark", "Dave Davis"},
					"contacts.pageInfo.hasNextPage": true, "contacts.pageInfo.hasPreviousPage": true},
				check: func(t *testing.T, r *gqlResp) {
					endCursor = mustGet(t, r.Data, "contacts.pageInfo.endCursor").(string)
				}},
			{name: "last page", query: contactsQuery,
				vars: H{"first": 2, "after": lazy(func() any { return endCursor }), "orderBy": []any{byName("ASC")}},
				want: H{"contacts.totalCount": 5, "contacts.edges.*.node.name": []any{"Eve Evans"},
					"contacts.pageInfo.hasNextPage": false}},
			{name: "last 2", query: contactsQuery,
				vars: H{"last": 2, "orderBy": []any{byName("ASC")}},
				want: H{"contacts.edges.*.node.name": []any{"Dave Davis", "Eve Evans"},
					"contacts.pageInfo.hasPreviousPage": true, "contacts.pageInfo.hasNextPage": false}},
			{name: "orderBy NAME DESC", query: contactsQuery,
				vars: H{"first": 3, "orderBy": []any{byName("DESC")}},
				want: H{"contacts.totalCount": 5, "contacts.edges.*.node.name": []any{"Eve Evans", "Dave Davis", "Carol Clark"}}},
			{name: "direction defaults to ASC", query: contactsQuery,
				vars: H{"first": 1, "orderBy": []any{H{"field": "NAME"}}},
				want: H{"contacts.edges.*.node.name": []any{"Alice Anders"}}},
			{name: "where nameContainsFold ignores case", query: contactsQuery,
				vars: H{"first": 100, "where": H{"nameContainsFold": "cLA"}},
				want: H{"contacts.totalCount": 1, "contacts.edges.*.node.name": []any{"Carol Clark"}}},
			{name: "where emailContainsFold stays in the account", query: contactsQuery,
				vars: H{"first": 100, "where": H{"emailContainsFold": "WONDER.example"}, "orderBy": []any{byName("ASC")}},
				want: H{"contacts.totalCount": 2, "contacts.edges.*.node.email": []any{"alice@wonder.example", "carol@wonder.example"}}},
			{name: "where or", query: contactsQuery,
				vars: H{"first": 100, "where": H{"or": []any{H{"nameContainsFold": "bob"}, H{"emailContainsFold": "evil"}}}, "orderBy": []any{byName("ASC")}},
				want: H{"contacts.totalCount": 2, "contacts.edges.*.node.name": []any{"Bob Brown", "Eve Evans"}}},
			{name: "where emailIsNil", query: contactsQuery,
				vars: H{"first": 100, "where": H{"emailIsNil": true}},
				want: H{"contacts.totalCount": 1, "contacts.edges.*.node.name": []any{"Dave Davis"}}},
			{name: "where idIn with B's ids finds nothing", query: contactsQuery,
				vars: H{"first": 100, "where": H{"idIn": []any{w.Mallory, w.BAlice}}},
				want: H{"contacts.totalCount": 0, "contacts.edges": []any{}}},
			{name: "where hasContactInboxesWith B's inbox finds nothing", query: contactsQuery,
				vars: H{"first": 100, "where": H{"hasContactInboxesWith": []any{H{"inboxID": w.BInbox}}}},
				want: H{"contacts.totalCount": 0}},
			{name: "B's administrator sees only B's contacts", token: w.BAdmin, query: contactsQuery,
				vars: H{"first": 100, "orderBy": []any{byName("ASC")}},
				want: H{"contacts.totalCount": 2, "contacts.edges.*.node.name": []any{"Alice Anders (Rival)", "Mallory Mole"}}},
			{name: "a bad cursor is the caller's mistake", query: contactsQuery, vars: H{"first": 1, "after": "not-a-cursor"},
				code: "BAD_USER_INPUT", attrs: []string{"after"}},
			{name: "a bad time in where is the caller's mistake", query: contactsQuery,
				vars: H{"first": 100, "where": H{"createdAtGT": "yesterday"}}, code: "BAD_USER_INPUT", attrs: []string{"createdAtGT"}},
			{name: "first and last together", query: contactsQuery, vars: H{"first": 1, "last": 1}, code: "BAD_USER_INPUT"},
			{name: "negative first", query: contactsQuery, vars: H{"first": -1}, code: "BAD_USER_INPUT"},
			{name: "a page over 100 is refused", query: contactsQuery, vars: H{"first": 101}, code: "BAD_USER_INPUT"},
			{name: "nested unbounded connections exceed the complexity limit",
				query:  `{ contacts(first: 100) { edges { node { id contactInboxes { inbox { id members { user { id } } } } } } } conversations(first: 100) { edges { node { messages(first: 100) { edges { node { id conversation { messages(first: 100) { edges { node { id } } } } } } } } } } }`,
				status: http.StatusUnprocessableEntity, code: "QUERY_TOO_COMPLEX"},
			// Issue 10: every connection is paged (before, a missing first
			// meant 100 at the top and everything below).
			{name: "a connection without first or last is refused", query: contactsQuery, code: "BAD_USER_INPUT", attrs: []string{"first"}},
			{name: "a nested connection without first or last is refused",
				query: `{ conversations(first: 10) { edges { node { messages { totalCount } } } } }`, code: "BAD_USER_INPUT", attrs: []string{"first"}},
			{name: "unknown order field", query: contactsQuery, vars: H{"orderBy": []any{H{"field": "SHOE_SIZE"}}},
				code: "GRAPHQL_VALIDATION_FAILED", status: http.StatusUnprocessableEntity},
		})
	})
}

const contactQuery = `query($id: ID!) { contact(id: $id) {
	id accountID name email phoneNumber identifier labels additionalAttributes customAttributes
	contactInboxes { sourceID inbox { id name channelType } }
} }`

const searchQuery = `query($q: String!, $sort: String, $page: Int) {
	searchContacts(q: $q, sort: $sort, page: $page) { totalCount page hasMore nodes { id name } } }`

const filterQuery = `query($c: [FilterConditionInput!]!, $page: Int) {
	filterContacts(conditions: $c, page: $page) { totalCount page hasMore nodes { name } } }`

func TestGraphQLContactQueries(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		w.run(t, []gqlCase{
			{name: "contact by id with its contact inboxes", query: contactQuery, vars: H{"id": w.Alice},
				want: H{"contact.id": gid("Contact", w.Alice), "contact.accountID": gid("Account", w.Account), "contact.name": "Alice Anders",
					"contact.email": "alice@wonder.example", "contact.phoneNumber": "+15550000001",
					"contact.identifier": "cust-001", "contact.labels": []any{},
					"contact.contactInboxes.#":                   1,
					"contact.contactInboxes.0.inbox.name":        "API",
					"contact.contactInboxes.0.inbox.id":          gid("Inbox", w.APIInbox),
					"contact.contactInboxes.0.sourceID":          nonEmpty,
					"contact.contactInboxes.0.inbox.channelType": "api"}},
			{name: "contact id as a number literal", query: fmt.Sprintf(`{ contact(id: %d) { name } }`, w.Bob),
				want: H{"contact.name": "Bob Brown"}},
			{name: "missing contact", query: contactQuery, vars: H{"id": 999999}, code: "NOT_FOUND",
				check: func(t *testing.T, r *gqlResp) {
					if r.Data != nil {
						if c, _ := lookup(r.Data, "contact"); c != nil {
							t.Errorf("want no contact, got %v", c)
						}
					}
					if fmt.Sprint(r.Errors[0].Path) != "[contact]" {
						t.Errorf("want error path [contact], got %v", r.Errors[0].Path)
					}
				}},
			{name: "search by name fragment", query: searchQuery, vars: H{"q": "ANDERS"},
				want: H{"searchContacts.totalCount": 1, "searchContacts.nodes.*.name": []any{"Alice Anders"},
					"searchContacts.page": 1, "searchContacts.hasMore": false}},
			{name: "search by e-mail domain stays in the account", query: searchQuery, vars: H{"q": "wonder", "sort": "name"},
				want: H{"searchContacts.totalCount": 2, "searchContacts.nodes.*.name": []any{"Alice Anders", "Carol Clark"}}},
			{name: "search sorted descending", query: searchQuery, vars: H{"q": "wonder", "sort": "-name"},
				want: H{"searchContacts.nodes.*.name": []any{"Carol Clark", "Alice Anders"}}},
			{name: "search by phone digits", query: searchQuery, vars: H{"q": "5550000", "sort": "name"},
				want: H{"searchContacts.nodes.*.name": []any{"Alice Anders", "Bob Brown"}}},
			{name: "search by identifier", query: searchQuery, vars: H{"q": "CUST-0"},
				want: H{"searchContacts.nodes.*.name": []any{"Alice Anders"}}},
			{name: "search page 2 is empty", query: searchQuery, vars: H{"q": "e", "page": 2},
				want: H{"searchContacts.nodes": []any{}, "searchContacts.page": 2, "searchContacts.hasMore": false}},
			{name: "search with blank q", query: searchQuery, vars: H{"q": "   "}, code: "BAD_USER_INPUT", attrs: []string{"q"}},
			{name: "search with unknown sort", query: searchQuery, vars: H{"q": "a", "sort": "shoe_size"},
				code: "BAD_USER_INPUT", attrs: []string{"sort"}},
			{name: "search never finds B's contacts", query: searchQuery, vars: H{"q": "mallory"},
				want: H{"searchContacts.totalCount": 0, "searchContacts.nodes": []any{}}},
			{name: "filter name contains", query: filterQuery,
				vars: H{"c": []any{H{"attributeKey": "name", "filterOperator": "contains", "values": []any{"ar"}}}},
				want: H{"filterContacts.nodes.*.name": sameItems("Carol Clark")}},
			{name: "filter AND binds tighter than OR", query: filterQuery,
				vars: H{"c": []any{
					H{"attributeKey": "email", "filterOperator": "contains", "values": []any{"wonder"}, "queryOperator": "AND"},
					H{"attributeKey": "name", "filterOperator": "contains", "values": []any{"carol"}, "queryOperator": "OR"},
					H{"attributeKey": "phone_number", "filterOperator": "starts_with", "values": []any{"+44"}},
				}},
				want: H{"filterContacts.nodes.*.name": sameItems("Carol Clark", "Dave Davis"), "filterContacts.totalCount": 2}},
			{name: "filter never finds B's contacts", query: filterQuery,
				vars: H{"c": []any{H{"attributeKey": "email", "filterOperator": "contains", "values": []any{"mallory"}}}},
				want: H{"filterContacts.totalCount": 0}},
			{name: "filter with an unknown key", query: filterQuery,
				vars: H{"c": []any{H{"attributeKey": "shoe_size", "filterOperator": "equal_to", "values": []any{"42"}}}},
				code: "BAD_USER_INPUT", attrs: []string{"attribute_key"}},
			{name: "filter with an operator the key does not allow", query: filterQuery,
				vars: H{"c": []any{H{"attributeKey": "identifier", "filterOperator": "contains", "values": []any{"x"}}}},
				code: "BAD_USER_INPUT", attrs: []string{"filter_operator"}},
			{name: "filter with a bad query operator", query: filterQuery,
				vars: H{"c": []any{H{"attributeKey": "name", "filterOperator": "contains", "values": []any{"a"}, "queryOperator": "XOR"}}},
				code: "BAD_USER_INPUT", attrs: []string{"query_operator"}},
			{name: "filter without conditions", query: filterQuery, vars: H{"c": []any{}},
				code: "BAD_USER_INPUT", attrs: []string{"payload"}},
			{name: "contactable inboxes", query: `query($id: ID!) { contactableInboxes(contactID: $id) { sourceID inbox { name } } }`,
				vars: H{"id": w.Alice},
				want: H{"contactableInboxes.*.inbox.name": []any{"API", "Support Mail"},
					"contactableInboxes.0.sourceID": nonEmpty,
					"contactableInboxes.1.sourceID": "alice@wonder.example"}},
			{name: "contactable inboxes of a contact without e-mail", query: `query($id: ID!) { contactableInboxes(contactID: $id) { inbox { name } } }`,
				vars: H{"id": w.Dave},
				want: H{"contactableInboxes.*.inbox.name": []any{"API"}}},
			{name: "contactable inboxes of B's contact", query: `query($id: ID!) { contactableInboxes(contactID: $id) { inbox { name } } }`,
				vars: H{"id": w.Mallory}, code: "NOT_FOUND"},
			{name: "inboxes", query: `{ inboxes(first: 10) { edges { node { id name channelType } } } }`,
				want: H{"inboxes.edges.*.node.name": []any{"API", "Support Mail"}, "inboxes.edges.*.node.channelType": []any{"api", "email"},
					"inboxes.edges.0.node.id": gid("Inbox", w.APIInbox)}},
			{name: "inbox by id", query: `query($id: ID!) { inbox(id: $id) { name } }`, vars: H{"id": w.MailInbox},
				want: H{"inbox.name": "Support Mail"}},
			{name: "B's inbox by id", query: `query($id: ID!) { inbox(id: $id) { name } }`, vars: H{"id": w.BInbox},
				code: "NOT_FOUND"},
			{name: "B sees its own inbox only", token: w.BAdmin, query: `{ inboxes(first: 10) { edges { node { name } } } }`,
				want: H{"inboxes.edges.*.node.name": []any{"Rival API"}}},
			{name: "syntax error", query: `{ contacts { `, code: "GRAPHQL_PARSE_FAILED", status: http.StatusUnprocessableEntity},
			{name: "unknown field", query: `{ contacts { bogus } }`, code: "GRAPHQL_VALIDATION_FAILED", status: http.StatusUnprocessableEntity},
		})
	})
}

const createMutation = `mutation($in: CreateContactInput!) { createContact(input: $in) {
	contact { id name email phoneNumber additionalAttributes customAttributes contactInboxes { sourceID inbox { name } } }
	contactInbox { sourceID inboxID contactID inbox { name } contact { name } } userErrors { field message code } } }`

const updateMutation = `mutation($id: ID!, $in: UpdateContactInput!) { updateContact(id: $id, input: $in) { contact { id name email phoneNumber identifier additionalAttributes customAttributes } userErrors { field message code } } }`

func TestGraphQLContactMutations(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		agent := w.agent(w.Account)
		// a custom attribute definition, so customAttributes keeps "plan"
		w.mustREST("POST", fmt.Sprintf("/api/v1/accounts/%d/custom_attribute_definitions", w.Account), w.Admin, H{
			"attribute_display_name": "Plan", "attribute_key": "plan",
			"attribute_display_type": "text", "attribute_model": "contact_attribute",
		}, http.StatusOK)
		var created, frank, mergee int
		w.run(t, []gqlCase{
			{name: "createContact", query: createMutation,
				vars: H{"in": H{"inboxID": w.APIInbox, "name": "  Zed Zulu ", "email": "ZED@Zulu.Example",
					"phoneNumber": "+15551234567", "additionalAttributes": H{"city": "Oslo"},
					"customAttributes": H{"plan": "gold", "undeclared": 1}}},
				want: H{"createContact.contact.name": "Zed Zulu", "createContact.contact.email": "zed@zulu.example",
					"createContact.contact.additionalAttributes":        H{"city": "Oslo"},
					"createContact.contact.customAttributes":            H{"plan": "gold"},
					"createContact.contactInbox.sourceID":               nonEmpty,
					"createContact.contactInbox.inboxID":                gid("Inbox", w.APIInbox),
					"createContact.contactInbox.inbox.name":             "API",
					"createContact.contactInbox.contact.name":           "Zed Zulu",
					"createContact.contact.contactInboxes.0.inbox.name": "API",
					"createContact.contact.contactInboxes.#":            1},
				check: func(t *testing.T, r *gqlResp) {
					created = atoi(t, mustGet(t, r.Data, "createContact.contact.id"))
					if got := mustGet(t, r.Data, "createContact.contactInbox.contactID"); got != gid("Contact", created) {
						t.Errorf("contactInbox.contactID %v, want %d", got, created)
					}
					if a, b := mustGet(t, r.Data, "createContact.contactInbox.sourceID"),
						mustGet(t, r.Data, "createContact.contact.contactInboxes.0.sourceID"); a != b {
						t.Errorf("payload source ids differ: %v vs %v", a, b)
					}
				}},
			{name: "createContact with a given sourceID", query: createMutation,
				vars: H{"in": H{"inboxID": w.APIInbox, "name": "Frank", "sourceID": "frank-src-1"}},
				want: H{"createContact.contactInbox.sourceID": "frank-src-1"},
				check: func(t *testing.T, r *gqlResp) {
					frank = atoi(t, mustGet(t, r.Data, "createContact.contact.id"))
				}},
			{name: "createContact in an e-mail inbox uses the e-mail as source id", query: createMutation,
				vars: H{"in": H{"inboxID": w.MailInbox, "name": "Gina", "email": "gina@mail.example"}},
				want: H{"createContact.contactInbox.sourceID": "gina@mail.example", "createContact.contactInbox.inbox.name": "Support Mail"}},
			{name: "createContact without inboxID", query: createMutation,
				vars: H{"in": H{"name": "Nobody"}}, code: "INVALID", attrs: []string{"input.inboxID"}},
			{name: "createContact with B's inbox", query: createMutation,
				vars: H{"in": H{"inboxID": w.BInbox, "name": "Sneaky"}}, code: "INVALID", attrs: []string{"input.inboxID"},
				check: func(t *testing.T, r *gqlResp) {
					n, err := w.srv.DB.Client.Contact.Query().Where(contact.Name("Sneaky")).Count(sys())
					if err != nil || n != 0 {
						t.Errorf("contact created anyway: %d, %v", n, err)
					}
				}},
			{name: "createContact with attributes that are not an object", query: createMutation,
				vars: H{"in": H{"inboxID": w.APIInbox, "name": "Odd", "additionalAttributes": 5}},
				code: "BAD_USER_INPUT", attrs: []string{"additionalAttributes"}},
			{name: "createContact with a missing inbox", query: createMutation,
				vars: H{"in": H{"inboxID": 999999, "name": "Nobody"}}, code: "INVALID", attrs: []string{"input.inboxID"}},
			{name: "createContact with a taken e-mail (any case)", query: createMutation,
				vars: H{"in": H{"inboxID": w.APIInbox, "name": "Alice 2", "email": "Alice@WONDER.example"}},
				code: "INVALID", attrs: []string{"input.email"}},
			{name: "createContact with a bad e-mail and a bad phone", query: createMutation,
				vars: H{"in": H{"inboxID": w.APIInbox, "email": "not-an-email", "phoneNumber": "555-1234"}},
				code: "INVALID", attrs: []string{"input.email", "input.phoneNumber"}},
			{name: "createContact with a taken phone", query: createMutation,
				vars: H{"in": H{"inboxID": w.APIInbox, "phoneNumber": "+15550000002"}},
				code: "INVALID", attrs: []string{"input.phoneNumber"}},
			{name: "createContact with a taken identifier", query: createMutation,
				vars: H{"in": H{"inboxID": w.APIInbox, "identifier": "cust-001"}},
				code: "INVALID", attrs: []string{"input.identifier"}, events: []events.Kind{}},
			{name: "createContact by an agent", token: agent, query: createMutation,
				vars: H{"in": H{"inboxID": w.APIInbox, "name": "Agent Made"}},
				want: H{"createContact.contact.name": "Agent Made"}, events: []events.Kind{events.ContactCreated}},
			{name: "updateContact merges attributes", query: updateMutation,
				vars: H{"id": lazy(func() any { return created }), "in": H{
					"name": "Zed Z.", "additionalAttributes": H{"company": "Zulu Inc"},
					"customAttributes": H{"undeclared": "x"}}},
				want: H{"updateContact.contact.name": "Zed Z.", "updateContact.contact.email": "zed@zulu.example",
					"updateContact.contact.additionalAttributes": H{"city": "Oslo", "company": "Zulu Inc"},
					"updateContact.contact.customAttributes":     H{"plan": "gold"}}, events: []events.Kind{events.ContactUpdated}},
			{name: "updateContact removes a key set to null and clears a blank e-mail", query: updateMutation,
				vars: H{"id": lazy(func() any { return created }), "in": H{
					"email": "", "additionalAttributes": H{"city": nil}, "customAttributes": H{"plan": "silver"}}},
				want: H{"updateContact.contact.name": "Zed Z.", "updateContact.contact.email": nil, "updateContact.contact.phoneNumber": "+15551234567",
					"updateContact.contact.additionalAttributes": H{"company": "Zulu Inc"},
					"updateContact.contact.customAttributes":     H{"plan": "silver"}}},
			{name: "updateContact to a taken e-mail", query: updateMutation,
				vars: H{"id": lazy(func() any { return created }), "in": H{"email": "BOB@builders.example"}},
				code: "INVALID", attrs: []string{"input.email"}},
			{name: "updateContact keeping its own e-mail", query: updateMutation,
				vars: H{"id": w.Bob, "in": H{"email": "bob@builders.example", "name": "Bob Brown"}},
				want: H{"updateContact.contact.email": "bob@builders.example"}},
			{name: "updateContact of a missing contact", query: updateMutation,
				vars: H{"id": 999999, "in": H{"name": "x"}}, code: "NOT_FOUND"},
			{name: "updateContact by an agent", token: agent, query: updateMutation,
				vars: H{"id": w.Eve, "in": H{"identifier": "eve-1"}},
				want: H{"updateContact.contact.identifier": "eve-1"}},
			{name: "setContactLabels replaces the set", query: `mutation($id: ID!, $l: [String!]!) { setContactLabels(id: $id, labels: $l) { labels userErrors { field message code } } }`,
				vars: H{"id": w.Carol, "l": []any{"vip", " lead ", "vip", ""}},
				want: H{"setContactLabels.labels": []any{"vip", "lead"}},
				check: func(t *testing.T, r *gqlResp) {
					got := w.gql(gqlReq{query: contactQuery, vars: H{"id": w.Carol}})
					if l, _ := lookup(got.Data, "contact.labels"); !reflect.DeepEqual(l, []any{"vip", "lead"}) {
						t.Errorf("stored labels %v", l)
					}
				}},
			{name: "setContactLabels again", query: `mutation($id: ID!, $l: [String!]!) { setContactLabels(id: $id, labels: $l) { labels userErrors { field message code } } }`,
				vars: H{"id": w.Carol, "l": []any{"churned"}}, want: H{"setContactLabels.labels": []any{"churned"}}},
			{name: "setContactLabels to none", query: `mutation($id: ID!, $l: [String!]!) { setContactLabels(id: $id, labels: $l) { labels userErrors { field message code } } }`,
				vars: H{"id": w.Carol, "l": []any{}}, want: H{"setContactLabels.labels": []any{}}},
			{name: "setContactLabels of a missing contact", query: `mutation($id: ID!, $l: [String!]!) { setContactLabels(id: $id, labels: $l) { labels userErrors { field message code } } }`,
				vars: H{"id": 999999, "l": []any{"x"}}, code: "NOT_FOUND"},
			{name: "createContactInbox", query: `mutation($c: ID!, $i: ID!) { createContactInbox(contactID: $c, inboxID: $i) { contactInbox { sourceID contactID inbox { name } contact { name contactInboxes { inbox { name } } } } userErrors { field message code } } }`,
				vars: H{"c": w.Alice, "i": w.MailInbox},
				want: H{"createContactInbox.contactInbox.sourceID": "alice@wonder.example", "createContactInbox.contactInbox.contactID": gid("Contact", w.Alice),
					"createContactInbox.contactInbox.inbox.name": "Support Mail", "createContactInbox.contactInbox.contact.name": "Alice Anders",
					"createContactInbox.contactInbox.contact.contactInboxes.*.inbox.name": []any{"API", "Support Mail"}}},
			{name: "createContactInbox again in the same API inbox gets a new source id", query: `mutation($c: ID!, $i: ID!) {
					createContactInbox(contactID: $c, inboxID: $i) { contactInbox { sourceID } userErrors { field message code } } }`,
				vars: H{"c": w.Alice, "i": w.APIInbox}, want: H{"createContactInbox.contactInbox.sourceID": nonEmpty},
				check: func(t *testing.T, r *gqlResp) {
					n, err := w.srv.DB.Client.ContactInbox.Query().
						Where(contactinbox.ContactID(w.Alice), contactinbox.InboxID(w.APIInbox)).Count(sys())
					if err != nil || n != 2 {
						t.Errorf("want 2 contact inboxes of Alice in API, got %d (%v)", n, err)
					}
				}},
			{name: "createContactInbox with a taken source id", query: `mutation($c: ID!, $i: ID!, $s: String) {
					createContactInbox(contactID: $c, inboxID: $i, sourceID: $s) { contactInbox { sourceID } userErrors { field message code } } }`,
				vars: H{"c": w.Bob, "i": w.APIInbox, "s": "frank-src-1"}, code: "INVALID", attrs: []string{"sourceID"}},
			{name: "createContactInbox with an e-mail inbox for a contact without e-mail", query: `mutation($c: ID!, $i: ID!) {
					createContactInbox(contactID: $c, inboxID: $i) { contactInbox { sourceID } userErrors { field message code } } }`,
				vars: H{"c": w.Dave, "i": w.MailInbox}, code: "INVALID", attrs: []string{""}},
			{name: "createContactInbox with B's inbox", query: `mutation($c: ID!, $i: ID!) {
					createContactInbox(contactID: $c, inboxID: $i) { contactInbox { sourceID } userErrors { field message code } } }`,
				vars: H{"c": w.Bob, "i": w.BInbox}, code: "INVALID", attrs: []string{"inboxID"}},
			{name: "seed a mergee", query: createMutation,
				vars: H{"in": H{"inboxID": w.MailInbox, "name": "", "email": "dave.d@mail.example", "identifier": "dd-7",
					"additionalAttributes": H{"city": "Leeds"}}},
				check: func(t *testing.T, r *gqlResp) {
					mergee = atoi(t, mustGet(t, r.Data, "createContact.contact.id"))
					if _, err := w.srv.Svc.SetContactLabels(viewer.NewContext(context.Background(), viewer.Viewer{
						UserID: w.AdminID, AccountID: w.Account, Role: viewer.RoleAdministrator}), mergee, []string{"from-mail"}); err != nil {
						t.Fatal(err)
					}
				}},
			{name: "mergeContacts into itself", query: `mutation($b: ID!, $m: ID!) { mergeContacts(baseContactID: $b, mergeeContactID: $m) { contact { id } userErrors { field message code } } }`,
				vars: H{"b": w.Dave, "m": w.Dave}, code: "INVALID", attrs: []string{"mergeeContactID"}},
			{name: "mergeContacts by an agent", token: agent,
				query: `mutation($b: ID!, $m: ID!) { mergeContacts(baseContactID: $b, mergeeContactID: $m) { contact { id name email phoneNumber identifier labels additionalAttributes contactInboxes { inbox { name } } } userErrors { field message code } } }`,
				vars:  H{"b": w.Dave, "m": lazy(func() any { return mergee })},
				want: H{"mergeContacts.contact.id": gid("Contact", w.Dave), "mergeContacts.contact.name": "Dave Davis",
					"mergeContacts.contact.email": "dave.d@mail.example", "mergeContacts.contact.phoneNumber": "+442000000000",
					"mergeContacts.contact.identifier": "dd-7", "mergeContacts.contact.labels": []any{"from-mail"},
					"mergeContacts.contact.additionalAttributes":        H{"city": "Leeds"},
					"mergeContacts.contact.contactInboxes.*.inbox.name": sameItems("API", "Support Mail")},
				check: func(t *testing.T, r *gqlResp) {
					got := w.gql(gqlReq{query: contactQuery, vars: H{"id": mergee}})
					if got.code() != "NOT_FOUND" {
						t.Errorf("mergee still there: %s", got)
					}
				}},
			{name: "mergeContacts with a missing mergee", query: `mutation($b: ID!, $m: ID!) { mergeContacts(baseContactID: $b, mergeeContactID: $m) { contact { id } userErrors { field message code } } }`,
				vars: H{"b": w.Dave, "m": 999999}, code: "NOT_FOUND"},
			{name: "deleteContact by an agent is forbidden", token: agent, query: `mutation($id: ID!) { deleteContact(id: $id) { deletedId userErrors { field message code } } }`,
				vars: H{"id": lazy(func() any { return frank })}, code: "FORBIDDEN",
				check: func(t *testing.T, r *gqlResp) {
					if _, err := w.srv.DB.Client.Contact.Get(sys(), frank); err != nil {
						t.Errorf("contact gone after a forbidden delete: %v", err)
					}
				}},
			{name: "deleteContact of a missing contact by an agent is forbidden first", token: agent,
				query: `mutation { deleteContact(id: 999999) { deletedId userErrors { field message code } } }`, code: "FORBIDDEN"},
			{name: "deleteContact by the administrator", query: `mutation($id: ID!) { deleteContact(id: $id) { deletedId userErrors { field message code } } }`,
				vars: H{"id": lazy(func() any { return frank })}, want: H{"deleteContact.deletedId": lazy(func() any { return gid("Contact", frank) })}},
			{name: "the deleted contact is gone", query: contactQuery,
				vars: H{"id": lazy(func() any { return frank })}, code: "NOT_FOUND"},
			{name: "deleteContact again", query: `mutation($id: ID!) { deleteContact(id: $id) { deletedId userErrors { field message code } } }`,
				vars: H{"id": lazy(func() any { return frank })}, code: "NOT_FOUND"},
		})
	})
}

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

// TestGraphQLTenancy: nothing of account B is visible or writable with A's
// token, and a refused write changes nothing.
func TestGraphQLTenancy(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		if _, err := w.srv.Svc.SetContactLabels(sys(), w.Mallory, []string{"rival"}); err != nil {
			t.Fatal(err)
		}
		type snapshot struct {
			Name, Email string
			Labels      []string
			Inboxes     int
		}
		snap := func(id int) snapshot {
			ct, err := w.srv.DB.Client.Contact.Query().Where(contact.ID(id)).WithContactInboxes().Only(sys())
			if err != nil {
				t.Fatalf("B's contact %d: %v", id, err)
			}
			return snapshot{ct.Name, *ct.Email, ct.Labels, len(ct.Edges.ContactInboxes)}
		}
		before := snap(w.Mallory)
		unchanged := func(t *testing.T, r *gqlResp) {
			if after := snap(w.Mallory); !reflect.DeepEqual(after, before) {
				t.Errorf("B's contact changed: %+v → %+v", before, after)
			}
			if n, _ := w.srv.DB.Client.Contact.Query().Count(sys()); n != 7 {
				t.Errorf("want 7 contacts in all, got %d", n)
			}
		}
		w.run(t, []gqlCase{
			{name: "contact of B", query: contactQuery, vars: H{"id": w.Mallory}, code: "NOT_FOUND"},
			{name: "contact of B looks like a missing one", query: contactQuery, vars: H{"id": w.Mallory},
				code: "NOT_FOUND", check: func(t *testing.T, r *gqlResp) {
					missing := w.gql(gqlReq{query: contactQuery, vars: H{"id": 999999}})
					if r.Errors[0].Message != missing.Errors[0].Message {
						t.Errorf("B's contact %q vs missing %q", r.Errors[0].Message, missing.Errors[0].Message)
					}
				}},
			{name: "connection never lists B's contacts", query: `{ contacts(first: 100) { totalCount edges { node { id accountID } } } }`,
				want: H{"contacts.totalCount": 5},
				check: func(t *testing.T, r *gqlResp) {
					ids, _ := lookup(r.Data, "contacts.edges.*.node.id")
					for _, x := range ids.([]any) {
						if x == gid("Contact", w.Mallory) || x == gid("Contact", w.BAlice) {
							t.Errorf("B's contact %v listed", x)
						}
					}
					accts, _ := lookup(r.Data, "contacts.edges.*.node.accountID")
					for _, x := range accts.([]any) {
						if x != gid("Account", w.Account) {
							t.Errorf("contact of account %v listed", x)
						}
					}
				}},
			{name: "contact inboxes of A's contacts do not reach B's", query: contactQuery, vars: H{"id": w.Alice},
				want: H{"contact.contactInboxes.*.inbox.name": []any{"API"}}},
			{name: "updateContact of B's contact", query: updateMutation,
				vars: H{"id": w.Mallory, "in": H{"name": "Pwned", "email": "pwned@a.example"}}, code: "NOT_FOUND", check: unchanged},
			{name: "setContactLabels of B's contact", query: `mutation($id: ID!) { setContactLabels(id: $id, labels: ["pwned"]) { labels userErrors { field message code } } }`,
				vars: H{"id": w.Mallory}, code: "NOT_FOUND", check: unchanged},
			{name: "deleteContact of B's contact", query: `mutation($id: ID!) { deleteContact(id: $id) { deletedId userErrors { field message code } } }`,
				vars: H{"id": w.Mallory}, code: "NOT_FOUND", check: unchanged},
			{name: "createContactInbox for B's contact", query: `mutation($c: ID!, $i: ID!) { createContactInbox(contactID: $c, inboxID: $i) { contactInbox { sourceID } userErrors { field message code } } }`,
				vars: H{"c": w.Mallory, "i": w.APIInbox}, code: "NOT_FOUND", check: unchanged},
			{name: "mergeContacts with B's contact as mergee", query: `mutation($b: ID!, $m: ID!) { mergeContacts(baseContactID: $b, mergeeContactID: $m) { contact { id } userErrors { field message code } } }`,
				vars: H{"b": w.Bob, "m": w.Mallory}, code: "NOT_FOUND", check: unchanged},
			{name: "mergeContacts with B's contact as base", query: `mutation($b: ID!, $m: ID!) { mergeContacts(baseContactID: $b, mergeeContactID: $m) { contact { id } userErrors { field message code } } }`,
				vars: H{"b": w.Mallory, "m": w.Bob}, code: "NOT_FOUND", check: func(t *testing.T, r *gqlResp) {
					unchanged(t, r)
					if _, err := w.srv.DB.Client.Contact.Get(sys(), w.Bob); err != nil {
						t.Errorf("A's mergee gone: %v", err)
					}
				}},
			{name: "createContact with B's contact's e-mail is fine in A", query: createMutation,
				vars: H{"in": H{"inboxID": w.APIInbox, "name": "Mallory Twin", "email": "mallory@wonder.example"}},
				want: H{"createContact.contact.email": "mallory@wonder.example"}},
			{name: "B still sees its contact intact", token: w.BAdmin, query: contactQuery, vars: H{"id": w.Mallory},
				want: H{"contact.name": "Mallory Mole", "contact.labels": []any{"rival"}, "contact.email": "mallory@wonder.example"}},
		})
	})
}

// TestSameRuleBothTransports: a business rule gives the same answer over
// REST (422 with attributes) and GraphQL (BAD_USER_INPUT with attributes),
// and the same not-found and forbidden answers.
func TestSameRuleBothTransports(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		agent := w.agent(w.Account)
		contacts := fmt.Sprintf("/api/v1/accounts/%d/contacts", w.Account)
		cases := []struct {
			name       string
			token      string
			restMethod string
			restPath   string
			restBody   any
			query      string
			vars       H
			status     int
			code       string
			attrs      []string // REST's attributes
			fields     []string // the GraphQL user errors' input paths
		}{
			{name: "duplicate e-mail", restMethod: "POST", restPath: contacts,
				restBody: H{"inbox_id": w.APIInbox, "name": "Dup", "email": "ALICE@wonder.example"},
				query:    createMutation, vars: H{"in": H{"inboxID": w.APIInbox, "name": "Dup", "email": "ALICE@wonder.example"}},
				status: 422, code: "INVALID", attrs: []string{"email"}, fields: []string{"input.email"}},
			{name: "duplicate e-mail on update", restMethod: "PATCH", restPath: fmt.Sprintf("%s/%d", contacts, w.Bob),
				restBody: H{"email": "carol@wonder.example"},
				query:    updateMutation, vars: H{"id": w.Bob, "in": H{"email": "carol@wonder.example"}},
				status: 422, code: "INVALID", attrs: []string{"email"}, fields: []string{"input.email"}},
			{name: "phone not E.164", restMethod: "POST", restPath: contacts,
				restBody: H{"inbox_id": w.APIInbox, "phone_number": "0044 20"},
				query:    createMutation, vars: H{"in": H{"inboxID": w.APIInbox, "phoneNumber": "0044 20"}},
				status: 422, code: "INVALID", attrs: []string{"phone_number"}, fields: []string{"input.phoneNumber"}},
			{name: "missing inbox", restMethod: "POST", restPath: contacts,
				restBody: H{"name": "No Inbox"},
				query:    createMutation, vars: H{"in": H{"name": "No Inbox"}},
				status: 422, code: "INVALID", attrs: []string{"inbox_id"}, fields: []string{"input.inboxID"}},
			{name: "another account's inbox", restMethod: "POST", restPath: contacts,
				restBody: H{"inbox_id": w.BInbox, "name": "Cross"},
				query:    createMutation, vars: H{"in": H{"inboxID": w.BInbox, "name": "Cross"}},
				status: 422, code: "INVALID", attrs: []string{"inbox_id"}, fields: []string{"input.inboxID"}},
			{name: "blank search", restMethod: "GET", restPath: contacts + "/search?q=%20",
				query: searchQuery, vars: H{"q": " "},
				status: 422, code: "BAD_USER_INPUT", attrs: []string{"q"}},
			{name: "unknown filter key", restMethod: "POST", restPath: contacts + "/filter",
				restBody: H{"payload": []any{H{"attribute_key": "shoe", "filter_operator": "equal_to", "values": []any{"1"}}}},
				query:    filterQuery, vars: H{"c": []any{H{"attributeKey": "shoe", "filterOperator": "equal_to", "values": []any{"1"}}}},
				status: 422, code: "BAD_USER_INPUT", attrs: []string{"attribute_key"}},
			{name: "another account's contact", restMethod: "GET", restPath: fmt.Sprintf("%s/%d", contacts, w.Mallory),
				query: contactQuery, vars: H{"id": w.Mallory}, status: 404, code: "NOT_FOUND"},
			{name: "agent deletes", token: agent, restMethod: "DELETE", restPath: fmt.Sprintf("%s/%d", contacts, w.Eve),
				query: `mutation($id: ID!) { deleteContact(id: $id) { deletedId userErrors { field message code } } }`, vars: H{"id": w.Eve}, status: 403, code: "FORBIDDEN"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				w.t = t
				status, body := w.rest(c.restMethod, c.restPath, c.token, c.restBody)
				if status != c.status {
					t.Errorf("REST: want %d, got %d %v", c.status, status, body)
				}
				if msg, _ := lookup(body, "error"); msg == nil || msg == "" {
					t.Errorf("REST: no error sentence in %v", body)
				}
				r := w.gql(gqlReq{token: c.token, query: c.query, vars: c.vars})
				if r.Status != http.StatusOK || r.code() != c.code {
					t.Fatalf("GraphQL: want %s, got %s", c.code, r)
				}
				if c.attrs != nil {
					restAttrs := []string{}
					if l, ok := lookup(body, "attributes"); ok {
						for _, x := range l.([]any) {
							restAttrs = append(restAttrs, fmt.Sprint(x))
						}
					}
					if !reflect.DeepEqual(restAttrs, c.attrs) {
						t.Errorf("REST attributes %v, want %v", restAttrs, c.attrs)
					}
					wantGQL := c.attrs
					if c.fields != nil {
						wantGQL = c.fields
					}
					if got := r.attrs(); !reflect.DeepEqual(got, wantGQL) {
						t.Errorf("GraphQL attributes %v, want %v", got, wantGQL)
					}
					if m, _ := lookup(body, "message"); m != gqlMessage(r) {
						t.Errorf("messages differ: REST %q, GraphQL %q", m, gqlMessage(r))
					}
				}
			})
		}
		// Nothing above was created.
		if n, _ := w.srv.DB.Client.Contact.Query().Count(sys()); n != 7 {
			t.Errorf("want 7 contacts in all, got %d", n)
		}
	})
}

// ---- uploads ----

// upload is a file part of a multipart GraphQL request, for the variable at
// path (e.g. "variables.files.0").
type upload struct {
	path, name, contentType string
	data                    []byte
}

// gqlMultipart sends an operation as graphql-multipart-request-spec says:
// an "operations" part (the variables hold null where files go), a "map"
// part from file part names to variable paths, then the file parts.
func (a *app) gqlMultipart(token, query string, vars H, files []upload) *gqlResp {
	a.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	ops, err := json.Marshal(H{"query": query, "variables": vars})
	if err != nil {
		a.t.Fatal(err)
	}
	fileMap := map[string][]string{}
	for i, f := range files {
		fileMap[strconv.Itoa(i)] = []string{f.path}
	}
	mapJSON, err := json.Marshal(fileMap)
	if err != nil {
		a.t.Fatal(err)
	}
	must(a.t, w.WriteField("operations", string(ops)))
	must(a.t, w.WriteField("map", string(mapJSON)))
	for i, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%d"; filename=%q`, i, f.name))
		h.Set("Content-Type", f.contentType)
		part, err := w.CreatePart(h)
		must(a.t, err)
		_, err = part.Write(f.data)
		must(a.t, err)
	}
	must(a.t, w.Close())
	req := httptest.NewRequest("POST", "/graphql", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	setToken(req, a, token)
	return a.send(req)
}

// download GETs a path of the app (token as in gqlReq) and returns the
// status, the content type and the raw body.
func (a *app) download(path, token string) (int, string, []byte) {
	a.t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	setToken(req, a, token)
	res, err := a.srv.App.Test(req, -1)
	if err != nil {
		a.t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), body
}

const createMessageWithFiles = `mutation($conv: Int!, $in: MessageInput!, $files: [Upload!]) {
	createMessage(conversationDisplayID: $conv, input: $in, attachments: $files) { message { id content private status attachments { fileName fileType contentType fileSize dataURL } } userErrors { field message code } }
}`

func TestGraphQLCreateMessageWithUploads(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		const limit = 1024
		a := newAppWith(t, e, server.Config{Channels: acceptAll{}, MaxFileSize: limit})
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		conv := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin,
			H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id").(float64))
		png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0, 1, 2, 3}, 40)...)
		text := []byte("order 42: two items\n")

		r := a.gqlMultipart("", createMessageWithFiles,
			H{"conv": conv, "in": H{"content": "see attached"}, "files": []any{nil, nil}},
			[]upload{
				{"variables.files.0", "photo.png", "image/png", png},
				{"variables.files.1", "order.txt", "text/plain", text},
			})
		if r.Status != http.StatusOK || len(r.Errors) > 0 {
			t.Fatalf("createMessage with two files: %s", r)
		}
		if got := mustGet(t, r.Data, "createMessage.message.content"); got != "see attached" {
			t.Errorf("createMessage answered content %v", got)
		}
		msgID := atoi(t, mustGet(t, r.Data, "createMessage.message.id"))
		for i, name := range []string{"photo.png", "order.txt"} {
			p := fmt.Sprintf("createMessage.message.attachments.%d.", i)
			if got := mustGet(t, r.Data, p+"fileName"); got != name {
				t.Errorf("GraphQL attachment %d is %v, want %s", i, got, name)
			}
			status, _, body := a.download(mustGet(t, r.Data, p+"dataURL").(string), noToken)
			if want := map[int][]byte{0: png, 1: text}[i]; status != http.StatusOK || !bytes.Equal(body, want) {
				t.Errorf("GraphQL dataURL of %s: %d, %d bytes; want 200 and the uploaded file", name, status, len(body))
			}
		}

		// The files are on the message, as REST lists it.
		list := a.mustREST("GET", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, nil, http.StatusOK)
		var msg any
		for _, m := range mustGet(t, list, "payload").([]any) {
			if atoi(t, mustGet(t, m, "id")) == msgID {
				msg = m
			}
		}
		if msg == nil {
			t.Fatalf("message %d is not in the conversation's list: %v", msgID, list)
		}
		atts, _ := mustGet(t, msg, "attachments").([]any)
		if len(atts) != 2 {
			t.Fatalf("the message lists %d attachments, want 2: %v", len(atts), msg)
		}
		want := []struct {
			name, fileType, contentType string
			data                        []byte
		}{{"photo.png", "image", "image/png", png}, {"order.txt", "file", "text/plain", text}}
		for i, w := range want {
			at := atts[i]
			if got := mustGet(t, at, "file_name"); got != w.name {
				t.Errorf("attachment %d is %v, want %s", i, got, w.name)
			}
			if got := mustGet(t, at, "file_type"); got != w.fileType {
				t.Errorf("%s: file_type %v, want %s", w.name, got, w.fileType)
			}
			if got := mustGet(t, at, "content_type"); got != w.contentType {
				t.Errorf("%s: content_type %v, want %s", w.name, got, w.contentType)
			}
			if got := mustGet(t, at, "file_size"); got != float64(len(w.data)) {
				t.Errorf("%s: file_size %v, want %d", w.name, got, len(w.data))
			}
			if got := mustGet(t, at, "message_id"); got != float64(msgID) {
				t.Errorf("%s: message_id %v, want %d", w.name, got, msgID)
			}
			attID := atoi(t, mustGet(t, at, "id"))
			plain := fmt.Sprintf("%s/attachments/%d", base, attID)
			// With the API token.
			status, ctype, body := a.download(plain, "")
			if status != http.StatusOK || !bytes.Equal(body, w.data) || !strings.HasPrefix(ctype, w.contentType) {
				t.Errorf("GET %s with the token: %d %s, %d bytes, want 200 %s with the uploaded bytes", plain, status, ctype, len(body), w.contentType)
			}
			// Without a token nor a signature: refused.
			if status, _, _ := a.download(plain, noToken); status != http.StatusUnauthorized {
				t.Errorf("GET %s without a token: %d, want 401", plain, status)
			}
			// data_url carries a signature that works without the token.
			dataURL, _ := mustGet(t, at, "data_url").(string)
			u, err := url.Parse(dataURL)
			if err != nil || u.Query().Get("sig") == "" {
				t.Fatalf("%s: data_url %q is not a signed URL", w.name, dataURL)
			}
			if status, _, body := a.download(u.RequestURI(), noToken); status != http.StatusOK || !bytes.Equal(body, w.data) {
				t.Errorf("GET data_url without a token: %d, %d bytes, want 200 with the uploaded bytes", status, len(body))
			}
			// Another account's administrator cannot read it with its token.
			_, tokenB := a.otherAccount(fmt.Sprintf("Rival%d", i))
			if status, _, _ := a.download(plain, tokenB); status == http.StatusOK {
				t.Errorf("GET %s with another account's token: 200, want a refusal", plain)
			}
		}

		// A file over the per-file limit is refused and nothing is posted.
		before := len(mustGet(t, a.mustREST("GET", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, nil, http.StatusOK), "payload").([]any))
		r = a.gqlMultipart("", createMessageWithFiles,
			H{"conv": conv, "in": H{"content": "too big"}, "files": []any{nil}},
			[]upload{{"variables.files.0", "big.bin", "application/octet-stream", bytes.Repeat([]byte("x"), limit+1)}})
		if r.code() != "INVALID" || !reflect.DeepEqual(r.attrs(), []string{"attachments"}) {
			t.Errorf("a file over the limit: want an INVALID user error on attachments, got %s", r)
		}
		after := len(mustGet(t, a.mustREST("GET", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, nil, http.StatusOK), "payload").([]any))
		if after != before {
			t.Errorf("a refused upload still posted a message (%d messages, was %d)", after, before)
		}
	})
}
