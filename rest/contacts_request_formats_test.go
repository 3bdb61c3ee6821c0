package rest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

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
