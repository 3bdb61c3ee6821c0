package graph_test

// The GraphQL authorization matrix (issue 10): every query, mutation and
// subscription field of the executable schema (enumerated by introspection),
// called by each of six callers, must answer what the table in
// matrix_table*_test.go states. A field without an entry fails the suite.

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// gmOutcome is what a cell must answer.
type gmOutcome string

const (
	gOK     gmOutcome = "ok"
	gUnauth gmOutcome = "UNAUTHENTICATED"
	gForbid gmOutcome = "FORBIDDEN"
	gNF     gmOutcome = "NOT_FOUND"
	// gAdmin: FORBIDDEN with the administrator rule's one message.
	gAdmin gmOutcome = "FORBIDDEN admin-only"
	// gRef: an argument names an object the caller may not reach:
	// NOT_FOUND, or BAD_USER_INPUT naming it.
	gRef gmOutcome = "NOT_FOUND|BAD_USER_INPUT"
)

type gmRow [gmRoles]gmOutcome

// gmEntry is the matrix's line for one field (or one extra edge check).
type gmEntry struct {
	want gmRow
	// field is the field with its arguments and selection, as it goes
	// inside "query { }", "mutation { }" or "subscription { }".
	field func(c *gmCell) string
	// setup makes the objects a destructive request consumes (c.ids).
	setup func(c *gmCell)
	// upload sends one file as the variable $file (multipart).
	upload bool
	// trigger makes the event a subscription waits for.
	trigger func(c *gmCell)
	// warmup, when set, makes events until the subscription answers one;
	// trigger then runs once and its first event is the answer.
	warmup func(c *gmCell)
	// check, when set, judges an allowed answer further ("" when good).
	check func(c *gmCell, body []byte) string
	last  bool
}

type gmCell struct {
	w    *gmWorld
	t    *testing.T
	role gmRole
	ids  map[string]int
}

func (c *gmCell) n() int64 { return c.w.next() }

// gmField is a root field: "query.contact".
type gmField struct{ op, name string }

func (f gmField) key() string { return f.op + "." + f.name }

// rootFields enumerates the schema's root fields by introspection.
func (w *gmWorld) rootFields() []gmField {
	w.t.Helper()
	// Deprecated fields are still served: they stay in the matrix.
	r := w.gql(gqlReq{query: `{ __schema { queryType { fields(includeDeprecated: true) { name } }
		mutationType { fields(includeDeprecated: true) { name } } subscriptionType { fields(includeDeprecated: true) { name } } } }`})
	if len(r.Errors) > 0 {
		w.t.Fatalf("introspection: %s", r)
	}
	var out []gmField
	for _, op := range []string{"query", "mutation", "subscription"} {
		names, _ := lookup(r.Data, "__schema."+op+"Type.fields.*.name")
		list, _ := names.([]any)
		if len(list) == 0 {
			w.t.Fatalf("introspection lists no %s fields: %s", op, r)
		}
		for _, n := range list {
			out = append(out, gmField{op, n.(string)})
		}
	}
	return out
}

func gmTable() map[string]gmEntry {
	all := map[string]gmEntry{}
	for _, part := range []map[string]gmEntry{gmQueries(), gmMutations(), gmKanbanMutations(), gmSubscriptions(), gmLiveSubscriptions()} {
		for k, e := range part {
			if _, dup := all[k]; dup {
				panic("two matrix entries for " + k)
			}
			all[k] = e
		}
	}
	return all
}

func TestGraphQLAuthorizationMatrix(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newGMWorld(t, e)
		st := w.runMatrix(t)
		foreign := w.foreignAccount(t)
		w.checkOneAdminMessage(t)
		t.Logf("GraphQL matrix on %s: %d root fields and %d edge checks × %d roles: %d cells, %d passed, %d known gaps; "+
			"%d root fields called by B's administrator naming account A", e.Name, st.fields, st.edges, gmRoles, st.cells, st.passed, st.gaps, foreign)
	})
}

