package graph_test

// Relay object identification: every Node type resolves through node(id:) and
// nodes(ids:) by its global id, ids are typed, and no ID in the schema is
// left without a type.

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/switchboard/switchboard/graph"
	"github.com/switchboard/switchboard/internal/testdb"
)

// everyNodeQuery reaches one object of each Node type of the matrix world.
const everyNodeQuery = `query($conv: Int!, $card: ID!, $team: ID!, $inbox: ID!, $contact: ID!) {
  agents(first: 1) { edges { node { id user { id } } } }
  agentBots { id }
  kanbanItem(id: $card) { id funnel { id } stage { id } notes { id } checklistItems { id } }
  contact(id: $contact) { id contactInboxes { id } }
  conversation(displayID: $conv) { id messages(first: 1) { edges { node { id } } } scheduledMessages { id } }
  inbox(id: $inbox) { id members { id } }
  kanbanAutomations { id }
  kanbanConfig { id }
  labels(first: 1) { edges { node { id } } }
  team(id: $team) { id members { id } }
}`

func TestNodeResolvesEveryType(t *testing.T) {
	schema := graph.NewExecutableSchema(graph.Config{}).Schema()
	nodeTypes := implementersOfNode(schema)
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newGMWorld(t, e)
		w.gqlOK(t, fmt.Sprintf(`mutation { changeTeamMembers(teamID: %d, userIDs: [%d], change: ADD) { members { id } userErrors { field message code } } }`, w.Team, w.userIn), nil)
		r := w.gqlOK(t, everyNodeQuery, H{"conv": w.Conv, "card": w.Card, "team": w.Team, "inbox": w.Inbox1, "contact": w.Contact})
		byType := map[string]string{}
		collectIDs(t, r.Data, byType)
		var ids, types []string
		for _, typ := range nodeTypes {
			id, ok := byType[typ]
			if !ok {
				t.Errorf("no %s reached: add one to everyNodeQuery", typ)
				continue
			}
			ids, types = append(ids, id), append(types, typ)
		}

		t.Logf("%d Node types, each reached: %v", len(types), types)
		t.Run("node by global id, each type", func(t *testing.T) {
			for i, id := range ids {
				r := w.gqlOK(t, `query($id: ID!) { node(id: $id) { id __typename } }`, H{"id": id})
				if got := mustGet(t, r.Data, "node.id"); got != id {
					t.Errorf("node(%s) answered id %v", types[i], got)
				}
				if got := mustGet(t, r.Data, "node.__typename"); got != types[i] {
					t.Errorf("node(%s id) answered a %v", types[i], got)
				}
			}
		})
		t.Run("nodes keeps the order of the ids asked", func(t *testing.T) {
			r := w.gqlOK(t, `query($ids: [ID!]!) { nodes(ids: $ids) { id __typename } }`, H{"ids": ids})
			for i, id := range ids {
				if got := mustGet(t, r.Data, fmt.Sprintf("nodes.%d.id", i)); got != id {
					t.Errorf("nodes[%d] = %v, want the %s %s", i, got, types[i], id)
				}
			}
		})
		gmStrangers := w.tokens[gmOther]
		w.run(t, []gqlCase{
			{name: "databaseId is the REST id", query: `query($id: ID!) { node(id: $id) { ... on Contact { databaseId } } }`,
				vars: H{"id": gid("Contact", w.Contact)}, want: H{"node.databaseId": w.Contact}},
			{name: "another account's object is not found", token: gmStrangers,
				query: `query($id: ID!) { node(id: $id) { id } }`, vars: H{"id": gid("Contact", w.Contact)}, code: "NOT_FOUND"},
			{name: "a database id names no type for node", query: `query { node(id: "1") { id } }`, code: "BAD_USER_INPUT"},
			{name: "a garbled id", query: `query { node(id: "not-an-id") { id } }`, code: "BAD_USER_INPUT"},
			{name: "an unknown type", query: `query($id: ID!) { node(id: $id) { id } }`, vars: H{"id": gid("Spaceship", 1)}, code: "BAD_USER_INPUT"},
			{name: "a typed argument takes its type's global id", query: `query($id: ID!) { contact(id: $id) { id } }`,
				vars: H{"id": gid("Contact", w.Contact)}, want: H{"contact.id": gid("Contact", w.Contact)}},
			{name: "and refuses another type's", query: `query($id: ID!) { contact(id: $id) { id } }`,
				vars: H{"id": gid("Inbox", w.Contact)}, code: "BAD_USER_INPUT"},
			{name: "an input field refuses another type's", query: `mutation($in: ID!) { createContact(input: {inboxID: $in, name: "X"}) { contact { id } userErrors { field message code } } }`,
				vars: H{"in": gid("Contact", w.Inbox1)}, code: "BAD_USER_INPUT"},
			{name: "a list refuses one id of another type", query: `mutation($u: [ID!]!) { changeTeamMembers(teamID: ` + fmt.Sprint(w.Team) + `, userIDs: $u, change: ADD) { members { id } userErrors { field message code } } }`,
				vars: H{"u": []any{gid("User", w.userIn), gid("Team", w.userIn)}}, code: "BAD_USER_INPUT"},
			{name: "a where filter takes global ids", query: `query($id: ID!) { contacts(first: 5, where: {id: $id}) { totalCount } }`,
				vars: H{"id": gid("Contact", w.Contact)}, want: H{"contacts.totalCount": 1}},
			{name: "a database id is taken as the argument's type", query: fmt.Sprintf(`{ contact(id: %d) { id } }`, w.Contact),
				want: H{"contact.id": gid("Contact", w.Contact)}},
		})
	})
}

