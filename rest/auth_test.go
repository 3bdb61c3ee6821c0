package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Authentication, tenancy and roles (spec §5, §7).

func TestAuthentication(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		a.contact(api, H{"name": "Alice"})
		_, outsider := a.user("Outsider") // a platform user of no account
		otherAccount, otherAdmin := a.otherAccount("Globex")
		suspended, suspendedAdmin := a.otherAccount("Suspended")
		if err := a.srv.DB.Client.Account.UpdateOneID(suspended).SetStatus("suspended").Exec(sys()); err != nil {
			t.Fatal(err)
		}
		contacts := a.path("/contacts")
		a.run(t, []scenario{
			{
				name:       "no token is 401",
				request:    request{method: "GET", path: contacts, token: noToken},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "no token on a write is 401 and creates nothing",
				request:    request{method: "POST", path: contacts, token: noToken, body: H{"inbox_id": api, "name": "Sneaky"}},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "an unknown token is 401",
				request:    request{method: "GET", path: contacts, token: "not-a-real-token"},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "a blank token is 401",
				request:    request{method: "GET", path: contacts, token: "   "},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "the api_access_token header authenticates",
				request:    request{method: "GET", path: contacts},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1},
			},
			{
				name:       "the Api-Access-Token header authenticates",
				request:    request{method: "GET", path: contacts, token: noToken, header: map[string]string{"Api-Access-Token": a.Admin}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1},
			},
			{
				name:       "Authorization: Bearer <token> authenticates",
				request:    request{method: "GET", path: contacts, token: noToken, header: map[string]string{"Authorization": "Bearer " + a.Admin}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1},
			},
			{
				name:       "Authorization: bearer <token> (lower case) authenticates",
				request:    request{method: "GET", path: contacts, token: noToken, header: map[string]string{"Authorization": "bearer " + a.Admin}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "Authorization: Bearer with a wrong token is 401",
				request:    request{method: "GET", path: contacts, token: noToken, header: map[string]string{"Authorization": "Bearer nope"}},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "Authorization with another scheme is 401",
				request:    request{method: "GET", path: contacts, token: noToken, header: map[string]string{"Authorization": "Basic " + a.Admin}},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "a valid token of a user who is in no account is 401",
				request:    request{method: "GET", path: contacts, token: outsider},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "a valid token of another account's administrator is 401",
				request:    request{method: "GET", path: contacts, token: otherAdmin},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "a valid token on its own other account works",
				request:    request{method: "GET", path: accountPath(otherAccount, "/contacts"), token: otherAdmin},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0},
			},
			{
				name:       "a valid token on a suspended account is 401",
				request:    request{method: "GET", path: accountPath(suspended, "/contacts"), token: suspendedAdmin},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "a valid token on an account that does not exist is 401",
				request:    request{method: "GET", path: accountPath(999999, "/contacts")},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "a non-numeric account id is 404",
				request:    request{method: "GET", path: "/api/v1/accounts/acme/contacts"},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "the platform token is not a user token: 401",
				request:    request{method: "GET", path: contacts, token: a.Platform},
				wantStatus: http.StatusUnauthorized,
			},
			{
				name:       "an unknown route under an account is 404 even without a token",
				request:    request{method: "GET", path: a.path("/nothing_here"), token: noToken},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "the failed writes created nothing",
				request:    request{method: "GET", path: contacts},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1, "payload.0.name": "Alice"},
			},
		})
	})
}

