package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Custom attribute definitions: administrators' CRUD in Chatwoot's shape, and
// their effect on contacts' custom_attributes.

func TestCustomAttributeDefinitions(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		api := a.apiInbox("API")
		defs := a.path("/custom_attribute_definitions")
		define := func(body H) request { return request{method: "POST", path: defs, body: body} }
		def := func(key, displayType, model string) H {
			return H{"attribute_display_name": "Display " + key, "attribute_key": key, "attribute_display_type": displayType, "attribute_model": model}
		}
		invalid := func(name string, rq request, field string) scenario {
			return scenario{name: name, request: rq, wantStatus: http.StatusUnprocessableEntity, wantInvalid: []string{field}}
		}
		var planID, tierID int
		a.run(t, []scenario{
			{
				name:       "the list of a new account is an empty bare array",
				request:    request{method: "GET", path: defs},
				wantStatus: http.StatusOK,
				want:       map[string]any{"": []any{}},
			},
			{
				name:       "create a contact attribute answers the definition",
				request:    define(H{"attribute_display_name": "Plan", "attribute_key": "plan", "attribute_display_type": "list", "attribute_model": "contact_attribute", "attribute_description": "Billing plan", "attribute_values": []string{"gold", "silver"}}),
				wantStatus: http.StatusOK,
				want: map[string]any{
					"id": present, "attribute_display_name": "Plan", "attribute_key": "plan", "attribute_display_type": "list",
					"attribute_model": "contact_attribute", "attribute_description": "Billing plan", "attribute_values": []string{"gold", "silver"},
					"created_at": isoTime,
				},
				check: func(t *testing.T, r *response) { planID = r.int(t, "id") },
			},
			{
				name:       "create a conversation attribute",
				request:    define(def("topic", "text", "conversation_attribute")),
				wantStatus: http.StatusOK,
				want:       map[string]any{"attribute_model": "conversation_attribute"},
			},
			{
				// Chatwoot's enums: attribute_model contact_attribute is 1, display type number is 1.
				name: "create wrapped in custom_attribute_definition, with the integers attribute_model 1 and display type 1, is a contact number attribute",
				request: define(H{"custom_attribute_definition": H{"attribute_display_name": "Tier", "attribute_key": "tier",
					"attribute_display_type": 1, "attribute_model": 1}}),
				wantStatus: http.StatusOK,
				want:       map[string]any{"attribute_key": "tier", "attribute_model": "contact_attribute", "attribute_display_type": "number"},
				check:      func(t *testing.T, r *response) { tierID = r.int(t, "id") },
			},
			{
				name:       "the same key in the other model is allowed",
				request:    define(def("plan", "text", "conversation_attribute")),
				wantStatus: http.StatusOK,
			},
			invalid("a duplicate key in the same model is 422 naming attribute_key", define(def("plan", "text", "contact_attribute")), "attribute_key"),
			invalid("a bad display type is 422 naming attribute_display_type", define(def("color", "rainbow", "contact_attribute")), "attribute_display_type"),
			invalid("a display type integer past checkbox (7) is 422 naming attribute_display_type", define(H{"attribute_display_name": "C", "attribute_key": "color", "attribute_display_type": 8, "attribute_model": 1}), "attribute_display_type"),
			invalid("attribute_model 2 (Chatwoot's company_attribute, not supported) is 422 naming attribute_model", define(H{"attribute_display_name": "C", "attribute_key": "color", "attribute_display_type": 0, "attribute_model": 2}), "attribute_model"),
			invalid("a key with spaces is 422 naming attribute_key", define(def("two words", "text", "contact_attribute")), "attribute_key"),
			invalid("a key with a quote is 422 naming attribute_key", define(def("x'y", "text", "contact_attribute")), "attribute_key"),
			invalid("a bad model is 422 naming attribute_model", define(def("color", "text", "account_attribute")), "attribute_model"),
			invalid("a missing key is 422 naming attribute_key", define(H{"attribute_display_name": "No key", "attribute_display_type": "text", "attribute_model": "contact_attribute"}), "attribute_key"),
			invalid("a missing display name is 422 naming attribute_display_name", define(H{"attribute_key": "noname", "attribute_display_type": "text", "attribute_model": "contact_attribute"}), "attribute_display_name"),
			{
				name:       "the list is a bare array of every definition",
				request:    request{method: "GET", path: defs},
				wantStatus: http.StatusOK,
				want:       map[string]any{"#": 4, "*.attribute_key": []string{"plan", "topic", "tier", "plan"}},
			},
			{
				name:       "attribute_model=contact_attribute lists the contact ones",
				request:    request{method: "GET", path: defs + "?attribute_model=contact_attribute"},
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.attribute_key": []string{"plan", "tier"}},
			},
			{
				name:       "attribute_model=conversation_attribute lists the conversation ones",
				request:    request{method: "GET", path: defs + "?attribute_model=conversation_attribute"},
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.attribute_key": []string{"topic", "plan"}, "*.attribute_model": []string{"conversation_attribute", "conversation_attribute"}},
			},
			{
				name:       "attribute_model=0 lists the conversation ones, as Chatwoot's enum numbers them",
				request:    request{method: "GET", path: defs + "?attribute_model=0"},
				wantStatus: http.StatusOK,
				want:       map[string]any{"*.attribute_key": []string{"topic", "plan"}},
			},
			invalid("an unknown attribute_model filter is 422 naming attribute_model", request{method: "GET", path: defs + "?attribute_model=planet"}, "attribute_model"),
		})
		a.run(t, []scenario{
			{
				name:       "show answers the definition",
				request:    request{method: "GET", path: a.path("/custom_attribute_definitions/%d", planID)},
				wantStatus: http.StatusOK,
				want:       map[string]any{"id": planID, "attribute_key": "plan", "attribute_model": "contact_attribute"},
			},
			{
				name:       "show of an unknown definition is 404",
				request:    request{method: "GET", path: a.path("/custom_attribute_definitions/999999")},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "PATCH changes the display name and keeps key and model",
				request:    request{method: "PATCH", path: a.path("/custom_attribute_definitions/%d", planID), body: H{"attribute_display_name": "Billing plan", "attribute_key": "renamed", "attribute_model": "conversation_attribute"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"attribute_display_name": "Billing plan", "attribute_key": "plan", "attribute_model": "contact_attribute"},
			},
			{
				name:       "PUT changes the display type",
				request:    request{method: "PUT", path: a.path("/custom_attribute_definitions/%d", planID), body: H{"attribute_display_type": "text"}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"attribute_display_type": "text", "attribute_display_name": "Billing plan"},
			},
			invalid("update with a bad display type is 422 naming attribute_display_type", request{method: "PATCH", path: a.path("/custom_attribute_definitions/%d", planID), body: H{"attribute_display_type": "rainbow"}}, "attribute_display_type"),
			invalid("update with a blank display name is 422 naming attribute_display_name", request{method: "PATCH", path: a.path("/custom_attribute_definitions/%d", planID), body: H{"attribute_display_name": ""}}, "attribute_display_name"),
			{
				name:       "update of an unknown definition is 404",
				request:    request{method: "PATCH", path: a.path("/custom_attribute_definitions/999999"), body: H{"attribute_display_name": "x"}},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "a contact keeps the values of defined contact attributes only",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "Alice", "custom_attributes": H{"plan": "gold", "tier": 3, "topic": "x", "nope": 1}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.custom_attributes": H{"plan": "gold", "tier": 3}},
			},
			{
				name:       "delete answers 200",
				request:    request{method: "DELETE", path: a.path("/custom_attribute_definitions/%d", tierID)},
				wantStatus: http.StatusOK,
			},
			{
				name:       "a deleted definition is 404",
				request:    request{method: "GET", path: a.path("/custom_attribute_definitions/%d", tierID)},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "a deleted definition is 404 on delete",
				request:    request{method: "DELETE", path: a.path("/custom_attribute_definitions/%d", tierID)},
				wantStatus: http.StatusNotFound,
			},
			{
				name:       "once deleted, the key is no longer kept on contacts",
				request:    request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": api, "name": "Bob", "custom_attributes": H{"plan": "silver", "tier": 1}}},
				wantStatus: http.StatusOK,
				want:       map[string]any{"payload.contact.custom_attributes": H{"plan": "silver"}},
			},
			{
				name:       "once deleted, the key may be defined again",
				request:    define(def("tier", "text", "contact_attribute")),
				wantStatus: http.StatusOK,
			},
		})
	})
}
