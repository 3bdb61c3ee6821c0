package graph_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

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
