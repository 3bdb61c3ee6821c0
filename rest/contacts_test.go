package rest_test

import (
	"net/http"
	"testing"

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
