package rest_test

// The authorization matrix (issue 10): every route of the app's Fiber route
// table, called by each of six callers, must answer what the table in
// matrix_table*_test.go states. A route without an entry fails the suite, so
// a new route cannot ship without its rule written down.

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// role is one caller of the matrix.
type mxRole int

const (
	roleAnon mxRole = iota
	roleOut
	roleIn
	roleAdmin
	roleOther
	rolePlatform
	nRoles
)

var roleNames = [nRoles]string{"anonymous", "agent-out", "agent-in", "admin", "other-admin", "platform"}

func (r mxRole) String() string { return roleNames[r] }

// outcome is what a cell must answer.
type outcome string

const (
	o2xx outcome = "2xx"
	o401 outcome = "401"
	o403 outcome = "403"
	// oAdmin: 403, the administrator rule's one message (every oAdmin cell
	// must answer the same sentence).
	oAdmin outcome = "403 admin-only"
	o404   outcome = "404"
	// ref: a body names an object of another account: 404, or 422 naming it.
	oRef outcome = "404|422"
	// login: the console sends the caller to its sign-in page.
	oLogin outcome = "login"
	// redirect: any 3xx (a public console page that forwards).
	oRedirect outcome = "3xx"
	// upgrade: authorized, then refused as a plain GET to a websocket (400).
	oUpgrade outcome = "ws-400"
	// graphql: the route is the GraphQL endpoint, held to graph/matrix_test.go.
	oGraphQL outcome = "graphql"
)

// mxRow is one outcome per role, in roleNames order.
type mxRow [nRoles]outcome

// mxEntry is the matrix's line for one route.
type mxEntry struct {
	want mxRow
	// body builds the request body of a cell (nil: none).
	body func(c *mxCell) any
	// setup runs before each cell: it makes the objects a destructive or
	// one-shot request consumes and points c.ids at them.
	setup func(c *mxCell)
	// last runs the route after all others (it ends sessions or objects the
	// other routes need).
	last bool
	// query is appended to the path.
	query string
	// variants call the route again with other ids (named "route [name]"),
	// held to the same row.
	variants map[string]func(c *mxCell)
}

// mxCell is one route called by one role.
type mxCell struct {
	w    *mxWorld
	t    *testing.T
	role mxRole
	ids  map[string]int // path parameter → value
}

// key names a route as the table does.
func routeKey(method, path string) string { return method + " " + path }

var routeParam = regexp.MustCompile(`:[a-z_]+`)

// fill replaces the path's parameters with the cell's ids.
func (c *mxCell) fill(path string) string {
	return routeParam.ReplaceAllStringFunc(path, func(p string) string {
		if s, found := c.w.pathStrings[p[1:]]; found {
			return s
		}
		v, found := c.ids[p[1:]]
		if !found {
			c.t.Fatalf("no value for %s in %s", p, path)
		}
		return fmt.Sprint(v)
	})
}

// defaultIDs fills the parameters of path with inbox 1's objects: ":id"
// takes the object named by the segment before it.
func (w *mxWorld) defaultIDs(path string, r mxRole) map[string]int {
	ids := map[string]int{
		"account_id": w.Account, "inbox_id": w.Inbox1, "conversation_id": w.Conv,
		"message_id": w.Message, "funnel_id": w.Funnel,
		// A failed delivery to retry is the route's setup's; calls that
		// stop before it (no token, another account's) need some id.
		"delivery_id": 1,
		// Inbox 2's WhatsApp number, the "+" left out as the route allows.
		"phone_number": 15550001111,
	}
	if r == roleOther {
		ids["account_id"] = w.B // its own account, with A's ids
	}
	byCollection := map[string]int{
		"contacts": w.Contact, "inboxes": w.Inbox1, "custom_attribute_definitions": w.Attr,
		"agent_bots": w.Bot, "labels": w.Label, "conversations": w.Conv, "scheduled_messages": w.Schedule, "schedules": w.Schedule,
		"webhooks": w.Webhook, "agents": w.Spare, "teams": w.Team, "funnels": w.Funnel,
		"kanban_items": w.Card, "automations": w.Auto, "attachments": w.MsgFile,
		"accounts": w.Account, "users": w.Spare,
	}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if s == ":id" && i > 0 {
			if v, found := byCollection[segs[i-1]]; found {
				ids["id"] = v
			}
		}
	}
	return ids
}

// send calls the cell's route as its role.
func (c *mxCell) send(method, path string, e mxEntry) *response {
	rq := request{method: method, path: c.fill(path) + e.query, token: noToken}
	cr := c.w.roles[c.role]
	if strings.HasPrefix(path, "/app") || path == "/" {
		// The console's own page sends it (same origin, as a browser does).
		rq.header = map[string]string{"Origin": "http://example.com", "Referer": "http://example.com/app"}
		if cr.session != "" {
			rq.header["Cookie"] = "sb_session=" + cr.session
		}
	} else if cr.token != "" {
		rq.token = cr.token
	}
	if e.body != nil {
		rq.body = e.body(c)
	}
	return doRequest(c.t, c.w.app, rq)
}

// mxMeets says whether r is the outcome o ("" when it is).
func mxMeets(r *response, o outcome) string {
	s := r.Status
	var good bool
	switch o {
	case o2xx:
		good = s >= 200 && s < 300
	case oAdmin:
		good = s == http.StatusForbidden
	case o401, o403, o404:
		good = fmt.Sprint(s) == string(o)
	case oRef:
		good = s == http.StatusNotFound || s == http.StatusUnprocessableEntity
	case oLogin:
		good = s >= 300 && s < 400 && strings.HasSuffix(r.Header.Get("Location"), "/app/login")
	case oRedirect:
		good = s >= 300 && s < 400
	case oUpgrade:
		good = s == http.StatusBadRequest
	}
	if good {
		return ""
	}
	return fmt.Sprintf("want %s, got %s", o, r)
}

