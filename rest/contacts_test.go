package rest_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scenario tests of the contacts API (spec §2 Contact, §4 Contacts).

func TestContactCreate(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		wa := a.inbox("WhatsApp", whatsappChannel("+15550009999"))
		mail := a.inbox("Support mail", emailChannel("support@acme.test"))
		a.customAttribute("plan", "text", "contact_attribute")
		a.customAttribute("topic", "text", "conversation_attribute")

		var apiSource string
		a.run(t, []scenario{
			{
				name:       "create through an API inbox answers the contact and a contact_inbox with a UUID source_id",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "Alice Smith", "email": "alice@example.com"}},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.contact.id":                         present,
					"payload.contact.name":                       "Alice Smith",
					"payload.contact.email":                      "alice@example.com",
					"payload.contact.phone_number":               nil,
					"payload.contact.blocked":                    false,
					"payload.contact.created_at":                 isoTime,
					"payload.contact.contact_inboxes.#":          1,
					"payload.contact.contact_inboxes.0.inbox.id": api,
					"payload.contact_inbox.source_id":            isUUID,
					"payload.contact_inbox.inbox.id":             api,
				},
				check: func(t *testing.T, r *response) {
					apiSource = r.str(t, "payload.contact_inbox.source_id")
					if got := r.str(t, "payload.contact.contact_inboxes.0.source_id"); got != apiSource {
						t.Errorf("contact.contact_inboxes[0].source_id = %q, want the created contact_inbox's %q", got, apiSource)
					}
				},
			},
			{
				name:       "create through a WhatsApp inbox uses the phone number as source_id",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": wa, "name": "Bob", "phone_number": "+4915112345678"}},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.contact.phone_number":    "+4915112345678",
					"payload.contact_inbox.source_id": "+4915112345678",
					"payload.contact_inbox.inbox.id":  wa,
				},
			},
			{
				name:       "create through an email inbox uses the e-mail as source_id",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": mail, "name": "Carol", "email": "carol@example.com"}},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.contact_inbox.source_id": "carol@example.com",
					"payload.contact_inbox.inbox.id":  mail,
				},
			},
			{
				name:       "create with an explicit source_id keeps it",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "Dan", "source_id": "crm-4711"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact_inbox.source_id": "crm-4711"},
			},
			{
				name:        "create reusing a source_id of the same inbox is 422 naming source_id",
				request:     request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "Dan again", "source_id": "crm-4711"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"source_id"},
			},
			{
				name:       "create wrapped in a contact object (Chatwoot's parameter wrapping) works",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"contact": H{"inbox_id": api, "name": "Erin", "identifier": "ext-erin"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.name": "Erin", "payload.contact.identifier": "ext-erin"},
			},
			{
				name:       "create stores the e-mail lower-cased",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "email": "Frank.Mixed@Example.COM"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.email": "frank.mixed@example.com"},
			},
			{
				name: "create keeps only custom_attributes defined for contacts, and every additional attribute",
				request: request{method: "POST", path: a.path("/contacts"), body: H{
					"inbox_id": api, "name": "Grace",
					"custom_attributes":     H{"plan": "gold", "undefined_key": 1, "topic": "conversation-only"},
					"additional_attributes": H{"city": "Paris", "company": "Acme"},
				}},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.contact.custom_attributes":     H{"plan": "gold"},
					"payload.contact.additional_attributes": H{"city": "Paris", "company": "Acme"},
				},
			},
			{
				name:       "create with blocked and avatar_url stores them",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "Heidi", "blocked": true, "avatar_url": "https://img.example.com/h.png"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.blocked": true, "payload.contact.avatar_url": "https://img.example.com/h.png"},
			},
			{
				name:        "create without inbox_id is 422 naming inbox_id",
				request:     request{method: "POST", path: a.path("/contacts"), body: H{"name": "No Inbox", "email": "noinbox@example.com"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"inbox_id"},
			},
			{
				name:        "create with an inbox that does not exist is 422 naming inbox_id",
				request:     request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": 999999, "name": "Ghost"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"inbox_id"},
			},
			{
				name:        "create through a WhatsApp inbox without a phone number is 422 naming phone_number",
				request:     request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": wa, "name": "No Phone"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"phone_number"},
			},
			{
				name:        "create with a non-integer inbox_id is 422 naming inbox_id",
				request:     request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": "first", "name": "Bad Inbox"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"inbox_id"},
			},
			{
				name:        "create with custom_attributes that are not an object is 422 naming custom_attributes",
				request:     request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "custom_attributes": []string{"x"}}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"custom_attributes"},
			},
		})

		// Nothing of the refused creates was stored.
		r := a.mustDo(request{method: "GET", path: a.path("/contacts")}, http.StatusOK)
		expect(t, r, map[string]any{"meta.count": 8, "payload.*.name": excludes("No Inbox", "Ghost", "No Phone", "Dan again", "Bad Inbox")})
	})
}

