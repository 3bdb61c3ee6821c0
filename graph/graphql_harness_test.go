package graph_test

import (
	"net/http"
	"reflect"
	"strconv"
	"testing"

	"github.com/switchboard/switchboard/graph"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

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