// matrixRoute is one method and path of the route table.
type matrixRoute struct{ method, path string }

// entryKey is the route's line in the table: HEAD, which Fiber adds to
// every GET route, is held to the GET entry (and its known gaps).
func (r matrixRoute) entryKey() string {
	if r.method == http.MethodHead {
		return routeKey(http.MethodGet, r.path)
	}
	return routeKey(r.method, r.path)
}

// routeTable lists the app's routes, once each.
func (w *mxWorld) routeTable() []matrixRoute {
	seen := map[string]bool{}
	var out []matrixRoute
	for _, r := range w.srv.App.GetRoutes(true) {
		if seen[routeKey(r.Method, r.Path)] {
			continue
		}
		seen[routeKey(r.Method, r.Path)] = true
		out = append(out, matrixRoute{r.Method, r.Path})
	}
	return out
}

// matrixTable is every entry of matrix_table*_test.go.
func matrixTable() map[string]mxEntry {
	all := map[string]mxEntry{}
	for _, part := range []map[string]mxEntry{accountEntries(), conversationEntries(), kanbanEntries(), otherEntries(), consoleEntries(), pagesEntries(), publicEntries()} {
		for k, e := range part {
			if _, dup := all[k]; dup {
				panic("the matrix has two entries for " + k)
			}
			all[k] = e
		}
	}
	return all
}

// matrixStats counts cells for the report.
type matrixStats struct{ routes, cells, passed, gaps, delegated int }

func TestAuthorizationMatrix(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newMatrixWorld(t, e)
		table := matrixTable()
		routes := w.routeTable()
		inTable := map[string]bool{}
		var first, late []matrixRoute
		for _, r := range routes {
			k := r.entryKey()
			inTable[k] = true
			en, found := table[k]
			switch {
			case !found:
				t.Errorf("route %s has no entry in the matrix", routeKey(r.method, r.path))
			case en.last:
				late = append(late, r)
			default:
				first = append(first, r)
			}
		}
		for k := range table {
			if !inTable[k] {
				t.Errorf("the matrix has an entry for %s, which is not a route", k)
			}
		}
		var st matrixStats
		foreign := w.foreignPath(t, first, table)
		for _, r := range append(first, late...) {
			w.runRoute(t, r, table[r.entryKey()], &st)
		}
		checkOneAdminMessage(t, w)
		t.Logf("matrix on %s: %d routes × %d roles: %d cells, %d passed, %d known gaps, %d held to the GraphQL matrix; "+
			"%d account routes called by B's administrator on A's path", e.Name, st.routes, nRoles, st.cells, st.passed, st.gaps, st.delegated, foreign)
	})
}

// runRoute calls one route (and its variants) as every role.
func (w *mxWorld) runRoute(t *testing.T, r matrixRoute, en mxEntry, st *matrixStats) {
	st.routes++
	w.runCells(t, r, en, "", nil, st)
	names := make([]string, 0, len(en.variants))
	for name := range en.variants {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		w.runCells(t, r, en, name, en.variants[name], st)
	}
}

// runCells calls the route as every role, least privileged first, so a
// refused write leaves the objects for the callers allowed to use them.
func (w *mxWorld) runCells(t *testing.T, r matrixRoute, en mxEntry, variant string, adjust func(c *mxCell), st *matrixStats) {
	k, gapKey := routeKey(r.method, r.path), r.entryKey()
	if variant != "" {
		k += " [" + variant + "]"
		gapKey += " [" + variant + "]"
	}
	for _, rl := range []mxRole{roleAnon, rolePlatform, roleOther, roleOut, roleIn, roleAdmin} {
		want := en.want[rl]
		st.cells++
		if want == oGraphQL {
			st.delegated++
			continue
		}
		t.Run(k+"/"+rl.String(), func(t *testing.T) {
			c := &mxCell{w: w, t: t, role: rl, ids: w.defaultIDs(r.path, rl)}
			if adjust != nil {
				adjust(c)
			}
			if en.setup != nil {
				en.setup(c)
			}
			res := c.send(r.method, r.path, en)
			if w.record != nil {
				w.record(k, rl, res)
			}
			if want == oAdmin && res.Status == http.StatusForbidden && r.method != http.MethodHead {
				w.adminMessages[errorSentence(res)] = append(w.adminMessages[errorSentence(res)], k)
			}
			msg := mxMeets(res, want)
			if msg == "" && res.Status < 300 {
				msg = w.leaks(rl, res)
			}
			if dumpMatrix {
				fmt.Printf("MATRIX %-80s %-11s %d\n", k, rl, res.Status)
			}
			if reason, gap := knownGap[gapKey+" | "+rl.String()]; gap {
				st.gaps++
				if msg == "" {
					t.Errorf("known gap %q no longer fails: remove it from knownGap", reason)
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

// dumpMatrix prints every cell's status (MATRIX_DUMP=1), to review the table.
var dumpMatrix = os.Getenv("MATRIX_DUMP") == "1"

// leaks checks an allowed answer against what the role may not see: inbox
// 1's content for the agent outside it and for the other account, and any
// of account A's markers for the other account.
func (w *mxWorld) leaks(r mxRole, res *response) string {
	var markers []string
	switch r {
	case roleOut:
		markers = inboxMarkers()
	case roleOther, rolePlatform, roleAnon:
		markers = append(inboxMarkers(), markContact)
	}
	if found := lacksMarkers(res.Body, markers); len(found) > 0 {
		sort.Strings(found)
		return fmt.Sprintf("%s may not see %v, but the answer shows it: %s", r, found, res)
	}
	return ""
}