func TestContactValidation(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		first, _ := a.contact(api, H{"name": "First", "email": "a@x.com", "phone_number": "+15550001111", "identifier": "ext-1"})
		second, _ := a.contact(api, H{"name": "Second", "email": "second@x.com"})
		create := func(fields H) request {
			body := H{"inbox_id": api}
			for k, v := range fields {
				body[k] = v
			}
			return request{method: "POST", path: a.path("/contacts"), body: body}
		}
		update := func(id int, fields H) request {
			return request{method: "PUT", path: a.path("/contacts/%d", id), body: fields}
		}
		invalid := func(name string, rq request, fields ...string) scenario {
			return scenario{name: name, request: rq, wantStatus: http.StatusUnprocessableEntity, wantInvalid: fields}
		}
		a.run(t, []scenario{
			invalid("create with an e-mail already used (in another case) is 422 naming email", create(H{"email": "A@X.com"}), "email"),
			invalid("create with the same e-mail exactly is 422 naming email", create(H{"email": "a@x.com"}), "email"),
			invalid("create with a malformed e-mail is 422 naming email", create(H{"email": "not-an-email"}), "email"),
			invalid("create with an e-mail holding spaces is 422 naming email", create(H{"email": "a b@x.com"}), "email"),
			invalid("create with a phone number without + is 422 naming phone_number", create(H{"phone_number": "15550002222"}), "phone_number"),
			invalid("create with a phone number with spaces is 422 naming phone_number", create(H{"phone_number": "+1 555 000 2222"}), "phone_number"),
			invalid("create with a phone number starting +0 is 422 naming phone_number", create(H{"phone_number": "+0155500022"}), "phone_number"),
			invalid("create with a phone number of 16 digits is 422 naming phone_number", create(H{"phone_number": "+1234567890123456"}), "phone_number"),
			invalid("create with a phone number already used is 422 naming phone_number", create(H{"phone_number": "+15550001111"}), "phone_number"),
			invalid("create with an identifier already used is 422 naming identifier", create(H{"identifier": "ext-1"}), "identifier"),
			invalid("create with a bad e-mail and a bad phone names both", create(H{"email": "nope", "phone_number": "12"}), "email", "phone_number"),
			invalid("update to an e-mail used by another contact is 422 naming email", update(second, H{"email": "A@x.COM"}), "email"),
			invalid("update to a phone number used by another contact is 422 naming phone_number", update(second, H{"phone_number": "+15550001111"}), "phone_number"),
			invalid("update to an identifier used by another contact is 422 naming identifier", update(second, H{"identifier": "ext-1"}), "identifier"),
			invalid("update to a malformed phone number is 422 naming phone_number", update(second, H{"phone_number": "call me"}), "phone_number"),
			{
				name:       "update keeping a contact's own e-mail, phone and identifier is not a clash",
				request:    update(first, H{"email": "A@X.com", "phone_number": "+15550001111", "identifier": "ext-1", "name": "First Renamed"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.name": "First Renamed", "payload.email": "a@x.com"},
			},
			{
				name:       "a valid E.164 number is accepted",
				request:    create(H{"phone_number": "+442071838750"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.phone_number": "+442071838750"},
			},
		})
		// The refused update changed nothing.
		r := a.mustDo(request{method: "GET", path: a.path("/contacts/%d", second)}, http.StatusOK)
		expect(t, r, map[string]any{"payload.email": "second@x.com", "payload.phone_number": nil, "payload.identifier": nil})
	})
}

func TestContactList(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		// Created in this order, so creation and last activity order is
		// Carol, Alice, Dave, Bob; Bob has neither e-mail nor phone.
		carol, _ := a.contact(api, H{"name": "Carol", "email": "carol@example.com", "phone_number": "+15550000003"})
		alice, _ := a.contact(api, H{"name": "Alice", "email": "alice@example.com", "phone_number": "+15550000009"})
		dave, _ := a.contact(api, H{"name": "Dave", "email": "dave@example.com", "phone_number": "+15550000001"})
		bob, _ := a.contact(api, H{"name": "Bob"})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", alice), body: H{"labels": []string{"vip", "lead"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", bob), body: H{"labels": []string{"lead"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", dave), body: H{"labels": []string{"churned"}}}, http.StatusOK)

		list := func(query string) request { return request{method: "GET", path: a.path("/contacts%s", query)} }
		order := func(name, query string, ids ...int) scenario {
			return scenario{name: name, request: list(query), wantStatus: http.StatusOK, want: map[string]any{"payload.*.id": ids}}
		}
		a.run(t, []scenario{
			{
				name:       "list answers {meta: {count, current_page}, payload} with contact_inboxes",
				request:    list(""),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"meta.count":                            4,
					"meta.current_page":                     1,
					"payload.#":                             4,
					"payload.0.contact_inboxes.0.inbox.id":  api,
					"payload.0.contact_inboxes.0.source_id": isUUID,
				},
			},
			order("list without sort is most recent activity first", "", bob, dave, alice, carol),
			order("sort=name orders by name ascending", "?sort=name", alice, bob, carol, dave),
			order("sort=-name orders by name descending", "?sort=-name", dave, carol, bob, alice),
			order("sort=email orders by e-mail, contacts without one last", "?sort=email", alice, carol, dave, bob),
			order("sort=-email orders by e-mail descending, contacts without one still last", "?sort=-email", dave, carol, alice, bob),
			order("sort=phone_number orders by phone, contacts without one last", "?sort=phone_number", dave, carol, alice, bob),
			order("sort=-phone_number orders by phone descending", "?sort=-phone_number", alice, carol, dave, bob),
			order("sort=last_activity_at orders by last activity ascending", "?sort=last_activity_at", carol, alice, dave, bob),
			order("sort=-last_activity_at orders by last activity descending", "?sort=-last_activity_at", bob, dave, alice, carol),
			order("sort=created_at orders by creation ascending", "?sort=created_at", carol, alice, dave, bob),
			order("sort=-created_at orders by creation descending", "?sort=-created_at", bob, dave, alice, carol),
			{
				name:        "an unknown sort is 422 naming sort",
				request:     list("?sort=shoe_size"),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"sort"},
			},
			{
				name:        "a page that is not a number is 422 naming page",
				request:     list("?page=two"),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"page"},
			},
			{
				name:       "labels[]=x keeps only contacts with that label",
				request:    list("?labels[]=vip"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1, "payload.*.id": []int{alice}},
			},
			{
				name:       "labels[]=a&labels[]=b keeps contacts with any of the labels (Chatwoot's tagged_with any)",
				request:    list("?labels[]=vip&labels[]=churned&sort=name"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 2, "payload.*.id": []int{alice, dave}},
			},
			{
				name:       "labels=a&labels=b (repeated key) is read as the same list",
				request:    list("?labels=vip&labels=churned&sort=name"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 2, "payload.*.id": []int{alice, dave}},
			},
			{
				name:       "labels=a,b (comma-separated) is read as the same list",
				request:    list("?labels=vip,churned&sort=name"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 2, "payload.*.id": []int{alice, dave}},
			},
			{
				name:       "a label no contact has gives an empty page",
				request:    list("?labels[]=nobody"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0, "payload": []any{}},
			},
		})
	})
}