// TestEveryIDNamesItsType: an ID without a type could not be encoded (or
// checked): each is a Node's id or carries @globalId.
func TestEveryIDNamesItsType(t *testing.T) {
	schema := graph.NewExecutableSchema(graph.Config{}).Schema()
	isID := func(tp *ast.Type) bool { return tp.Name() == "ID" }
	typed := func(ds ast.DirectiveList) bool { return ds.ForName("globalId") != nil }
	for _, def := range schema.Types {
		if def.BuiltIn {
			continue
		}
		for _, f := range def.Fields {
			node := f.Name == "id" && (def.Name == "Node" || slices.Contains(def.Interfaces, "Node"))
			if isID(f.Type) && !typed(f.Directives) && !node {
				t.Errorf("%s.%s is an ID of no type", def.Name, f.Name)
			}
			for _, a := range f.Arguments {
				lookup := def.Name == "Query" && (f.Name == "node" || f.Name == "nodes")
				if isID(a.Type) && !typed(a.Directives) && !lookup {
					t.Errorf("%s.%s(%s) is an ID of no type", def.Name, f.Name, a.Name)
				}
			}
		}
	}
}

func implementersOfNode(s *ast.Schema) []string {
	var out []string
	for _, def := range s.PossibleTypes["Node"] {
		out = append(out, def.Name)
	}
	sort.Strings(out)
	return out
}

// collectIDs records, for each type, one global id found under an "id" key.
func collectIDs(t *testing.T, v any, into map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, item := range x {
			if s, ok := item.(string); ok && k == "id" {
				typ, _, err := graph.DecodeGlobalID(s)
				if err != nil || typ == "" {
					t.Fatalf("id %q is no global id: %v", s, err)
				}
				if _, seen := into[typ]; !seen {
					into[typ] = s
				}
				continue
			}
			collectIDs(t, item, into)
		}
	case []any:
		for _, item := range x {
			collectIDs(t, item, into)
		}
	}
}

// gqlOK runs a query as A's administrator and fails on any error.
func (a *app) gqlOK(t *testing.T, query string, vars H) *gqlResp {
	t.Helper()
	a.t = t
	r := a.gql(gqlReq{query: query, vars: vars})
	if r.Status != 200 || len(r.Errors) > 0 {
		t.Fatalf("%s: %s", query, r)
	}
	return r
}
