package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// A mutation answers what it wrote in a transaction of its own; the answer's
// edges are read after that transaction closed, and must be read through the
// database (they failed with INTERNAL_SERVER_ERROR when the answer kept the
// closed transaction).
func TestGraphQLMutationAnswersReadTheirEdges(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newAppWith(t, e, server.Config{Channels: acceptAll{}})
		ib := a.inbox(a.Account, a.Admin, "API", apiChannel())
		ct := a.contact(a.Admin, ib, H{"name": "Ann"})
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		conv := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin,
			H{"inbox_id": ib, "contact_id": ct}, http.StatusOK), "id").(float64))
		failed := int(mustGet(t, a.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", base, conv), a.Admin,
			H{"content": "lost"}, http.StatusOK), "id").(float64))
		apitest.FailMessage(t, viewer.SystemContext(context.Background()), a.srv.DB.Client, failed)
		agentID, _ := a.agentUser(a.Account)
		var funnel, card int
		var item, note string
		cardID := lazy(func() any { return id(card) })
		a.run(t, []gqlCase{
			{name: "createMessage: the message's conversation and attachments",
				query: `mutation($c: Int!) { createMessage(conversationDisplayID: $c, input: {content: "Hi"}) { message { content conversation { displayID contact { name } } attachments { fileName } } userErrors { field message code } } }`,
				vars:  H{"c": conv},
				want:  H{"createMessage.message.conversation.displayID": conv, "createMessage.message.conversation.contact.name": "Ann", "createMessage.message.attachments": []any{}}},
			{name: "retryMessage: the message's conversation",
				query: `mutation($c: Int!, $m: ID!) { retryMessage(conversationDisplayID: $c, messageID: $m) { message { status conversation { displayID } } userErrors { field message code } } }`,
				vars:  H{"c": conv, "m": id(failed)},
				want:  H{"retryMessage.message.status": "sent", "retryMessage.message.conversation.displayID": conv}},
			{name: "a funnel and a card to work on",
				query: `mutation { createFunnel(input: {name: "Sales", stages: [{name: "New"}]}) { funnel { id } userErrors { field message code } } }`,
				check: func(t *testing.T, r *gqlResp) {
					funnel = atoi(t, mustGet(t, r.Data, "createFunnel.funnel.id"))
					r = a.gql(gqlReq{query: `mutation($f: ID!) { createKanbanItem(input: {funnelID: $f, stage: "new", title: "Acme"}) { kanbanItem { id } } }`,
						vars: H{"f": id(funnel)}})
					card = atoi(t, mustGet(t, r.Data, "createKanbanItem.kanbanItem.id"))
				}},
			{name: "createChecklistItem: the item's card",
				query: `mutation($k: ID!) { createChecklistItem(kanbanItemID: $k, input: {text: "Quote"}) { checklistItem { id kanbanItem { title } } userErrors { field message code } } }`,
				vars:  H{"k": cardID}, want: H{"createChecklistItem.checklistItem.kanbanItem.title": "Acme"},
				check: func(t *testing.T, r *gqlResp) {
					item = mustGet(t, r.Data, "createChecklistItem.checklistItem.id").(string)
				}},
			{name: "updateChecklistItem: the item's card",
				query: `mutation($k: ID!, $i: ID!) { updateChecklistItem(kanbanItemID: $k, id: $i, input: {text: "Send quote"}) { checklistItem { text kanbanItem { title } } userErrors { field message code } } }`,
				vars:  H{"k": cardID, "i": lazy(func() any { return item })},
				want:  H{"updateChecklistItem.checklistItem.text": "Send quote", "updateChecklistItem.checklistItem.kanbanItem.title": "Acme"}},
			{name: "toggleChecklistItem: the item's card",
				query: `mutation($k: ID!, $i: ID!) { toggleChecklistItem(kanbanItemID: $k, id: $i) { checklistItem { completed kanbanItem { title } } userErrors { field message code } } }`,
				vars:  H{"k": cardID, "i": lazy(func() any { return item })},
				want:  H{"toggleChecklistItem.checklistItem.completed": true, "toggleChecklistItem.checklistItem.kanbanItem.title": "Acme"}},
			{name: "createCardNote: the note's card",
				query: `mutation($k: ID!) { createCardNote(kanbanItemID: $k, content: "Called") { cardNote { id kanbanItem { title } } userErrors { field message code } } }`,
				vars:  H{"k": cardID}, want: H{"createCardNote.cardNote.kanbanItem.title": "Acme"},
				check: func(t *testing.T, r *gqlResp) { note = mustGet(t, r.Data, "createCardNote.cardNote.id").(string) }},
			{name: "updateCardNote: the note's card",
				query: `mutation($k: ID!, $n: ID!) { updateCardNote(kanbanItemID: $k, id: $n, content: "Called twice") { cardNote { content kanbanItem { title } } userErrors { field message code } } }`,
				vars:  H{"k": cardID, "n": lazy(func() any { return note })},
				want:  H{"updateCardNote.cardNote.content": "Called twice", "updateCardNote.cardNote.kanbanItem.title": "Acme"}},
			{name: "assignKanbanItemAgent: the card's funnel, its stage's funnel and agents",
				query: `mutation($k: ID!, $u: ID!) { assignKanbanItemAgent(id: $k, agentID: $u) { kanbanItem { funnel { name } stage { funnel { name } } assignedAgents { databaseId } } userErrors { field message code } } }`,
				vars:  H{"k": cardID, "u": id(agentID)},
				want: H{"assignKanbanItemAgent.kanbanItem.funnel.name": "Sales", "assignKanbanItemAgent.kanbanItem.stage.funnel.name": "Sales",
					"assignKanbanItemAgent.kanbanItem.assignedAgents.*.databaseId": []any{agentID}}},
			{name: "createKanbanItem: the card's funnel and its stage's funnel",
				query: `mutation($f: ID!) { createKanbanItem(input: {funnelID: $f, stage: "new", title: "Globex"}) { kanbanItem { funnel { name } stage { funnel { name } } } userErrors { field message code } } }`,
				vars:  H{"f": lazy(func() any { return id(funnel) })},
				want:  H{"createKanbanItem.kanbanItem.funnel.name": "Sales", "createKanbanItem.kanbanItem.stage.funnel.name": "Sales"}},
			{name: "updateKanbanItem: the card's funnel and its stage's funnel",
				query: `mutation($k: ID!) { updateKanbanItem(id: $k, input: {title: "Acme Corp"}) { kanbanItem { title funnel { name } stage { funnel { name } } } userErrors { field message code } } }`,
				vars:  H{"k": cardID},
				want:  H{"updateKanbanItem.kanbanItem.title": "Acme Corp", "updateKanbanItem.kanbanItem.funnel.name": "Sales", "updateKanbanItem.kanbanItem.stage.funnel.name": "Sales"}},
			{name: "moveKanbanItem: the card's funnel and its stage's funnel",
				query: `mutation($k: ID!) { moveKanbanItem(id: $k, stage: "new", position: 1) { kanbanItem { position funnel { name } stage { funnel { name } } } userErrors { field message code } } }`,
				vars:  H{"k": cardID},
				want:  H{"moveKanbanItem.kanbanItem.position": 1, "moveKanbanItem.kanbanItem.funnel.name": "Sales", "moveKanbanItem.kanbanItem.stage.funnel.name": "Sales"}},
			{name: "changeKanbanItemStatus: the card's funnel and its stage's funnel",
				query: `mutation($k: ID!) { changeKanbanItemStatus(id: $k, status: "won") { kanbanItem { status funnel { name } stage { funnel { name } } } userErrors { field message code } } }`,
				vars:  H{"k": cardID},
				want:  H{"changeKanbanItemStatus.kanbanItem.status": "won", "changeKanbanItemStatus.kanbanItem.funnel.name": "Sales", "changeKanbanItemStatus.kanbanItem.stage.funnel.name": "Sales"}},
			{name: "reorderKanbanItems: the cards' funnel and their stage's funnel",
				query: `mutation($k: ID!) { reorderKanbanItems(positions: [{id: $k, position: 0}]) { kanbanItems { position funnel { name } stage { funnel { name } } } userErrors { field message code } } }`,
				vars:  H{"k": cardID},
				want:  H{"reorderKanbanItems.kanbanItems.0.position": 0, "reorderKanbanItems.kanbanItems.0.funnel.name": "Sales", "reorderKanbanItems.kanbanItems.0.stage.funnel.name": "Sales"}},
			{name: "bulkMoveKanbanItems: the cards' funnel and their stage's funnel",
				query: `mutation($k: ID!) { bulkMoveKanbanItems(ids: [$k], stage: "new") { kanbanItems { funnel { name } stage { funnel { name } } } userErrors { field message code } } }`,
				vars:  H{"k": cardID},
				want:  H{"bulkMoveKanbanItems.kanbanItems.0.funnel.name": "Sales", "bulkMoveKanbanItems.kanbanItems.0.stage.funnel.name": "Sales"}},
		})
	})
}
