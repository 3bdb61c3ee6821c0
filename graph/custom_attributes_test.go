package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Custom attribute definitions over GraphQL: the operations REST's
// /custom_attribute_definitions calls, with their rules (administrators
// write, every member reads; key and model fixed; keys unique per model),
// and a definition's effect on a contact's customAttributes.
func TestCustomAttributeDefinitionsOverGraphQL(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		agent := w.agent(w.Account)
		var tier int
		define := `mutation($in: CustomAttributeDefinitionInput!) { createCustomAttributeDefinition(input: $in) {
			customAttributeDefinition { databaseId attributeDisplayName attributeKey attributeDisplayType attributeModel attributeValues regexPattern regexCue }
			userErrors { field message code } } }`
		w.run(t, []gqlCase{
			{name: "an administrator defines a list attribute (Chatwoot's integer display type read too)", query: define,
				vars: H{"in": H{"attributeDisplayName": "Tier", "attributeKey": "tier", "attributeDisplayType": "6",
					"attributeModel": "contact", "attributeValues": []any{"gold", "silver"}}},
				want: H{"createCustomAttributeDefinition.customAttributeDefinition.attributeKey": "tier",
					"createCustomAttributeDefinition.customAttributeDefinition.attributeDisplayType": "list",
					"createCustomAttributeDefinition.customAttributeDefinition.attributeModel":       "contact_attribute",
					"createCustomAttributeDefinition.customAttributeDefinition.attributeValues":      []any{"gold", "silver"},
					"createCustomAttributeDefinition.customAttributeDefinition.regexPattern":         nil,
					"createCustomAttributeDefinition.customAttributeDefinition.regexCue":             nil},
				check: func(t *testing.T, r *gqlResp) {
					tier = atoi(t, mustGet(t, r.Data, "createCustomAttributeDefinition.customAttributeDefinition.databaseId"))
				}},
			{name: "the same key in the same model is taken", query: define,
				vars: H{"in": H{"attributeDisplayName": "Tier again", "attributeKey": "tier", "attributeModel": "contact_attribute"}},
				code: "INVALID", attrs: []string{"input.attributeKey"}},
			{name: "blank fields and an unknown model are refused, field by field", query: define,
				vars: H{"in": H{"attributeDisplayName": " ", "attributeKey": "", "attributeModel": "invoice"}},
				code: "INVALID", attrs: []string{"input.attributeDisplayName", "input.attributeKey", "input.attributeModel"}},
			{name: "an agent may not define one", token: agent, query: define,
				vars: H{"in": H{"attributeDisplayName": "Agent's", "attributeKey": "agents", "attributeModel": "contact_attribute"}},
				code: "FORBIDDEN"},
			{name: "more values than a list holds are refused", query: define,
				vars: H{"in": H{"attributeDisplayName": "Huge", "attributeKey": "huge", "attributeModel": "contact_attribute",
					"attributeValues": strings.Split(strings.Repeat("v,", 1000)+"v", ",")}},
				code: "INVALID", attrs: []string{"input.attributeValues"}},
			{name: "a change keeps the key and model",
				query: `mutation($id: ID!) { updateCustomAttributeDefinition(id: $id, input: {attributeDisplayName: "Customer tier", regexPattern: "^[a-z]+$", regexCue: "lower-case"}) {
					customAttributeDefinition { attributeDisplayName attributeKey attributeModel regexPattern regexCue } userErrors { field } } }`,
				vars: H{"id": lazy(func() any { return id(tier) })},
				want: H{"updateCustomAttributeDefinition.customAttributeDefinition.attributeDisplayName": "Customer tier",
					"updateCustomAttributeDefinition.customAttributeDefinition.attributeKey":   "tier",
					"updateCustomAttributeDefinition.customAttributeDefinition.attributeModel": "contact_attribute",
					"updateCustomAttributeDefinition.customAttributeDefinition.regexPattern":   "^[a-z]+$",
					"updateCustomAttributeDefinition.customAttributeDefinition.regexCue":       "lower-case"}},
			{name: "an agent reads the definitions of a model", token: agent,
				query: `{ customAttributeDefinitions(attributeModel: "contact_attribute") { attributeKey attributeDisplayName } }`,
				want:  H{"customAttributeDefinitions": []any{H{"attributeKey": "tier", "attributeDisplayName": "Customer tier"}}}},
			{name: "none of the other model",
				query: `{ customAttributeDefinitions(attributeModel: "conversation_attribute") { attributeKey } }`,
				want:  H{"customAttributeDefinitions": []any{}}},
			{name: "an unknown model is refused",
				query: `{ customAttributeDefinitions(attributeModel: "invoice") { attributeKey } }`, code: "BAD_USER_INPUT"},
			{name: "a page past the end is empty",
				query: `{ customAttributeDefinitions(page: 2) { attributeKey } }`, want: H{"customAttributeDefinitions": []any{}}},
			{name: "another account does not see it", token: w.BAdmin,
				query: `query($id: ID!) { customAttributeDefinition(id: $id) { attributeKey } }`,
				vars:  H{"id": lazy(func() any { return id(tier) })}, code: "NOT_FOUND"},
		})

		// A defined key is kept on a contact, an undefined one dropped.
		r := w.gqlOK(t, fmt.Sprintf(`mutation { updateContact(id: %d, input: {customAttributes: {tier: "gold", undeclared: "x"}}) {
			contact { customAttributes } userErrors { field message } } }`, w.Alice), nil)
		if got := fmt.Sprint(mustGet(t, r.Data, "updateContact.contact.customAttributes")); got != "map[tier:gold]" {
			t.Errorf("customAttributes after the write: %s, want only tier", got)
		}
		w.run(t, []gqlCase{
			{name: "an agent may not delete it", token: agent,
				query: fmt.Sprintf(`mutation { deleteCustomAttributeDefinition(id: %d) { deletedId } }`, tier), code: "FORBIDDEN"},
			{name: "the administrator deletes it",
				query: fmt.Sprintf(`mutation { deleteCustomAttributeDefinition(id: %d) { deletedId userErrors { field } } }`, tier),
				want:  H{"deleteCustomAttributeDefinition.deletedId": lazy(func() any { return gid("CustomAttributeDefinition", tier) })}},
			{name: "then it is gone",
				query: fmt.Sprintf(`{ customAttributeDefinition(id: %d) { attributeKey } }`, tier), code: "NOT_FOUND"},
		})
	})
}
