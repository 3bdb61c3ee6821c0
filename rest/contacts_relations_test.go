package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

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
