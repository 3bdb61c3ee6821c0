package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

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
					"mergeContacts.contact.additionalAttributes": H{"city": "Leeds"},
					// The agent works in neither inbox: it reads no link there.
					"mergeContacts.contact.contactInboxes": []any{}},
				check: func(t *testing.T, r *gqlResp) {
					got := w.gql(gqlReq{query: contactQuery, vars: H{"id": mergee}})
					if got.code() != "NOT_FOUND" {
						t.Errorf("mergee still there: %s", got)
					}
					links := w.gql(gqlReq{query: `query($id: ID!) { contact(id: $id) { contactInboxes { inbox { name } } } }`, vars: H{"id": w.Dave}})
					if msg := sameItems("API", "Support Mail")(mustGet(t, links.Data, "contact.contactInboxes.*.inbox.name"), true); msg != "" {
						t.Errorf("the merge did not move every link, as the administrator reads them: %s", msg)
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