func TestContactListPagination(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		var ids []int
		for i := range 17 {
			id, _ := a.contact(api, H{"name": fmt.Sprintf("Person %02d", i)})
			ids = append(ids, id)
		}
		var seen []int
		collect := func(t *testing.T, r *response) { seen = append(seen, r.ints(t, "payload.*.id")...) }
		a.run(t, []scenario{
			{
				name:       "page 1 holds 15 contacts and meta.count is the total",
				request:    request{method: "GET", path: a.path("/contacts?sort=name")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 15, "meta.count": 17, "meta.current_page": 1, "payload.0.name": "Person 00"},
				check:      collect,
			},
			{
				name:       "page 2 holds the rest",
				request:    request{method: "GET", path: a.path("/contacts?sort=name&page=2")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 2, "meta.count": 17, "meta.current_page": 2, "payload.*.name": []string{"Person 15", "Person 16"}},
				check:      collect,
			},
			{
				name:       "a page past the end is empty but still counts",
				request:    request{method: "GET", path: a.path("/contacts?page=3")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}, "meta.count": 17, "meta.current_page": 3},
			},
		})
		if msg := sameItems(toAny(ids)...)(toAny(seen), true); msg != "" {
			t.Errorf("pages 1 and 2 together must hold every contact once: %s", msg)
		}
	})
}

func toAny(ints []int) []any {
	out := make([]any, len(ints))
	for i, n := range ints {
		out[i] = n
	}
	return out
}

