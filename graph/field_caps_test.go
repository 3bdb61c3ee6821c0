package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/ent/schema"
	"github.com/switchboard/switchboard/internal/testdb"
)

// The field caps of issue 10 hold on GraphQL as on REST: they live in the
// ent schema, so an over-cap input is BAD_USER_INPUT naming the field, and
// nothing is stored.

func TestGraphQLFieldCaps(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newWorld(t, e)
		big := strings.Repeat("x", schema.MaxJSONBytes)
		labels := make([]string, schema.MaxLabels+1)
		for i := range labels {
			labels[i] = fmt.Sprintf("l%d", i)
		}
		const setLabels = `mutation($id: ID!, $labels: [String!]!) { setContactLabels(id: $id, labels: $labels) { labels userErrors { field message code } } }`
		w.run(t, []gqlCase{
			{name: "additionalAttributes over 64 KiB", query: updateMutation,
				vars: H{"id": w.Alice, "in": H{"additionalAttributes": H{"blob": big}}},
				code: "INVALID", attrs: []string{"input.additionalAttributes"}},
			{name: "a name over 255 characters", query: updateMutation,
				vars: H{"id": w.Alice, "in": H{"name": strings.Repeat("n", schema.MaxNameRunes+1)}},
				code: "INVALID", attrs: []string{"input.name"}},
			{name: "101 labels", query: setLabels, vars: H{"id": w.Alice, "labels": labels},
				code: "INVALID", attrs: []string{"labels"}},
		})
		ct, err := w.srv.DB.Client.Contact.Get(sys(), w.Alice)
		if err != nil {
			t.Fatal(err)
		}
		if ct.Name != "Alice Anders" || len(ct.Labels) != 0 || ct.AdditionalAttributes["blob"] != nil {
			t.Errorf("refused mutations changed the contact: %+v", ct)
		}
	})
}