// TestTenancy: two accounts; nothing of B is visible, writable or deletable
// through A's paths, and B is unchanged afterwards.
func TestTenancy(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		apiA := a.apiInbox("A inbox")
		a.customAttribute("plan", "text", "contact_attribute")
		alice, _ := a.contact(apiA, H{"name": "Alice A", "email": "shared@example.com", "phone_number": "+15550001111"})

		accB, adminB := a.otherAccount("Globex")
		apiB := a.inboxIn(accB, adminB, "B inbox", H{"type": "api"})
		bDef := a.mustDo(request{method: "POST", path: accountPath(accB, "/custom_attribute_definitions"), token: adminB, body: H{
			"attribute_display_name": "Secret", "attribute_key": "secret", "attribute_display_type": "text", "attribute_model": "contact_attribute",
		}}, http.StatusOK).int(t, "id")
		bob, bobSource := a.contactIn(accB, adminB, apiB, H{"name": "Bob B", "email": "bob@globex.test", "identifier": "b-1"})
		a.mustDo(request{method: "POST", path: accountPath(accB, "/contacts/%d/labels", bob), token: adminB, body: H{"labels": []string{"b-label"}}}, http.StatusOK)
		bobConv := a.conversation(accB, apiB, bob)
		// Same id space: B's contact id is a real row, just not A's.
		before := a.mustDo(request{method: "GET", path: accountPath(accB, "/contacts/%d", bob), token: adminB}, http.StatusOK)

		bobInA := a.path("/contacts/%d", bob)
		notFound := func(name string, rq request) scenario {
			return scenario{name: name, request: rq, wantStatus: http.StatusNotFound}
		}
		a.run(t, []scenario{
			notFound("B's contact through A's path is 404 on show", request{method: "GET", path: bobInA}),
			notFound("B's contact through A's path is 404 on PUT", request{method: "PUT", path: bobInA, body: H{"name": "Hijacked"}}),
			notFound("B's contact through A's path is 404 on PATCH", request{method: "PATCH", path: bobInA, body: H{"custom_attributes": H{"plan": "x"}}}),
			notFound("B's contact through A's path is 404 on delete", request{method: "DELETE", path: bobInA}),
			notFound("B's contact through A's path is 404 on labels read", request{method: "GET", path: bobInA + "/labels"}),
			notFound("B's contact through A's path is 404 on labels write", request{method: "POST", path: bobInA + "/labels", body: H{"labels": []string{"hijacked"}}}),
			notFound("B's contact through A's path is 404 on conversations", request{method: "GET", path: bobInA + "/conversations"}),
			notFound("B's contact through A's path is 404 on contact_inboxes", request{method: "POST", path: bobInA + "/contact_inboxes", body: H{"inbox_id": apiA}}),
			notFound("B's contact through A's path is 404 on contactable_inboxes", request{method: "GET", path: bobInA + "/contactable_inboxes"}),
			notFound("B's contact as the mergee of A's contact is 404", request{method: "POST", path: a.path("/actions/contact_merge"), body: H{"base_contact_id": alice, "mergee_contact_id": bob}}),
			notFound("B's contact as the base of a merge in A is 404", request{method: "POST", path: a.path("/actions/contact_merge"), body: H{"base_contact_id": bob, "mergee_contact_id": alice}}),
			notFound("B's inbox through A's path is 404", request{method: "GET", path: a.path("/inboxes/%d", apiB)}),
			notFound("B's inbox through A's path is 404 on update", request{method: "PATCH", path: a.path("/inboxes/%d", apiB), body: H{"name": "Hijacked"}}),
			notFound("B's custom attribute definition through A's path is 404", request{method: "GET", path: a.path("/custom_attribute_definitions/%d", bDef)}),
			notFound("B's custom attribute definition through A's path is 404 on delete", request{method: "DELETE", path: a.path("/custom_attribute_definitions/%d", bDef)}),
			{
				name:       "A's list never shows B's contacts",
				request:    request{method: "GET", path: a.path("/contacts")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1, "payload.*.id": []int{alice}},
			},
			{
				name:       "A's label filter never shows B's contacts",
				request:    request{method: "GET", path: a.path("/contacts?labels[]=b-label")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0},
			},
			{
				name:       "A's search never finds B's contacts",
				request:    request{method: "GET", path: a.path("/contacts/search?q=bob")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0, "payload": []any{}},
			},
			{
				name:       "A's filter never finds B's contacts",
				request:    request{method: "POST", path: a.path("/contacts/filter"), body: H{"payload": []H{{"attribute_key": "email", "filter_operator": "contains", "values": []string{"globex"}}}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0},
			},
			{
				name:        "A's filter cannot use B's custom attribute",
				request:     request{method: "POST", path: a.path("/contacts/filter"), body: H{"payload": []H{{"attribute_key": "secret", "filter_operator": "is_present", "values": []string{}}}}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"attribute_key"},
			},
			{
				name:       "A's inbox list never shows B's inboxes",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{apiA}},
			},
			{
				name:       "A's custom attribute definitions never show B's",
				request:    request{method: "GET", path: a.path("/custom_attribute_definitions")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.attribute_key": []string{"plan"}},
			},
			{
				name:        "creating a contact in A through B's inbox is 422 naming inbox_id",
				request:     request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": apiB, "name": "Cross"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"inbox_id"},
			},
			{
				name:       "creating a contact in A keeps only A's custom attribute keys",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": apiA, "name": "Keys", "custom_attributes": H{"plan": "p", "secret": "s"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.custom_attributes": H{"plan": "p"}},
			},
			{
				name:       "A may reuse B's source_id in its own inbox",
				request:    request{method: "POST", path: a.path("/contacts/%d/contact_inboxes", alice), body: H{"inbox_id": apiA, "source_id": bobSource}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"source_id": bobSource},
			},
			{
				name:       "an e-mail, phone and identifier used in B are free in A",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": apiA, "email": "BOB@globex.test", "identifier": "b-1"}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "an e-mail used in A is free in B",
				request:    request{method: "POST", path: accountPath(accB, "/contacts"), token: adminB, body: H{"inbox_id": apiB, "email": "shared@example.com", "phone_number": "+15550001111"}},
				wantStatus: http.StatusOK,
			},
			{
				name:       "B's administrator cannot see A's contact either",
				request:    request{method: "GET", path: accountPath(accB, "/contacts/%d", alice), token: adminB},
				wantStatus: http.StatusNotFound,
			},
		})

		// Nothing of B changed.
		after := a.mustDo(request{method: "GET", path: accountPath(accB, "/contacts/%d", bob), token: adminB}, http.StatusOK)
		for _, p := range []string{"payload.name", "payload.email", "payload.identifier", "payload.labels", "payload.custom_attributes", "payload.contact_inboxes", "payload.updated_at"} {
			was, _ := before.get(p)
			expect(t, after, map[string]any{p: was})
		}
		r := a.mustDo(request{method: "GET", path: accountPath(accB, "/contacts/%d/conversations", bob), token: adminB}, http.StatusOK)
		expect(t, r, map[string]any{"payload.*.id": []int{bobConv}})
		r = a.mustDo(request{method: "GET", path: accountPath(accB, "/inboxes/%d", apiB), token: adminB}, http.StatusOK)
		expect(t, r, map[string]any{"name": "B inbox"})
		r = a.mustDo(request{method: "GET", path: accountPath(accB, "/custom_attribute_definitions/%d", bDef), token: adminB}, http.StatusOK)
		expect(t, r, map[string]any{"attribute_key": "secret"})
		r = a.mustDo(request{method: "GET", path: accountPath(accB, "/contacts"), token: adminB}, http.StatusOK)
		expect(t, r, map[string]any{"meta.count": 2})
	})
}