func TestContactShowUpdate(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		a.customAttribute("plan", "text", "contact_attribute")
		a.customAttribute("seats", "number", "contact_attribute")
		a.customAttribute("topic", "text", "conversation_attribute")
		id, source := a.contact(api, H{
			"name": "Alice", "email": "alice@example.com", "phone_number": "+15550001234", "identifier": "ext-a",
			"custom_attributes": H{"plan": "gold"}, "additional_attributes": H{"city": "Paris"},
		})
		_, agent := a.agent(a.Account)
		contact := a.path("/contacts/%d", id)

		a.run(t, []scenario{
			{
				name:       "show answers {payload: contact} with its contact_inboxes",
				request:    request{method: "GET", path: contact},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.id":                           id,
					"payload.name":                         "Alice",
					"payload.email":                        "alice@example.com",
					"payload.phone_number":                 "+15550001234",
					"payload.identifier":                   "ext-a",
					"payload.custom_attributes":            H{"plan": "gold"},
					"payload.additional_attributes":        H{"city": "Paris"},
					"payload.labels":                       []any{},
					"payload.contact_inboxes.#":            1,
					"payload.contact_inboxes.0.source_id":  source,
					"payload.contact_inboxes.0.inbox.id":   api,
					"payload.contact_inboxes.0.inbox.name": "API",
					"payload.created_at":                   isoTime,
					"payload.last_activity_at":             isoTime,
				},
			},
			{
				name:       "show of an unknown id is 404",
				request:    request{method: "GET", path: a.path("/contacts/999999")},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "show of a non-numeric id is 404",
				request:    request{method: "GET", path: a.path("/contacts/alice")},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "PUT changes the sent fields and leaves the others",
				request:    request{method: "PUT", path: contact, body: H{"name": "Alice Smith", "blocked": true}},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.name": "Alice Smith", "payload.blocked": true,
					"payload.email": "alice@example.com", "payload.phone_number": "+15550001234", "payload.identifier": "ext-a",
				},
			},
			{
				name:       "PUT merges custom_attributes into the stored ones",
				request:    request{method: "PUT", path: contact, body: H{"custom_attributes": H{"seats": 5}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.custom_attributes": H{"plan": "gold", "seats": 5}},
			},
			{
				name:       "PATCH merges additional_attributes into the stored ones",
				request:    request{method: "PATCH", path: contact, body: H{"additional_attributes": H{"company": "Acme"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.additional_attributes": H{"city": "Paris", "company": "Acme"}},
			},
			{
				name:       "PATCH overwrites a custom attribute it sends and drops keys that are not contact definitions",
				request:    request{method: "PATCH", path: contact, body: H{"custom_attributes": H{"plan": "platinum", "made_up": true, "topic": "x"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.custom_attributes": H{"plan": "platinum", "seats": 5}},
			},
			{
				name:       "PATCH wrapped in a contact object works",
				request:    request{method: "PATCH", path: contact, body: H{"contact": H{"name": "Alice W."}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.name": "Alice W."},
			},
			{
				name:       "PATCH with an empty e-mail clears it",
				request:    request{method: "PATCH", path: contact, body: H{"email": ""}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.email": nil, "payload.phone_number": "+15550001234"},
			},
			{
				name:       "update ignores inbox_id: the contact keeps its one contact_inbox",
				request:    request{method: "PUT", path: contact, body: H{"inbox_id": api, "name": "Alice"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact_inboxes.#": 1, "payload.contact_inboxes.0.source_id": source},
			},
			{
				name:       "the show after the updates holds every change",
				request:    request{method: "GET", path: contact},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.name": "Alice", "payload.blocked": true, "payload.email": nil,
					"payload.custom_attributes":     H{"plan": "platinum", "seats": 5},
					"payload.additional_attributes": H{"city": "Paris", "company": "Acme"},
				},
			},
			{
				name:       "update of an unknown id is 404",
				request:    request{method: "PUT", path: a.path("/contacts/999999"), body: H{"name": "x"}},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "an agent may list contacts",
				request:    request{method: "GET", path: a.path("/contacts"), token: agent},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1},
			},
			{
				name:       "an agent may create a contact",
				request:    request{method: "POST", path: a.path("/contacts"), token: agent, body: H{"inbox_id": api, "name": "Made by agent"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.name": "Made by agent"},
			},
			{
				name:       "an agent may update a contact",
				request:    request{method: "PATCH", path: contact, token: agent, body: H{"name": "Alice (agent edit)"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.name": "Alice (agent edit)"},
			},
			{
				name:       "an agent may show a contact",
				request:    request{method: "GET", path: contact, token: agent},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.id": id},
			},
		})
	})
}

func TestContactDelete(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		id, _ := a.contact(api, H{"name": "Doomed", "email": "doomed@example.com"})
		conv := a.conversation(a.Account, api, id)
		_, agent := a.agent(a.Account)
		contact := a.path("/contacts/%d", id)
		a.run(t, []scenario{
			{
				name:       "an agent deleting a contact is 403",
				request:    request{method: "DELETE", path: contact, token: agent},
				wantStatus: http.StatusForbidden,
			},
			{
				name:       "the contact an agent failed to delete is still there",
				request:    request{method: "GET", path: contact},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.id": id},
			},
			{
				name:       "an administrator deleting a contact gets 200",
				request:    request{method: "DELETE", path: contact},
				wantStatus: http.StatusOK,
			},
			{
				name:       "a deleted contact is 404 on show",
				request:    request{method: "GET", path: contact},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "a deleted contact is 404 on delete",
				request:    request{method: "DELETE", path: contact},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "a deleted contact is 404 on its conversations",
				request:    request{method: "GET", path: contact + "/conversations"},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "a deleted contact is gone from the list",
				request:    request{method: "GET", path: a.path("/contacts")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0},
			},
			{
				name:       "its e-mail is free again",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "email": "doomed@example.com"}},
				wantStatus: http.StatusOK,
			},
		})
		n, err := a.srv.DB.Client.Conversation.Query().Count(sys())
		if err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("deleting a contact left %d conversation(s) (display id %d) behind", n, conv)
		}
	})
}

func TestContactConversations(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		lonely, _ := a.contact(api, H{"name": "Lonely"})
		busy, _ := a.contact(api, H{"name": "Busy", "email": "busy@example.com"})
		first := a.conversation(a.Account, api, busy)
		second := a.conversation(a.Account, api, busy)
		a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", second), body: H{"content": "Hello Busy"}}, http.StatusOK)
		a.run(t, []scenario{
			{
				name:       "a contact without conversations answers {payload: []}",
				request:    request{method: "GET", path: a.path("/contacts/%d/conversations", lonely)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "a contact's conversations are listed by display id, newest activity first, with the contact as sender and the last message",
				request:    request{method: "GET", path: a.path("/contacts/%d/conversations", busy)},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.*.id":                 []int{second, first},
					"payload.0.inbox_id":           api,
					"payload.0.account_id":         a.Account,
					"payload.0.status":             "open",
					"payload.0.meta.sender.id":     busy,
					"payload.0.meta.sender.name":   "Busy",
					"payload.0.created_at":         isoTime,
					"payload.0.uuid":               isUUID,
					"payload.0.messages.0.content": "Hello Busy",
					"payload.1.messages":           []any{},
				},
			},
			{
				name:       "conversations of an unknown contact is 404",
				request:    request{method: "GET", path: a.path("/contacts/999999/conversations")},
				wantStatus: http.StatusNotFound,
			},
		})
	})
}

func TestContactSearch(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		alice, _ := a.contact(api, H{"name": "Alice Smith", "email": "alice@example.com", "phone_number": "+15550001111", "identifier": "cust-001"})
		bob, _ := a.contact(api, H{"name": "Bob Jones", "email": "bob@work.test", "phone_number": "+447700900123"})
		carol, _ := a.contact(api, H{"name": "Carol", "email": "carol@example.com", "identifier": "VIP-7"})
		search := func(q string) request { return request{method: "GET", path: a.path("/contacts/search?%s", q)} }
		found := func(name, q string, ids ...any) scenario {
			return scenario{name: name, request: search(q), wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": sameItems(ids...), "meta.count": len(ids)}}
		}
		a.run(t, []scenario{
			{
				name:       "search answers {meta: {count, current_page, has_more}, payload}",
				request:    search("q=alice"),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"meta.count": 1, "meta.current_page": 1, "meta.has_more": false,
					"payload.0.id": alice, "payload.0.contact_inboxes.#": 1,
				},
			},
			found("search matches the name ignoring case", "q=ALICE", alice),
			found("search matches part of the name", "q=jon", bob),
			found("search matches the e-mail ignoring case", "q=EXAMPLE.COM", alice, carol),
			found("search matches the phone number", "q=5550001111", alice),
			found("search matches a phone number with its plus", "q=%2B44770", bob),
			found("search matches the identifier ignoring case", "q=vip-7", carol),
			found("search matches the identifier", "q=cust-001", alice),
			found("search with no match is empty", "q=zebra", []any{}...),
			{
				name:       "search takes sort",
				request:    search("q=example&sort=-name"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": []int{carol, alice}},
			},
			{
				name:        "search with an unknown sort is 422 naming sort",
				request:     search("q=example&sort=height"),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"sort"},
			},
			{
				name:        "search with a blank q is 422 naming q",
				request:     search("q="),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"q"},
			},
			{
				name:        "search with only spaces in q is 422 naming q",
				request:     search("q=%20%20"),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"q"},
			},
			{
				name:        "search without q is 422 naming q",
				request:     request{method: "GET", path: a.path("/contacts/search")},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"q"},
			},
			{
				name:       "search treats % and _ in q as text",
				request:    search("q=%25"),
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 0},
			},
		})
	})
}

func TestContactSearchPaging(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		for i := range 16 {
			a.contact(api, H{"name": fmt.Sprintf("Match %02d", i)})
		}
		a.contact(api, H{"name": "Other"})
		a.run(t, []scenario{
			{
				name:       "search page 1 of 16 matches has 15 and has_more",
				request:    request{method: "GET", path: a.path("/contacts/search?q=match&sort=name")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 15, "meta.has_more": true, "meta.current_page": 1, "payload.0.name": "Match 00"},
			},
			{
				name:       "search page 2 has the last match and no more",
				request:    request{method: "GET", path: a.path("/contacts/search?q=match&sort=name&page=2")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 1, "meta.has_more": false, "meta.current_page": 2, "payload.0.name": "Match 15"},
			},
		})
	})
}

