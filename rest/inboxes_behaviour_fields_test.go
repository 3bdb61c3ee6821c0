package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

func TestInboxBehaviourFields(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		plain := a.apiInbox("Plain")
		all := H{
			"greeting_enabled": true, "greeting_message": "Hi there", "enable_auto_assignment": false,
			"csat_survey_enabled": true, "working_hours_enabled": true, "timezone": "America/Sao_Paulo",
			"allow_messages_after_resolved": false, "lock_to_single_conversation": true,
			"sender_name_type": "professional", "business_name": "Acme Corp",
		}
		defaults := map[string]any{
			"greeting_enabled": false, "greeting_message": "", "enable_auto_assignment": true,
			"csat_survey_enabled": false, "working_hours_enabled": false, "timezone": "UTC",
			"allow_messages_after_resolved": true, "lock_to_single_conversation": false,
			"sender_name_type": "friendly", "business_name": "",
		}
		body := H{"name": "Configured", "channel": H{"type": "api"}}
		for k, v := range all {
			body[k] = v
		}
		var configured int
		show := func(id int) request { return request{method: "GET", path: a.path("/inboxes/%d", id)} }
		patch := func(id int, b H) request { return request{method: "PATCH", path: a.path("/inboxes/%d", id), body: b} }
		a.run(t, []scenario{
			{
				name:       "create stores every behaviour field with its type",
				request:    request{method: "POST", path: a.path("/inboxes"), body: body},
				wantStatus: http.StatusOK,
				want:       all,
				check:      func(t *testing.T, r *response) { configured = r.int(t, "id") },
			},
			{
				name:       "an inbox created without them has the defaults, with their types",
				request:    show(plain),
				wantStatus: http.StatusOK,
				want:       defaults,
			},
		})
		a.run(t, []scenario{
			{
				name:       "show answers the stored behaviour fields",
				request:    show(configured),
				wantStatus: http.StatusOK,
				want:       all,
			},
			{
				name:       "the list answers them too",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want: map[string]any{
					"payload.1.id": configured, "payload.1.timezone": "America/Sao_Paulo", "payload.1.csat_survey_enabled": true,
					"payload.1.working_hours_enabled": true, "payload.1.lock_to_single_conversation": true,
				},
			},
			{
				name: "PATCH sets every behaviour field",
				request: patch(plain, H{
					"name": "Plain renamed", "greeting_enabled": true, "greeting_message": "Hello", "enable_auto_assignment": false,
					"csat_survey_enabled": true, "working_hours_enabled": true, "timezone": "Europe/Berlin",
					"allow_messages_after_resolved": false, "lock_to_single_conversation": true,
					"sender_name_type": "professional", "business_name": "Plain Co",
				}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"name": "Plain renamed", "greeting_enabled": true, "greeting_message": "Hello", "enable_auto_assignment": false,
					"csat_survey_enabled": true, "working_hours_enabled": true, "timezone": "Europe/Berlin",
					"allow_messages_after_resolved": false, "lock_to_single_conversation": true,
					"sender_name_type": "professional", "business_name": "Plain Co",
				},
			},
			{
				name:       "PATCH of one field leaves the others",
				request:    patch(plain, H{"csat_survey_enabled": false}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"csat_survey_enabled": false, "timezone": "Europe/Berlin", "name": "Plain renamed", "sender_name_type": "professional"},
			},
			{
				name:       "PATCH accepts booleans as strings (form clients)",
				request:    patch(plain, H{"working_hours_enabled": "false", "greeting_enabled": "false"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"working_hours_enabled": false, "greeting_enabled": false},
			},
			{
				name:       "PATCH sender_name_type back to friendly",
				request:    patch(plain, H{"sender_name_type": "friendly"}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"sender_name_type": "friendly"},
			},
			invalid("PATCH with another channel type is 422 naming channel.type",
				patch(plain, H{"channel": H{"type": "email", "email": "x@acme.test"}}), "channel.type"),
			invalid("PATCH with timezone Mars/Olympus is 422 naming timezone", patch(plain, H{"timezone": "Mars/Olympus"}), "timezone"),
			invalid("PATCH with an empty timezone is 422 naming timezone", patch(plain, H{"timezone": ""}), "timezone"),
			invalid("PATCH with sender_name_type casual is 422 naming sender_name_type", patch(plain, H{"sender_name_type": "casual"}), "sender_name_type"),
			invalid("PATCH with a blank name is 422 naming name", patch(plain, H{"name": " "}), "name"),
			invalid("PATCH with a boolean that is not one is 422 naming it", patch(plain, H{"greeting_enabled": "maybe"}), "greeting_enabled"),
			invalid("create with timezone Mars/Olympus is 422 naming timezone",
				request{method: "POST", path: a.path("/inboxes"), body: H{"name": "Mars", "channel": H{"type": "api"}, "timezone": "Mars/Olympus"}}, "timezone"),
			invalid("create with sender_name_type casual is 422 naming sender_name_type",
				request{method: "POST", path: a.path("/inboxes"), body: H{"name": "Casual", "channel": H{"type": "api"}, "sender_name_type": "casual"}}, "sender_name_type"),
			{
				name:       "the refused PATCHes changed nothing",
				request:    show(plain),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"name": "Plain renamed", "timezone": "Europe/Berlin", "sender_name_type": "friendly",
					"greeting_enabled": false, "business_name": "Plain Co",
				},
			},
			{
				name:       "the refused creates created nothing",
				request:    request{method: "GET", path: a.path("/inboxes")},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.#": 2},
			},
		})
	})
}
