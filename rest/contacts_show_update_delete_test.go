package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

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
