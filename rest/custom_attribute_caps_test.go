package rest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/switchboard/switchboard/ent"
	cad "github.com/switchboard/switchboard/ent/customattributedefinition"
	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/testdb"
)

// An account's custom attribute definitions are capped where they are
// written, so REST's all-at-once list (Chatwoot's answer) has a bound: the
// last one fits, the next is refused over REST and GraphQL alike, and
// deleting one makes room.
func TestAnAccountHoldsABoundedNumberOfAttributeDefinitions(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		accB, adminB := a.otherAccount("Globex")
		var rows []*ent.CustomAttributeDefinitionCreate
		for i := 1; i < schema.MaxAttributeDefinitions; i++ {
			model := cad.AttributeModelContactAttribute
			if i%2 == 0 {
				model = cad.AttributeModelConversationAttribute
			}
			rows = append(rows, a.srv.DB.Client.CustomAttributeDefinition.Create().SetAccountID(a.Account).
				SetAttributeDisplayName(fmt.Sprintf("Field %d", i)).SetAttributeKey(fmt.Sprintf("field_%d", i)).SetAttributeModel(model))
		}
		if err := a.srv.DB.Client.CustomAttributeDefinition.CreateBulk(rows...).Exec(sys()); err != nil {
			t.Fatal(err)
		}
		define := func(key string) request {
			return request{method: "POST", path: a.path("/custom_attribute_definitions"), body: H{
				"attribute_display_name": key, "attribute_key": key, "attribute_model": "contact_attribute"}}
		}
		var last int
		a.run(t, []scenario{
			{name: "the last definition the cap allows is created", request: define("last_fits"), wantStatus: http.StatusOK,
				check: func(t *testing.T, r *response) { last = r.int(t, "id") }},
			invalid("the next is refused, naming the key", define("one_too_many"), "attribute_key"),
			{name: "GraphQL refuses it in the payload", request: request{method: "POST", path: "/graphql",
				header: map[string]string{"X-Account-Id": strconv.Itoa(a.Account)},
				body: H{"query": `mutation { createCustomAttributeDefinition(input: {attributeDisplayName: "X", attributeKey: "over", attributeModel: "contact_attribute"}) {
					customAttributeDefinition { id } userErrors { field code } } }`}},
				wantStatus: http.StatusOK,
				want: map[string]any{"data.createCustomAttributeDefinition.customAttributeDefinition": nil,
					"data.createCustomAttributeDefinition.userErrors.0.field": []any{"input", "attributeKey"},
					"data.createCustomAttributeDefinition.userErrors.0.code":  "INVALID"}},
			{name: "the list holds the cap", request: request{method: "GET", path: a.path("/custom_attribute_definitions")},
				wantStatus: http.StatusOK, want: map[string]any{"#": schema.MaxAttributeDefinitions}},
			{name: "another account is not counted", request: request{method: "POST", path: accountPath(accB, "/custom_attribute_definitions"), token: adminB,
				body: H{"attribute_display_name": "Theirs", "attribute_key": "theirs", "attribute_model": "contact_attribute"}},
				wantStatus: http.StatusOK},
		})
		a.mustDo(request{method: "DELETE", path: a.path("/custom_attribute_definitions/%d", last)}, http.StatusOK)
		a.run(t, []scenario{{name: "deleting one makes room for another", request: define("room_again"), wantStatus: http.StatusOK}})
	})
}
