package graph

import (
	"strings"
	"testing"
)

// insideInboxes are the types whose rows exist for an agent only in the
// inboxes it is a member of (ent/schema/policy_inbox.go).
var insideInboxes = map[string]bool{"Conversation": true, "Message": true, "ScheduledMessage": true, "ContactInbox": true}

// TestNoFilterReachesPastInboxVisibility: a where input's edge filter is a
// SQL subquery that the privacy rules do not run. From a row inside an inbox
// (a conversation's messages) it stays inside that inbox; from any other
// type (a card, a funnel, a contact) it would let an agent match rows by the
// content of conversations it may not read. So only the types inside
// inboxes may filter through an edge into one of them.
func TestNoFilterReachesPastInboxVisibility(t *testing.T) {
	schema := NewExecutableSchema(newConfig(nil)).Schema()
	for name, def := range schema.Types {
		entity, ok := strings.CutSuffix(name, "WhereInput")
		if !ok || insideInboxes[entity] {
			continue
		}
		for _, f := range def.Fields {
			target, _ := strings.CutSuffix(f.Type.Name(), "WhereInput")
			if insideInboxes[target] {
				t.Errorf("%s.%s filters %s rows through a subquery the inbox rule does not reach", name, f.Name, target)
			}
		}
	}
}