type gmStats struct{ fields, edges, cells, passed, gaps int }

// runMatrix checks the table against the schema's root fields and runs
// every cell.
func (w *gmWorld) runMatrix(t *testing.T) gmStats {
	table := gmTable()
	var fields, late []gmField
	listed := map[string]bool{}
	for _, f := range w.rootFields() {
		listed[f.key()] = true
		en, found := table[f.key()]
		switch {
		case !found:
			t.Errorf("GraphQL field %s has no entry in the matrix", f.key())
		case en.last:
			late = append(late, f)
		default:
			fields = append(fields, f)
		}
	}
	var edges []string
	for k := range table {
		if strings.HasPrefix(k, "edge.") {
			edges = append(edges, k)
		} else if !listed[k] {
			t.Errorf("the matrix has an entry for %s, which is not a field of the schema", k)
		}
	}
	sort.Strings(edges)
	var st gmStats
	for _, f := range append(fields, late...) {
		st.fields++
		w.runRow(t, f.key(), f.op, table[f.key()], &st)
	}
	for _, k := range edges {
		st.edges++
		op := "query"
		if strings.HasPrefix(k, "edge.sub.") {
			op = "subscription"
		}
		w.runRow(t, k, op, table[k], &st)
	}
	return st
}

// runRow calls one field as every role, least privileged first, so a
// refused mutation leaves the objects for the callers allowed to use them.
func (w *gmWorld) runRow(t *testing.T, k, op string, en gmEntry, st *gmStats) {
	for _, rl := range []gmRole{gmAnon, gmPlatform, gmOther, gmOut, gmIn, gmAdmin} {
		st.cells++
		t.Run(k+"/"+rl.String(), func(t *testing.T) {
			msg := w.runCell(t, k, op, en, rl)
			if reason, gap := gmKnownGap[k+" | "+rl.String()]; gap {
				st.gaps++
				if msg == "" {
					t.Errorf("known gap %q no longer fails: remove it from gmKnownGap", reason)
					return
				}
				t.Skipf("known gap (%s): %s", reason, msg)
			}
			if msg != "" {
				t.Error(msg)
				return
			}
			st.passed++
		})
	}
}

// foreignAccount sends every query and mutation as B's administrator naming
// account A (X-Account-Id): the token is not A's, so it is UNAUTHENTICATED
// before anything runs.
func (w *gmWorld) foreignAccount(t *testing.T) int {
	n := 0
	table := gmTable()
	for _, f := range w.rootFields() {
		en := table[f.key()]
		if f.op == "subscription" || en.upload || en.field == nil {
			continue
		}
		n++
		t.Run(f.key()+"/other-admin naming account A", func(t *testing.T) {
			saved := w.t
			w.t = t
			defer func() { w.t = saved }()
			c := &gmCell{w: w, t: t, role: gmOther, ids: map[string]int{"id": 1, "base": 1, "mergee": 1}}
			r := w.gql(gqlReq{token: w.tokens[gmOther], header: map[string]string{"X-Account-Id": id(w.Account)},
				query: f.op + " { " + en.field(c) + " }"})
			if r.code() != "UNAUTHENTICATED" {
				t.Errorf("want UNAUTHENTICATED, got %s", r)
			}
		})
	}
	return n
}

// gmDump prints every cell's answer (MATRIX_DUMP=1), to review the table.
var gmDump = os.Getenv("MATRIX_DUMP") == "1"