func TestContactFilter(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		a.customAttribute("plan", "text", "contact_attribute")
		a.customAttribute("seats", "number", "contact_attribute")
		a.customAttribute("vip", "checkbox", "contact_attribute")
		a.customAttribute("topic", "text", "conversation_attribute")
		alice, _ := a.contact(api, H{"name": "Alice", "email": "alice@example.com", "identifier": "ext-a",
			"additional_attributes": H{"city": "Paris", "company": "Acme", "country_code": "FR"},
			"custom_attributes":     H{"plan": "gold", "seats": 10, "vip": true}})
		bob, _ := a.contact(api, H{"name": "Bob", "email": "bob@work.test",
			"additional_attributes": H{"city": "Berlin"},
			"custom_attributes":     H{"plan": "silver", "seats": 3, "vip": false}})
		carol, _ := a.contact(api, H{"name": "Carol", "phone_number": "+447700900123", "blocked": true})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", alice), body: H{"labels": []string{"vip"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", bob), body: H{"labels": []string{"lead", "trial"}}}, http.StatusOK)

		cond := func(key, op string, values ...any) H {
			return H{"attribute_key": key, "filter_operator": op, "values": values, "query_operator": nil}
		}
		join := func(c H, op string) H { c["query_operator"] = op; return c }
		filter := func(conds ...H) request {
			return request{method: "POST", path: a.path("/contacts/filter"), body: H{"payload": conds}}
		}
		found := func(name string, rq request, ids ...any) scenario {
			return scenario{name: name, request: rq, wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.id": sameItems(ids...), "meta.count": len(ids), "meta.current_page": 1}}
		}
		invalid := func(name string, rq request, field string) scenario {
			return scenario{name: name, request: rq, wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{field}}
		}
		tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format("2006-01-02")
		a.run(t, []scenario{
			found("filter email contains", filter(cond("email", "contains", "example.com")), alice),
			found("filter name equal_to ignores case", filter(cond("name", "equal_to", "alice")), alice),
			found("filter name not_equal_to", filter(cond("name", "not_equal_to", "Alice")), bob, carol),
			found("filter email does_not_contain keeps contacts without an e-mail", filter(cond("email", "does_not_contain", "example.com")), bob, carol),
			found("filter phone_number starts_with", filter(cond("phone_number", "starts_with", "+44")), carol),
			found("filter identifier equal_to", filter(cond("identifier", "equal_to", "ext-a")), alice),
			found("filter AND: both conditions must hold", filter(join(cond("name", "contains", "o"), "AND"), cond("labels", "equal_to", "lead")), bob),
			found("filter OR: either condition may hold", filter(join(cond("name", "equal_to", "Alice"), "OR"), cond("name", "equal_to", "Carol")), alice, carol),
			found("filter lower-case query operators are accepted", filter(join(cond("name", "equal_to", "Alice"), "or"), cond("name", "equal_to", "Bob")), alice, bob),
			found("filter AND binds tighter than OR", filter(
				join(cond("name", "equal_to", "Alice"), "AND"), join(cond("labels", "equal_to", "lead"), "OR"), cond("name", "equal_to", "Carol")), carol),
			found("filter labels equal_to", filter(cond("labels", "equal_to", "vip")), alice),
			found("filter labels equal_to matches any of the values", filter(cond("labels", "equal_to", "vip", "trial")), alice, bob),
			found("filter labels not_equal_to", filter(cond("labels", "not_equal_to", "vip")), bob, carol),
			found("filter labels is_present", filter(cond("labels", "is_present")), alice, bob),
			found("filter labels is_not_present", filter(cond("labels", "is_not_present")), carol),
			found("filter created_at is_greater_than a past date matches all", filter(cond("created_at", "is_greater_than", "2000-01-01")), alice, bob, carol),
			found("filter created_at is_greater_than tomorrow matches none", filter(cond("created_at", "is_greater_than", tomorrow))),
			found("filter created_at is_less_than tomorrow matches all", filter(cond("created_at", "is_less_than", tomorrow)), alice, bob, carol),
			found("filter last_activity_at days_before 1 matches none of today's contacts", filter(cond("last_activity_at", "days_before", "1"))),
			found("filter additional attribute city equal_to", filter(cond("city", "equal_to", "Paris")), alice),
			found("filter additional attribute country_code equal_to", filter(cond("country_code", "equal_to", "FR")), alice),
			found("filter additional attribute company contains, ignoring case", filter(cond("company", "contains", "aCM")), alice),
			found("filter additional attribute city does_not_contain, ignoring case, keeps contacts without it", filter(cond("city", "does_not_contain", "PAR")), bob, carol),
			found("filter additional attribute city not_equal_to keeps contacts without it", filter(cond("city", "not_equal_to", "Paris")), bob, carol),
			found("filter additional attribute contains treats % as text", filter(cond("company", "contains", "%"))),
			found("filter blocked equal_to true", filter(cond("blocked", "equal_to", true)), carol),
			found("filter custom attribute equal_to", filter(cond("plan", "equal_to", "gold")), alice),
			found("filter custom attribute is_present", filter(cond("plan", "is_present")), alice, bob),
			found("filter custom attribute is_not_present", filter(cond("plan", "is_not_present")), carol),
			found("filter custom attribute contains", filter(cond("plan", "contains", "OLD")), alice),
			found("filter custom number attribute equal_to a number", filter(cond("seats", "equal_to", 10)), alice),
			found("filter custom number attribute equal_to a numeric string", filter(cond("seats", "equal_to", "10")), alice),
			found("filter custom number attribute not_equal_to keeps contacts without it", filter(cond("seats", "not_equal_to", 10)), bob, carol),
			found("filter custom checkbox attribute equal_to true", filter(cond("vip", "equal_to", true)), alice),
			found("filter custom checkbox attribute equal_to \"false\"", filter(cond("vip", "equal_to", "false")), bob),
			found("filter custom number attribute is_greater_than", filter(cond("seats", "is_greater_than", 5)), alice),
			found("filter custom number attribute is_less_than a string number", filter(cond("seats", "is_less_than", "5")), bob),
			invalid("filter on an unknown attribute_key is 422 naming attribute_key", filter(cond("shoe_size", "equal_to", "42")), "attribute_key"),
			invalid("filter on a conversation custom attribute is 422 naming attribute_key", filter(cond("topic", "equal_to", "x")), "attribute_key"),
			invalid("filter with an operator the key does not allow is 422 naming filter_operator", filter(cond("identifier", "contains", "ext")), "filter_operator"),
			invalid("filter with a made-up operator is 422 naming filter_operator", filter(cond("name", "resembles", "Al")), "filter_operator"),
			invalid("filter with a bad query_operator is 422 naming query_operator", filter(join(cond("name", "equal_to", "Alice"), "XOR"), cond("name", "equal_to", "Bob")), "query_operator"),
			invalid("filter without values is 422 naming values", filter(cond("name", "equal_to")), "values"),
			invalid("filter with a date that is not a date is 422 naming values", filter(cond("created_at", "is_greater_than", "yesterday-ish")), "values"),
			invalid("filter with an empty payload is 422 naming payload", filter(), "payload"),
			{
				name:       "filter takes page: page 2 of three matches is empty",
				request:    request{method: "POST", path: a.path("/contacts/filter?page=2"), body: H{"payload": []H{cond("created_at", "is_greater_than", "2000-01-01")}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}, "meta.count": 3, "meta.current_page": 2},
			},
			{
				name:       "filter with values that are not a list is 422",
				request:    request{method: "POST", path: a.path("/contacts/filter"), body: H{"payload": []H{{"attribute_key": "name", "filter_operator": "equal_to", "values": "Alice"}}}},
				wantStatus: http.StatusUnprocessableEntity,
			},
			{
				name:       "filter with malformed JSON is 400",
				request:    request{method: "POST", path: a.path("/contacts/filter"), body: `{"payload": [`},
				wantStatus: http.StatusBadRequest,
			},
		})
	})
}

