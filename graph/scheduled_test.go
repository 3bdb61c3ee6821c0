package graph_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Scheduled messages over GraphQL: the same operations as REST, with the
// same rules and errors, and a subscription that sees a schedule fire.

const scheduleFields = `id status content scheduledAt nextOccurrenceAt recurrenceType recurrenceDays
	conversationID inboxID contactID authorID parentID`

func TestGraphQLScheduledMessages(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		agentID, agent := a.agentUser(a.Account)
		outsider := a.agent(a.Account)
		a.mustREST("POST", fmt.Sprintf("/api/v1/accounts/%d/inbox_members", a.Account), a.Admin,
			H{"inbox_id": ib, "user_ids": []int{agentID}}, http.StatusOK)
		accB, adminB := a.otherAccount("Globex")
		_ = accB
		at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		create := `mutation($in: ScheduledMessageInput!) { createScheduledMessage(input: $in) { scheduledMessage { ` + scheduleFields + ` } userErrors { field message code } } }`
		var sched int
		schedID := lazy(func() any { return id(sched) })
		a.run(t, []gqlCase{
			{name: "create a weekly schedule", query: create, vars: H{"in": H{
				"inboxID": ib, "contactID": ct, "content": "Weekly digest", "scheduledAt": at.Format(time.RFC3339),
				"recurrenceType": "weekly", "recurrenceDays": []int{1, 3}}},
				want: H{"createScheduledMessage.scheduledMessage.status": "pending", "createScheduledMessage.scheduledMessage.recurrenceType": "weekly",
					"createScheduledMessage.scheduledMessage.recurrenceDays": []any{1, 3}, "createScheduledMessage.scheduledMessage.parentID": nil,
					"createScheduledMessage.scheduledMessage.nextOccurrenceAt": nonEmpty},
				check: func(t *testing.T, r *gqlResp) {
					sched = atoi(t, mustGet(t, r.Data, "createScheduledMessage.scheduledMessage.id"))
				}},
			{name: "a past scheduledAt is an INVALID user error naming scheduled_at", query: create, vars: H{"in": H{
				"inboxID": ib, "contactID": ct, "content": "x", "scheduledAt": "2020-01-01T00:00:00Z"}},
				code: "INVALID", attrs: []string{"input.scheduledAt"}},
			{name: "recurrence days without weekly are an INVALID user error", query: create, vars: H{"in": H{
				"inboxID": ib, "contactID": ct, "content": "x", "scheduledAt": at.Format(time.RFC3339),
				"recurrenceType": "daily", "recurrenceDays": []int{2}}},
				code: "INVALID", attrs: []string{"input.recurrenceDays"}},
			{name: "the list holds it", query: `{ scheduledMessages(first: 10) { totalCount edges { node { id content } } } }`,
				want: H{"scheduledMessages.totalCount": 1, "scheduledMessages.edges.0.node.content": "Weekly digest"}},
			{name: "update its content", query: `mutation($id: ID!) { updateScheduledMessage(id: $id, input: {content: "Digest"}) { scheduledMessage { content status } userErrors { field message code } } }`,
				vars: H{"id": schedID}, want: H{"updateScheduledMessage.scheduledMessage.content": "Digest", "updateScheduledMessage.scheduledMessage.status": "pending"}},
			{name: "an agent who is not its author may not cancel it", token: agent,
				query: `mutation($id: ID!) { cancelScheduledMessage(id: $id) { scheduledMessage { status } userErrors { field message code } } }`, vars: H{"id": schedID}, code: "FORBIDDEN"},
			{name: "an agent outside its inbox does not find it", token: outsider,
				query: `query($id: ID!) { scheduledMessage(id: $id) { id } }`, vars: H{"id": schedID}, code: "NOT_FOUND"},
			{name: "an agent outside its inbox sees none in the list", token: outsider,
				query: `{ scheduledMessages(first: 10) { totalCount } }`, want: H{"scheduledMessages.totalCount": 0}},
			{name: "another account does not see it", token: adminB,
				query: `query($id: ID!) { scheduledMessage(id: $id) { id } }`, vars: H{"id": schedID}, code: "NOT_FOUND"},
			{name: "cancel", query: `mutation($id: ID!) { cancelScheduledMessage(id: $id) { scheduledMessage { status nextOccurrenceAt } userErrors { field message code } } }`,
				vars: H{"id": schedID}, want: H{"cancelScheduledMessage.scheduledMessage.status": "cancelled", "cancelScheduledMessage.scheduledMessage.nextOccurrenceAt": nil}},
			{name: "update after cancel is an INVALID user error naming status", query: `mutation($id: ID!) { updateScheduledMessage(id: $id, input: {content: "again"}) { scheduledMessage { id } userErrors { field message code } } }`,
				vars: H{"id": schedID}, code: "INVALID", attrs: []string{""}},
			{name: "delete", query: `mutation($id: ID!) { deleteScheduledMessage(id: $id) { deletedId userErrors { field message code } } }`,
				vars: H{"id": schedID}, want: H{"deleteScheduledMessage.deletedId": lazy(func() any { return gid("ScheduledMessage", sched) })}},
			{name: "it is gone", query: `query($id: ID!) { scheduledMessage(id: $id) { id } }`, vars: H{"id": schedID}, code: "NOT_FOUND"},
		})
	})
}

func TestScheduledMessageUpdatedSubscriptionSeesItFire(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		addr := a.listen()
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		conn := subscribe(t, addr, a.Admin, `subscription { scheduledMessageUpdated { kind id scheduledMessage { status messageID } } }`)
		a.waitListening(1)

		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		r := a.mustREST("POST", base+"/scheduled_messages", a.Admin, H{"inbox_id": ib, "contact_id": ct, "content": "soon",
			"scheduled_at": time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano)}, http.StatusOK)
		dbID := int(mustGet(t, r, "id").(float64))
		want := gid("ScheduledMessage", dbID)
		seen := []string{}
		for len(seen) == 0 || seen[len(seen)-1] != "sent" {
			m := read(t, conn)
			if m.Type != "next" {
				t.Fatalf("subscription sent %+v, want next", m)
			}
			if got := mustGet(t, m.Payload, "data.scheduledMessageUpdated.id"); got != want {
				t.Fatalf("subscription delivered schedule %v, want %s", got, want)
			}
			seen = append(seen, mustGet(t, m.Payload, "data.scheduledMessageUpdated.scheduledMessage.status").(string))
		}
		if seen[0] != "pending" {
			t.Errorf("first update %s, want the creation (pending); saw %v", seen[0], seen)
		}

		a.mustREST("DELETE", fmt.Sprintf("%s/scheduled_messages/%d", base, dbID), a.Admin, nil, http.StatusNoContent)
		m := read(t, conn)
		if kind := mustGet(t, m.Payload, "data.scheduledMessageUpdated.kind"); kind != "deleted" {
			t.Errorf("after a delete the subscription sent %v, want deleted", m.Payload)
		}
		if sm, _ := lookup(m.Payload, "data.scheduledMessageUpdated.scheduledMessage"); sm != nil {
			t.Errorf("a deleted schedule came with a body: %v", sm)
		}
	})
}
