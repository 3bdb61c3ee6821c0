package graph_test

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

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
