package graph_test

// No N+1: representative nested queries take as many statements over many
// rows as over few, counted by the driver under ent.

import (
	"fmt"
	"net/http"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/stmtcount"
	"github.com/switchboard/switchboard/internal/testdb"
)

// newCountingApp is newApp over a database whose statements are counted.
func newCountingApp(t *testing.T, e testdb.Engine) (*app, *atomic.Int64) {
	t.Helper()
	raw := e.New(t)
	n := &atomic.Int64{}
	counted := stmtcount.Counted(raw, n, true)
	return newAppOn(t, counted, server.Config{Channels: acceptAll{}}), n
}

// statementsOf is the fewest statements query took over three tries (a
// request may overlap a background job's follow-up on the same context).
func statementsOf(t *testing.T, a *app, n *atomic.Int64, query string) int64 {
	t.Helper()
	fewest := int64(-1)
	for range 3 {
		before := n.Load()
		a.gqlOK(t, query, nil)
		if d := n.Load() - before; fewest < 0 || d < fewest {
			fewest = d
		}
	}
	return fewest
}

// nestedQuery is a nested query and how to add rows under it: grow(i)
// adds the i-th set of rows, each reaching every level of the query.
type nestedQuery struct {
	name, query string
	grow        func(t *testing.T, a *app, i int)
	nodes       string // the path of the top-level nodes
	most        int    // sets of rows to measure at, at most the query's page
	want        H      // paths of the answer over most sets, to their values
}

func TestNestedQueryStatementsDoNotGrowWithRows(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a, n := newCountingApp(t, e)
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		support := a.inbox(a.Account, a.Admin, "Support", apiChannel())
		sales := a.inbox(a.Account, a.Admin, "Sales", apiChannel())
		agents := []int{a.AdminID}
		for range 2 {
			id, _ := a.agentUser(a.Account)
			agents = append(agents, id)
		}
		queries := []nestedQuery{
			{name: "contacts → contact inboxes → inbox",
				query: `{ contacts(first: 20) { edges { node { id contactInboxes { id sourceID inbox { id name } } } } } }`,
				nodes: "contacts.edges", most: 5,
				want: H{"contacts.edges.4.node.contactInboxes.*.inbox.name": []any{"Support", "Sales"}},
				grow: func(t *testing.T, a *app, i int) {
					ct := a.contact(a.Admin, support, H{"name": fmt.Sprintf("Contact %d", i)})
					a.gqlOK(t, `mutation($c: ID!, $i: ID!) { createContactInbox(contactID: $c, inboxID: $i) { contactInbox { id } userErrors { field message code } } }`,
						H{"c": ct, "i": sales})
				}},
			{name: "conversations → last message → attachments",
				query: `{ conversations(first: 100) { edges { node { id messages(last: 1) { edges { node { id content
					attachments { fileName dataURL } } } } } } } }`,
				nodes: "conversations.edges", most: 5,
				want: H{"conversations.edges.4.node.messages.edges.*.node.content": []any{"last"},
					"conversations.edges.4.node.messages.edges.0.node.attachments.*.fileName": []any{"note.txt"}},
				grow: func(t *testing.T, a *app, i int) {
					ct := a.contact(a.Admin, support, H{"name": fmt.Sprintf("Caller %d", i)})
					conv := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin,
						H{"inbox_id": support, "contact_id": ct}, http.StatusOK), "id").(float64))
					a.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin, H{"content": "first"}, http.StatusOK)
					r := a.gqlMultipart("", createMessageWithFiles,
						H{"conv": conv, "in": H{"content": "last"}, "files": []any{nil}},
						[]upload{{"variables.files.0", "note.txt", "text/plain", []byte("hello")}})
					if r.Status != http.StatusOK || len(r.Errors) > 0 {
						t.Fatalf("createMessage with a file: %s", r)
					}
				}},
			{name: "funnels → stages → cards → assignees",
				query: `{ funnels(first: 2) { edges { node { id stages { id slug items(first: 2) { totalCount
					edges { node { id assignedAgents { id } } } } } } } } }`,
				nodes: "funnels.edges", most: 2,
				want: H{"funnels.edges.1.node.stages.*.slug": []any{"new", "won"},
					"funnels.edges.1.node.stages.1.items.totalCount":                       float64(2),
					"funnels.edges.1.node.stages.1.items.edges.1.node.assignedAgents.*.id": []any{gid("User", agents[0]), gid("User", agents[1])}},
				grow: func(t *testing.T, a *app, i int) {
					r := a.gqlOK(t, `mutation($n: String!) { createFunnel(input: {name: $n, stages: [{name: "New"}, {name: "Won"}]}) { funnel { id } userErrors { field message code } } }`,
						H{"n": fmt.Sprintf("Funnel %d", i)})
					funnel := mustGet(t, r.Data, "createFunnel.funnel.id")
					for _, stage := range []string{"new", "won"} {
						for c := range 2 {
							r := a.gqlOK(t, `mutation($f: ID!, $s: String!, $t: String!) {
								createKanbanItem(input: {funnelID: $f, stage: $s, title: $t}) { kanbanItem { id } userErrors { field message code } } }`,
								H{"f": funnel, "s": stage, "t": fmt.Sprintf("Card %d-%s-%d", i, stage, c)})
							card := mustGet(t, r.Data, "createKanbanItem.kanbanItem.id")
							for _, agent := range agents[:1+c] {
								a.gqlOK(t, `mutation($c: ID!, $a: ID!) { assignKanbanItemAgent(id: $c, agentID: $a) { kanbanItem { id } userErrors { field message code } } }`,
									H{"c": card, "a": agent})
							}
						}
					}
				}},
		}
		for _, q := range queries {
			t.Run(q.name, func(t *testing.T) {
				q.grow(t, a, 0)
				few := statementsOf(t, a, n, q.query)
				for i := 1; i < q.most; i++ {
					q.grow(t, a, i)
				}
				many := statementsOf(t, a, n, q.query)
				r := a.gqlOK(t, q.query, nil)
				if got := len(mustGet(t, r.Data, q.nodes).([]any)); got != q.most {
					t.Fatalf("the query sees %d top-level nodes, want %d: %s", got, q.most, r)
				}
				for path, want := range q.want {
					if got, _ := lookup(r.Data, path); !reflect.DeepEqual(got, want) {
						t.Errorf("%s = %v, want %v", path, got, want)
					}
				}
				if many != few {
					t.Errorf("%d statements over %d sets of rows, %d over one: a statement per row crept in", many, q.most, few)
				}
				t.Logf("%s: %s takes %d statements over %d sets of rows, %d over one", e.Name, q.name, many, q.most, few)
			})
		}
	})
}