// runCell calls one field as one role and says how the answer misses the
// expectation ("" when it meets it).
func (w *gmWorld) runCell(t *testing.T, k, op string, en gmEntry, rl gmRole) string {
	saved := w.t
	w.t = t
	defer func() { w.t = saved }()
	c := &gmCell{w: w, t: t, role: rl, ids: map[string]int{}}
	if en.setup != nil {
		en.setup(c)
	}
	var code string
	var body []byte
	if op == "subscription" {
		code, body = w.subscribeCell(c, en)
	} else {
		r := w.sendCell(c, op, en)
		code, body = r.code(), r.Body
		if code == "" && len(r.Errors) > 0 {
			code = "ERROR " + r.Errors[0].Message
		}
		if en.want[rl] == gAdmin && code == "FORBIDDEN" {
			w.adminMessages[r.Errors[0].Message] = append(w.adminMessages[r.Errors[0].Message], k)
		}
	}
	if w.record != nil {
		w.record(k, rl, body)
	}
	if gmDump {
		fmt.Printf("GMATRIX %-60s %-11s %s\n", en.field(c), rl, code)
	}
	if msg := gmMeets(code, en.want[rl]); msg != "" {
		return fmt.Sprintf("%s: %s: %.1500s", msg, en.field(c), body)
	}
	if code == "" && en.check != nil {
		if msg := en.check(c, body); msg != "" {
			return msg
		}
	}
	if code == "" {
		return gmLeaks(rl, body)
	}
	return ""
}

func (w *gmWorld) sendCell(c *gmCell, op string, en gmEntry) *gqlResp {
	doc := op + " { " + en.field(c) + " }"
	if en.upload {
		doc = op + "($file: Upload!) { " + en.field(c) + " }"
		return w.gqlMultipart(w.tokens[c.role], doc, H{"file": nil},
			[]upload{{"variables.file", "cards.csv", "text/csv", []byte("Title\nImported\n")}})
	}
	return w.gql(gqlReq{token: w.tokens[c.role], query: doc})
}

func gmMeets(code string, want gmOutcome) string {
	good := false
	switch want {
	case gOK:
		good = code == ""
	case gRef:
		good = code == "NOT_FOUND" || code == "BAD_USER_INPUT" || code == "INVALID"
	case gAdmin:
		good = code == "FORBIDDEN"
	default:
		good = code == string(want)
	}
	if good {
		return ""
	}
	got := code
	if got == "" {
		got = "no error"
	}
	return fmt.Sprintf("want %s, got %s", want, got)
}

// gmLeaks checks an allowed answer for inbox 1's markers, which the agent
// outside it and the other account may not read.
func gmLeaks(rl gmRole, body []byte) string {
	if rl != gmOut && rl != gmOther {
		return ""
	}
	for _, m := range gmInboxMarkers() {
		if strings.Contains(string(body), m) {
			return fmt.Sprintf("%s may not see %q, but the answer shows it: %.1500s", rl, m, body)
		}
	}
	return ""
}

// restID creates an object over REST as A's administrator and returns the
// id at idPath.
func (c *gmCell) restID(path string, body any, idPath string) int {
	c.t.Helper()
	v := c.w.mustREST("POST", c.w.accountPath+path, c.w.Admin, body, 200)
	return int(mustGet(c.t, v, idPath).(float64))
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// gmTwoAdminMessages: the administrator rule still answers more than one
// sentence over GraphQL (issue 10 wants one). Set to false when fixed.
const gmTwoAdminMessages = false

// checkOneAdminMessage: every administrator-only refusal says one thing.
func (w *gmWorld) checkOneAdminMessage(t *testing.T) {
	t.Run("administrator-only refusals say one thing", func(t *testing.T) {
		if len(w.adminMessages) == 0 {
			t.Fatal("no administrator-only refusal was seen")
		}
		if len(w.adminMessages) == 1 {
			if gmTwoAdminMessages {
				t.Errorf("the administrator rule now says one thing: set gmTwoAdminMessages to false")
			}
			return
		}
		var lines []string
		for msg, cells := range w.adminMessages {
			lines = append(lines, fmt.Sprintf("%q (%d cells, e.g. %s)", msg, len(cells), cells[0]))
		}
		sort.Strings(lines)
		if gmTwoAdminMessages {
			t.Skipf("known gap: %s", strings.Join(lines, "; "))
		}
		t.Errorf("administrator-only refusals answer %d messages, want one: %s", len(lines), strings.Join(lines, "; "))
	})
}
