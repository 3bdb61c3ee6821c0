package graph_test

import (
	"reflect"
	"testing"

	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/internal/testdb"
)

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