func TestContactInboxes(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API one")
		api2 := a.apiInbox("API two")
		wa := a.inbox("WhatsApp", whatsappChannel("+15550009999"))
		otherAccount, otherAdmin := a.otherAccount("Globex")
		foreign := a.inboxIn(otherAccount, otherAdmin, "Globex API", H{"type": "api"})
		id, firstSource := a.contact(api, H{"name": "Alice", "phone_number": "+15550001234"})
		noPhone, _ := a.contact(api, H{"name": "No Phone"})
		path := a.path("/contacts/%d/contact_inboxes", id)

		var second string
		a.run(t, []scenario{
			{
				name:       "associating another inbox answers {source_id, inbox} with a new UUID",
				request:    request{method: "POST", path: path, body: H{"inbox_id": api2}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"source_id": isUUID, "inbox.id": api2, "inbox.name": "API two", "inbox.channel_type": "Channel::Api"},
				check:      func(t *testing.T, r *response) { second = r.str(t, "source_id") },
			},
			{
				name:       "associating the same inbox again yields another new source_id",
				request:    request{method: "POST", path: path, body: H{"inbox_id": api2}},
				wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) {
					if got := r.str(t, "source_id"); got == second || got == firstSource {
						t.Errorf("second association of the inbox reused source_id %q", got)
					}
				},
			},
			{
				name:       "associating with an explicit source_id keeps it",
				request:    request{method: "POST", path: path, body: H{"inbox_id": api, "source_id": "my-source"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"source_id": "my-source", "inbox.id": api},
			},
			{
				name:       "associating a WhatsApp inbox uses the contact's phone number",
				request:    request{method: "POST", path: path, body: H{"inbox_id": wa}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"source_id": "+15550001234", "inbox.id": wa},
			},
			{
				name:        "a source_id already used in that inbox is 422 naming source_id",
				request:     request{method: "POST", path: path, body: H{"inbox_id": api, "source_id": "my-source"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"source_id"},
			},
			{
				name:        "a source_id used by another contact in that inbox is 422 naming source_id",
				request:     request{method: "POST", path: a.path("/contacts/%d/contact_inboxes", noPhone), body: H{"inbox_id": api, "source_id": firstSource}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"source_id"},
			},
			{
				name:        "a WhatsApp inbox for a contact without phone number is 422 naming phone_number",
				request:     request{method: "POST", path: a.path("/contacts/%d/contact_inboxes", noPhone), body: H{"inbox_id": wa}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"phone_number"},
			},
			{
				name:        "an inbox of another account is 422 naming inbox_id",
				request:     request{method: "POST", path: path, body: H{"inbox_id": foreign}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"inbox_id"},
			},
			{
				name:        "without inbox_id is 422 naming inbox_id",
				request:     request{method: "POST", path: path, body: H{"source_id": "x"}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"inbox_id"},
			},
			{
				name:       "for an unknown contact is 404",
				request:    request{method: "POST", path: a.path("/contacts/999999/contact_inboxes"), body: H{"inbox_id": api}},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "the contact now lists all five contact inboxes",
				request:    request{method: "GET", path: a.path("/contacts/%d", id)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact_inboxes.#": 5},
				check: func(t *testing.T, r *response) {
					got, _ := r.get("payload.contact_inboxes.*.source_id")
					if msg := contains(firstSource, second, "my-source", "+15550001234")(got, true); msg != "" {
						t.Errorf("contact_inboxes source ids: %s", msg)
					}
				},
			},
		})
	})
}

func TestContactableInboxes(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		wa := a.inbox("WhatsApp", whatsappChannel("+15550009999"))
		mail := a.inbox("Mail", emailChannel("support@acme.test"))
		emailOnly, apiSource := a.contact(api, H{"name": "Mail person", "email": "mail@example.com"})
		phoneOnly, waSource := a.contact(wa, H{"name": "Phone person", "phone_number": "+15550001234"})
		a.run(t, []scenario{
			{
				name:       "contactable inboxes of a contact with an e-mail: its API inbox (with its source_id) and the e-mail inbox, not WhatsApp",
				request:    request{method: "GET", path: a.path("/contacts/%d/contactable_inboxes", emailOnly)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.inbox.id": sameItems(api, mail), "payload.*.source_id": contains(apiSource, "mail@example.com")},
			},
			{
				name:       "contactable inboxes of a contact with a phone: its WhatsApp inbox and the API inbox, not e-mail",
				request:    request{method: "GET", path: a.path("/contacts/%d/contactable_inboxes", phoneOnly)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.inbox.id": sameItems(api, wa), "payload.*.source_id": contains(waSource)},
			},
			{
				name:       "contactable inboxes of an unknown contact is 404",
				request:    request{method: "GET", path: a.path("/contacts/999999/contactable_inboxes")},
				wantStatus: http.StatusNotFound,
			},
		})
	})
}