func TestRoles(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		def := a.customAttribute("plan", "text", "contact_attribute")
		_, agent := a.agent(a.Account)
		id, _ := a.contact(api, H{"name": "Alice"})
		forbidden := func(name string, rq request) scenario {
			rq.token = agent
			return scenario{name: name, request: rq, wantStatus: http.StatusForbidden}
		}
		allowed := func(name string, rq request) scenario {
			rq.token = agent
			return scenario{name: name, request: rq, wantStatus: http.StatusOK}
		}
		a.run(t, []scenario{
			forbidden("an agent creating a custom attribute definition is 403", request{method: "POST", path: a.path("/custom_attribute_definitions"), body: H{
				"attribute_display_name": "Tier", "attribute_key": "tier", "attribute_display_type": "text", "attribute_model": "contact_attribute"}}),
			forbidden("an agent creating an invalid custom attribute definition is still 403", request{method: "POST", path: a.path("/custom_attribute_definitions"), body: H{}}),
			forbidden("an agent updating a custom attribute definition is 403", request{method: "PATCH", path: a.path("/custom_attribute_definitions/%d", def), body: H{"attribute_display_name": "Hacked"}}),
			forbidden("an agent deleting a custom attribute definition is 403", request{method: "DELETE", path: a.path("/custom_attribute_definitions/%d", def)}),
			forbidden("an agent creating an inbox is 403", request{method: "POST", path: a.path("/inboxes"), body: H{"name": "Agent inbox", "channel": H{"type": "api"}}}),
			forbidden("an agent updating an inbox is 403", request{method: "PATCH", path: a.path("/inboxes/%d", api), body: H{"name": "Renamed"}}),
			forbidden("an agent deleting a contact is 403", request{method: "DELETE", path: a.path("/contacts/%d", id)}),
			allowed("an agent may list custom attribute definitions", request{method: "GET", path: a.path("/custom_attribute_definitions")}),
			allowed("an agent may list inboxes", request{method: "GET", path: a.path("/inboxes")}),
			allowed("an agent may show an inbox", request{method: "GET", path: a.path("/inboxes/%d", api)}),
			allowed("an agent may list contacts", request{method: "GET", path: a.path("/contacts")}),
			allowed("an agent may create contacts", request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "By agent"}}),
			allowed("an agent may update contacts", request{method: "PUT", path: a.path("/contacts/%d", id), body: H{"name": "Alice by agent"}}),
			allowed("an agent may search contacts", request{method: "GET", path: a.path("/contacts/search?q=alice")}),
			allowed("an agent may filter contacts", request{method: "POST", path: a.path("/contacts/filter"), body: H{"payload": []H{{"attribute_key": "name", "filter_operator": "contains", "values": []string{"a"}}}}}),
			{
				name:       "an agent does not see an inbox's secrets",
				request:    request{method: "GET", path: a.path("/inboxes/%d", api), token: agent},
				wantStatus: http.StatusOK,
				want:       map[string]any{"hmac_token": absent},
			},
			{
				name:       "the definition the agent failed to change is unchanged",
				request:    request{method: "GET", path: a.path("/custom_attribute_definitions/%d", def)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"attribute_display_name": "Plan"},
			},
			{
				name:       "the inbox the agent failed to change is unchanged, and no inbox was added",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.name": []string{"API"}},
			},
			{
				name:       "the contact the agent failed to delete is still there",
				request:    request{method: "GET", path: a.path("/contacts/%d", id)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.name": "Alice by agent"},
			},
		})
	})
}