func TestContactLabels(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		id, _ := a.contact(api, H{"name": "Alice"})
		_, agent := a.agent(a.Account)
		labels := a.path("/contacts/%d/labels", id)
		a.run(t, []scenario{
			{
				name:       "a new contact has no labels",
				request:    request{method: "GET", path: labels},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "setting labels answers the new list",
				request:    request{method: "POST", path: labels, body: H{"labels": []string{"vip", "lead"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("vip", "lead")},
			},
			{
				name:       "the labels read back",
				request:    request{method: "GET", path: labels},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("vip", "lead")},
			},
			{
				name:       "the sent list replaces the set",
				request:    request{method: "POST", path: labels, body: H{"labels": []string{"churned"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []string{"churned"}},
			},
			{
				name:       "any strings are accepted, whether or not label records exist",
				request:    request{method: "POST", path: labels, body: H{"labels": []string{"no-such-label", "Mixed Case with spaces", "ünïcödé"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("no-such-label", "Mixed Case with spaces", "ünïcödé")},
			},
			{
				name:       "the contact shows its labels",
				request:    request{method: "GET", path: a.path("/contacts/%d", id)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.labels": sameItems("no-such-label", "Mixed Case with spaces", "ünïcödé")},
			},
			{
				name:       "an agent may set labels",
				request:    request{method: "POST", path: labels, token: agent, body: H{"labels": []string{"agent-set"}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []string{"agent-set"}},
			},
			{
				name:       "an empty list clears the labels",
				request:    request{method: "POST", path: labels, body: H{"labels": []string{}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:       "the cleared labels read back empty",
				request:    request{method: "GET", path: labels},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": []any{}},
			},
			{
				name:        "a body without labels is 422 naming labels",
				request:     request{method: "POST", path: labels, body: H{}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"labels"},
			},
			{
				name:       "labels of an unknown contact is 404 on read",
				request:    request{method: "GET", path: a.path("/contacts/999999/labels")},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "labels of an unknown contact is 404 on write",
				request:    request{method: "POST", path: a.path("/contacts/999999/labels"), body: H{"labels": []string{"x"}}},
				wantStatus: http.StatusNotFound,
			},
		})
	})
}

func TestContactMerge(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		api2 := a.apiInbox("API two")
		a.customAttribute("plan", "text", "contact_attribute")
		a.customAttribute("tier", "text", "contact_attribute")
		base, baseSource := a.contact(api, H{"name": "Base", "email": "base@example.com",
			"custom_attributes": H{"plan": "gold"}, "additional_attributes": H{"city": "Paris"}})
		mergee, mergeeSource := a.contact(api2, H{"name": "Mergee", "email": "mergee@example.com", "phone_number": "+15550001234",
			"identifier": "ext-m", "custom_attributes": H{"plan": "silver", "tier": "2"}, "additional_attributes": H{"city": "Rome", "company": "Acme"}})
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", base), body: H{"labels": []string{"b1", "shared"}}}, http.StatusOK)
		a.mustDo(request{method: "POST", path: a.path("/contacts/%d/labels", mergee), body: H{"labels": []string{"m1", "shared"}}}, http.StatusOK)
		baseConv := a.conversation(a.Account, api, base)
		mergeeConv := a.conversation(a.Account, api2, mergee)
		mergeeSchedule := a.mustDo(request{method: "POST", path: a.path("/scheduled_messages"), body: H{
			"inbox_id": api2, "contact_id": mergee, "content": "later", "scheduled_at": inAnHour()}}, http.StatusOK).int(t, "id")
		third, _ := a.contact(api, H{"name": "Third"})
		_, agent := a.agent(a.Account)
		merge := func(body any) request {
			return request{method: "POST", path: a.path("/actions/contact_merge"), body: body}
		}

		a.run(t, []scenario{
			{
				name:       "merge answers the base contact, unwrapped, with empty fields filled from the mergee",
				request:    merge(H{"base_contact_id": base, "mergee_contact_id": mergee}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id":                    base,
					"name":                  "Base",
					"email":                 "base@example.com",
					"phone_number":          "+15550001234",
					"identifier":            "ext-m",
					"custom_attributes":     H{"plan": "gold", "tier": "2"},
					"additional_attributes": H{"city": "Paris", "company": "Acme"},
					"labels":                sameItems("b1", "shared", "m1"),
				},
			},
			{
				name:       "the mergee is gone",
				request:    request{method: "GET", path: a.path("/contacts/%d", mergee)},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "the mergee's contact inboxes moved to the base",
				request:    request{method: "GET", path: a.path("/contacts/%d", base)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact_inboxes.*.source_id": sameItems(baseSource, mergeeSource)},
			},
			{
				name:       "the mergee's conversations moved to the base",
				request:    request{method: "GET", path: a.path("/contacts/%d/conversations", base)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.*.id": sameItems(baseConv, mergeeConv), "payload.*.meta.sender.id": []int{base, base}},
			},
			{
				name:       "the mergee's scheduled messages moved to the base",
				request:    request{method: "GET", path: a.path("/scheduled_messages/%d", mergeeSchedule)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"contact_id": base},
			},
			{
				name:       "the mergee's labels moved to the base",
				request:    request{method: "GET", path: a.path("/contacts/%d/labels", base)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("b1", "shared", "m1")},
			},
			{
				name:       "the list no longer holds the mergee",
				request:    request{method: "GET", path: a.path("/contacts")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 2, "payload.*.id": sameItems(base, third)},
			},
			{
				name:        "merging a contact into itself is 422",
				request:     merge(H{"base_contact_id": base, "mergee_contact_id": base}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"mergee_contact_id"},
			},
			{
				name:       "merging the deleted mergee again is 404",
				request:    merge(H{"base_contact_id": base, "mergee_contact_id": mergee}),
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "merging into an unknown base is 404",
				request:    merge(H{"base_contact_id": 999999, "mergee_contact_id": third}),
				wantStatus: http.StatusNotFound,
			},
			{
				name:        "merge without ids is 422 naming both",
				request:     merge(H{}),
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"base_contact_id", "mergee_contact_id"},
			},
			{
				name:       "merge takes ids sent as strings",
				request:    request{method: "POST", path: a.path("/actions/contact_merge"), token: agent, body: H{"base_contact_id": fmt.Sprint(base), "mergee_contact_id": fmt.Sprint(third)}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": base},
			},
			{
				name:       "after an agent's merge only the base is left",
				request:    request{method: "GET", path: a.path("/contacts")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 1, "payload.0.id": base},
			},
		})
	})
}

// TestRequestFormats covers how bodies, paths and query strings are read,
// through the contacts routes.
func TestRequestFormats(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		a.customAttribute("plan", "text", "contact_attribute")
		existing, _ := a.contact(api, H{"name": "Existing", "blocked": true})
		a.run(t, []scenario{
			{
				name:       "malformed JSON is 400 with an error",
				request:    request{method: "POST", path: a.path("/contacts"), body: `{"inbox_id": 1, "name": `},
				wantStatus: http.StatusBadRequest,
			},
			{
				name:       "a JSON array body is 400 with an error",
				request:    request{method: "POST", path: a.path("/contacts"), body: `[1, 2]`},
				wantStatus: http.StatusBadRequest,
			},
			{
				name:       "malformed JSON on update is 400 with an error",
				request:    request{method: "PUT", path: a.path("/contacts/%d", existing), body: `{"name"}`},
				wantStatus: http.StatusBadRequest,
			},
			{
				name:       "an unknown route is 404 JSON",
				request:    request{method: "GET", path: "/no/such/route"},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "an unknown route under the account is 404 JSON",
				request:    request{method: "GET", path: a.path("/no_such_resource")},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "an unknown API version is 404 JSON",
				request:    request{method: "GET", path: fmt.Sprintf("/api/v9/accounts/%d/contacts", a.Account)},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "a trailing slash is accepted on POST /contacts/",
				request:    request{method: "POST", path: a.path("/contacts/"), body: H{"inbox_id": api, "name": "Slash"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.name": "Slash"},
			},
			{
				name:       "a trailing slash is accepted on GET /contacts/",
				request:    request{method: "GET", path: a.path("/contacts/")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"meta.count": 2},
			},
			{
				name:       "a trailing slash is accepted on GET /contacts/{id}/",
				request:    request{method: "GET", path: a.path("/contacts/%d/", existing)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.id": existing},
			},
			{
				name:       "a JSON body without Content-Type is read as JSON",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "No CT", "email": "noct@example.com"}, contentType: noContentType},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.name": "No CT", "payload.contact.email": "noct@example.com"},
			},
			{
				name:       "a JSON body sent as a url-encoded form (curl -d) is read as JSON",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "Curl"}, contentType: "application/x-www-form-urlencoded"},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.name": "Curl"},
			},
			{
				name:       "a JSON body with a charset in Content-Type is read",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "Charset"}, contentType: "application/json; charset=utf-8"},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.name": "Charset"},
			},
			{
				name:       "a url-encoded form body is read",
				request:    request{method: "POST", path: a.path("/contacts"), body: fmt.Sprintf("inbox_id=%d&name=Form+Person&blocked=true&additional_attributes[city]=Oslo", api), contentType: "application/x-www-form-urlencoded"},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.name": "Form Person", "payload.contact.blocked": true, "payload.contact.additional_attributes": H{"city": "Oslo"}},
			},
			{
				name: "a multipart body carries booleans as \"true\" and objects as JSON strings",
				request: request{method: "POST", path: a.path("/contacts"), body: fields(
					"inbox_id", fmt.Sprint(api), "name", "Multi Part", "blocked", "true",
					"custom_attributes", `{"plan":"gold","undefined":1}`, "additional_attributes", `{"city":"Rome"}`)},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.contact.name": "Multi Part", "payload.contact.blocked": true,
					"payload.contact.custom_attributes":     H{"plan": "gold"},
					"payload.contact.additional_attributes": H{"city": "Rome"},
				},
			},
			{
				name:       "a multipart update carries \"false\"",
				request:    request{method: "PUT", path: a.path("/contacts/%d", existing), body: fields("blocked", "false", "name", "Existing Multi")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.blocked": false, "payload.name": "Existing Multi"},
			},
			{
				name: "a multipart body with an avatar file and fields is read",
				request: request{method: "PATCH", path: a.path("/contacts/%d", existing),
					body: fields("name", "With Avatar").file("avatar", "a.png", "image/png", []byte("\x89PNG\r\n\x1a\n"))},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.name": "With Avatar"},
			},
			{
				name:        "a multipart boolean that is not true/false is 422 naming blocked",
				request:     request{method: "PUT", path: a.path("/contacts/%d", existing), body: fields("blocked", "maybe")},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"blocked"},
			},
			{
				name:        "a multipart object that is not JSON is 422 naming custom_attributes",
				request:     request{method: "PUT", path: a.path("/contacts/%d", existing), body: fields("custom_attributes", "plan=gold")},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"custom_attributes"},
			},
			{
				name:        "a JSON field of the wrong type is 422 naming it",
				request:     request{method: "PATCH", path: a.path("/contacts/%d", existing), body: H{"name": 42}},
				wantStatus:  http.StatusUnprocessableEntity,
				wantInvalid: []string{"name"},
			},
			{
				name:       "a JSON boolean sent as the string \"true\" is accepted",
				request:    request{method: "PATCH", path: a.path("/contacts/%d", existing), body: H{"blocked": "true"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.blocked": true},
			},
			{
				name:       "a JSON object sent as a JSON string is accepted",
				request:    request{method: "PATCH", path: a.path("/contacts/%d", existing), body: H{"custom_attributes": `{"plan":"silver"}`}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.custom_attributes": H{"plan": "silver"}},
			},
			{
				name:       "labels sent as a comma-separated string are a list",
				request:    request{method: "POST", path: a.path("/contacts/%d/labels", existing), body: H{"labels": "a,b"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("a", "b")},
			},
			{
				name:       "labels sent as multipart labels[] are a list",
				request:    request{method: "POST", path: a.path("/contacts/%d/labels", existing), body: fields("labels[]", "x", "labels[]", "y")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload": sameItems("x", "y")},
			},
		})
	})
}
