package graph_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// Funnels and kanban cards over GraphQL: the same operations as REST (same
// rules, same errors), the board as a connection with filters, and a
// subscription that sees moves made over REST.

func TestGraphQLKanban(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agent := a.agent(a.Account)
		_, adminB := a.otherAccount("Globex")
		var funnel, newLead, card, second int
		funnelID := lazy(func() any { return id(funnel) })
		cardID := lazy(func() any { return id(card) })
		a.run(t, []gqlCase{
			{name: "an administrator creates a funnel with ordered stages",
				query: `mutation { createFunnel(input: {name: "Sales", stages: [{name: "New Lead"}, {name: "Won deal", slug: "won"}]}) { funnel { id name stages { id name slug position } } userErrors { field message code } } }`,
				want:  H{"createFunnel.funnel.stages.*.slug": []any{"new_lead", "won"}},
				check: func(t *testing.T, r *gqlResp) {
					funnel = atoi(t, mustGet(t, r.Data, "createFunnel.funnel.id"))
					newLead = atoi(t, mustGet(t, r.Data, "createFunnel.funnel.stages.0.id"))
				}},
			{name: "an agent may not create a funnel", token: agent,
				query: `mutation { createFunnel(input: {name: "Mine", stages: [{name: "a"}]}) { funnel { id } userErrors { field message code } } }`, code: "FORBIDDEN"},
			{name: "a bad slug is a user error on the stages",
				query: `mutation { createFunnel(input: {name: "X", stages: [{name: "a", slug: "Not A Slug"}]}) { funnel { id } userErrors { field message code } } }`,
				code:  "INVALID", attrs: []string{"input.stages"}},
			{name: "an agent creates a card",
				token: agent, query: `mutation($f: ID!) { createKanbanItem(input: {funnelID: $f, stage: "new_lead", title: "Acme deal", priority: "high", value: 1200,
					currency: {code: "USD", symbol: "$"}}) { kanbanItem { id title priority value currency stage { slug } position } userErrors { field message code } } }`,
				vars:  H{"f": funnelID},
				want:  H{"createKanbanItem.kanbanItem.stage.slug": "new_lead", "createKanbanItem.kanbanItem.priority": "high", "createKanbanItem.kanbanItem.currency.code": "USD"},
				check: func(t *testing.T, r *gqlResp) { card = atoi(t, mustGet(t, r.Data, "createKanbanItem.kanbanItem.id")) }},
			{name: "a second card in the same stage",
				query: `mutation($f: ID!) { createKanbanItem(input: {funnelID: $f, stage: "new_lead", title: "Globex deal"}) { kanbanItem { id position } userErrors { field message code } } }`,
				vars:  H{"f": funnelID}, want: H{"createKanbanItem.kanbanItem.position": 1},
				check: func(t *testing.T, r *gqlResp) { second = atoi(t, mustGet(t, r.Data, "createKanbanItem.kanbanItem.id")) }},
			{name: "an unknown stage is an INVALID user error",
				query: `mutation($f: ID!) { createKanbanItem(input: {funnelID: $f, stage: "nowhere", title: "x"}) { kanbanItem { id } userErrors { field message code } } }`,
				vars:  H{"f": funnelID}, code: "INVALID"},
			{name: "a negative value is an INVALID user error",
				query: `mutation($f: ID!) { createKanbanItem(input: {funnelID: $f, stage: "won", title: "x", value: -1}) { kanbanItem { id } userErrors { field message code } } }`,
				vars:  H{"f": funnelID}, code: "INVALID"},
			{name: "the funnel's cards as a connection, filtered and ordered by position",
				query: `query($f: ID!) { funnel(id: $f) { items(first: 10, where: {priorityNEQ: low}, orderBy: {field: POSITION}) {
					totalCount edges { node { title position } } } } }`,
				vars: H{"f": funnelID},
				want: H{"funnel.items.totalCount": 2, "funnel.items.edges.*.node.title": []any{"Acme deal", "Globex deal"}}},
			{name: "move the card to the other stage",
				query: `mutation($id: ID!) { moveKanbanItem(id: $id, stage: "won") { kanbanItem { stage { slug } position } userErrors { field message code } } }`,
				vars:  H{"id": cardID}, want: H{"moveKanbanItem.kanbanItem.stage.slug": "won", "moveKanbanItem.kanbanItem.position": 0}},
			{name: "the card list filters by stage",
				query: `query($f: ID!, $s: ID!) { kanbanItems(first: 10, where: {funnelID: $f, stageID: $s}) { totalCount edges { node { title position } } } }`,
				vars:  H{"f": funnelID, "s": lazy(func() any { return id(newLead) })},
				want:  H{"kanbanItems.totalCount": 1, "kanbanItems.edges.0.node.title": "Globex deal", "kanbanItems.edges.0.node.position": 0}},
			{name: "a status change keeps the stage",
				query: `mutation($id: ID!) { changeKanbanItemStatus(id: $id, status: "won") { kanbanItem { status stage { slug } } userErrors { field message code } } }`,
				vars:  H{"id": cardID}, want: H{"changeKanbanItemStatus.kanbanItem.status": "won", "changeKanbanItemStatus.kanbanItem.stage.slug": "won"}},
			{name: "an unknown status is an INVALID user error",
				query: `mutation($id: ID!) { changeKanbanItemStatus(id: $id, status: "maybe") { kanbanItem { status } userErrors { field message code } } }`,
				vars:  H{"id": cardID}, code: "INVALID"},
			{name: "a checklist item and a note",
				query: `mutation($id: ID!) { a: createChecklistItem(kanbanItemID: $id, input: {text: "Send quote"}) { checklistItem { text completed } userErrors { field message code } }
					b: createCardNote(kanbanItemID: $id, content: "Called them") { cardNote { content authorID } userErrors { field message code } } }`,
				vars: H{"id": cardID}, want: H{"a.checklistItem.text": "Send quote", "a.checklistItem.completed": false, "b.cardNote.content": "Called them"}},
			{name: "the card with its checklist and notes",
				query: `query($id: ID!) { kanbanItem(id: $id) { checklistItems { text } notes { content } } }`,
				vars:  H{"id": cardID}, want: H{"kanbanItem.checklistItems.*.text": []any{"Send quote"}, "kanbanItem.notes.*.content": []any{"Called them"}}},
			{name: "another account does not see the card", token: adminB,
				query: `query($id: ID!) { kanbanItem(id: $id) { id } }`, vars: H{"id": cardID}, code: "NOT_FOUND"},
			{name: "an agent may not delete a card", token: agent,
				query: `mutation($id: ID!) { deleteKanbanItem(id: $id) { deletedId userErrors { field message code } } }`, vars: H{"id": cardID}, code: "FORBIDDEN"},
			{name: "bulk priority is all or nothing",
				query: `mutation($id: ID!) { bulkSetKanbanPriority(ids: [$id, 999999], priority: "low") { kanbanItems { id } userErrors { field message code } } }`,
				vars:  H{"id": cardID}, code: "INVALID"},
			{name: "the card kept its priority",
				query: `query($id: ID!) { kanbanItem(id: $id) { priority } }`, vars: H{"id": cardID}, want: H{"kanbanItem.priority": "high"}},
			{name: "an administrator deletes a card",
				query: `mutation($id: ID!) { deleteKanbanItem(id: $id) { deletedId userErrors { field message code } } }`, vars: H{"id": lazy(func() any { return id(second) })},
				want: H{"deleteKanbanItem.deletedId": lazy(func() any { return gid("KanbanItem", second) })}},
		})
	})
}

func TestKanbanBoardChangedSeesMovesMadeOverREST(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		addr := a.listen()
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		funnel := int(mustGet(t, a.mustREST("POST", base+"/funnels", a.Admin, H{"funnel": H{"name": "Sales",
			"stages": []H{{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}}}, http.StatusOK), "id").(float64))
		other := int(mustGet(t, a.mustREST("POST", base+"/funnels", a.Admin, H{"funnel": H{"name": "Other",
			"stages": []H{{"name": "New", "slug": "new"}}}}, http.StatusOK), "id").(float64))
		card := int(mustGet(t, a.mustREST("POST", base+"/kanban_items", a.Admin, H{"kanban_item": H{
			"funnel_id": funnel, "funnel_stage": "new", "item_details": H{"title": "Deal"}}}, http.StatusOK), "id").(float64))

		agent := a.agent(a.Account)
		conn := subscribe(t, addr, agent, fmt.Sprintf(
			`subscription { kanbanBoardChanged(funnelID: %d) { kind itemID item { funnelID stage { slug } position } } }`, funnel))
		a.waitListening(1)

		a.mustREST("POST", base+"/kanban_items", a.Admin, H{"kanban_item": H{"funnel_id": other, "funnel_stage": "new",
			"item_details": H{"title": "Elsewhere"}}}, http.StatusOK)
		a.mustREST("POST", fmt.Sprintf("%s/kanban_items/%d/move_to_stage", base, card), a.Admin, H{"funnel_stage": "won"}, http.StatusOK)

		m := read(t, conn)
		if m.Type != "next" {
			t.Fatalf("subscription sent %+v, want next", m)
		}
		if kind := mustGet(t, m.Payload, "data.kanbanBoardChanged.kind"); kind != "moved" {
			t.Errorf("first event %v, want the move of this funnel's card (not the other funnel's create)", kind)
		}
		if got := mustGet(t, m.Payload, "data.kanbanBoardChanged.itemID"); got != gid("KanbanItem", card) {
			t.Errorf("event for card %v, want %d", got, card)
		}
		if slug := mustGet(t, m.Payload, "data.kanbanBoardChanged.item.stage.slug"); slug != "won" {
			t.Errorf("moved card is in %v, want won", slug)
		}

		a.mustREST("POST", fmt.Sprintf("%s/kanban_items/%d/move", base, card), a.Admin, H{"funnel_id": other, "funnel_stage": "new"}, http.StatusOK)
		m = read(t, conn)
		if got := mustGet(t, m.Payload, "data.kanbanBoardChanged.item.funnelID"); got != gid("Funnel", other) {
			t.Errorf("the board the card left got %v, want the move with the card's new funnel %d", m.Payload, other)
		}
	})
}

// TestGraphQLConnections: inboxes, labels, teams, agents, conversations and
// funnels as Relay connections with where-filters and ordering, under the
// same tenancy and inbox rules as the rest of the API.
func TestGraphQLConnections(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agentID, agent := a.agentUser(a.Account)
		_, adminB := a.otherAccount("Globex")
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		support := a.inbox(a.Account, a.Admin, "Support", apiChannel())
		sales := a.inbox(a.Account, a.Admin, "Sales", apiChannel())
		ct := a.contact(a.Admin, support, H{"name": "Ann"})
		for _, ib := range []int{support, sales} {
			a.mustREST("POST", base+"/conversations", a.Admin, H{"inbox_id": ib, "contact_id": ct}, http.StatusOK)
		}
		for _, title := range []string{"vip", "billing", "urgent"} {
			a.mustREST("POST", base+"/labels", a.Admin, H{"title": title}, http.StatusOK)
		}
		a.mustREST("POST", base+"/inbox_members", a.Admin, H{"inbox_id": sales, "user_ids": []int{agentID}}, http.StatusOK)
		a.run(t, []gqlCase{
			{name: "inboxes ordered by name",
				query: `{ inboxes(first: 10, orderBy: {field: NAME}) { totalCount edges { node { name } } } }`,
				want:  H{"inboxes.totalCount": 2, "inboxes.edges.*.node.name": []any{"Sales", "Support"}}},
			{name: "labels filtered and ordered by title",
				query: `{ labels(first: 10, where: {titleNEQ: "urgent"}, orderBy: {field: TITLE}) { edges { node { title } } } }`,
				want:  H{"labels.edges.*.node.title": []any{"billing", "vip"}}},
			{name: "an agent's conversations connection holds its inboxes' only", token: agent,
				query: `{ conversations(first: 10) { totalCount edges { node { inboxID } } } }`,
				want:  H{"conversations.totalCount": 1, "conversations.edges.*.node.inboxID": []any{gid("Inbox", sales)}}},
			{name: "another account sees none of them", token: adminB,
				query: `{ labels(first: 10) { totalCount } inboxes(first: 10) { totalCount } }`,
				want:  H{"labels.totalCount": 0, "inboxes.totalCount": 0}},
			{name: "agents and teams are connections too",
				query: `{ agents(first: 10) { totalCount } teams(first: 10) { totalCount } funnels(first: 10) { totalCount } }`,
				want:  H{"agents.totalCount": 2, "teams.totalCount": 0, "funnels.totalCount": 0}},
			{name: "a page over 100 is refused",
				query: `{ labels(first: 500) { totalCount } }`, code: "BAD_USER_INPUT"},
		})
	})
}

func TestGraphQLKanbanConfigAutomationsAndImport(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		agent := a.agent(a.Account)
		var funnel int
		a.run(t, []gqlCase{
			{name: "a funnel to work on",
				query: `mutation { createFunnel(input: {name: "Sales", stages: [{name: "New", slug: "new"}, {name: "Won", slug: "won"}]}) { funnel { id } userErrors { field message code } } }`,
				check: func(t *testing.T, r *gqlResp) { funnel = atoi(t, mustGet(t, r.Data, "createFunnel.funnel.id")) }},
			{name: "an agent may not read the kanban config", token: agent, query: `{ kanbanConfig { webhookURL } }`, code: "FORBIDDEN"},
			{name: "an administrator sets the webhook and sees its secret",
				query: `mutation { saveKanbanConfig(input: {webhookURL: "https://hooks.example.com/kanban", events: ["kanban_item.moved"]}) { kanbanConfig { webhookURL enabled webhookSecret } userErrors { field message code } } }`,
				want:  H{"saveKanbanConfig.kanbanConfig.webhookURL": "https://hooks.example.com/kanban", "saveKanbanConfig.kanbanConfig.webhookSecret": nonEmpty}},
			{name: "an automation with an incomplete trigger is a user error",
				query: `mutation { createKanbanAutomation(input: {name: "x", triggerType: "idle", triggerConfig: {}, actionType: "set_priority",
					actionConfig: {priority: "high"}}) { kanbanAutomation { id } userErrors { field message code } } }`,
				code: "INVALID", attrs: []string{"input.triggerConfig"}},
			{name: "an automation: idle for 24 hours raises the priority",
				query: `mutation { createKanbanAutomation(input: {name: "Nudge", triggerType: "idle", triggerConfig: {hours: 24},
					actionType: "set_priority", actionConfig: {priority: "high"}}) { kanbanAutomation { name triggerType actionType enabled } userErrors { field message code } } }`,
				want: H{"createKanbanAutomation.kanbanAutomation.triggerType": "idle", "createKanbanAutomation.kanbanAutomation.enabled": true}},
			{name: "an agent may not list automations", token: agent, query: `{ kanbanAutomations { id } }`, code: "FORBIDDEN"},
		})
		cardsBefore := a.srv.DB.Client.KanbanItem.Query().CountX(sys())
		csv := []byte("Deal,Amount,Stage\nAcme,100,won\nGlobex,-5,new\nInitech,20,\n")
		// The preview reads the file as the import will, and writes nothing.
		p := a.gqlMultipart("", `mutation($file: Upload!) { previewKanbanImport(file: $file) { preview { columns rows totalRows targets } userErrors { field message code } } }`,
			H{"file": nil}, []upload{{"variables.file", "cards.csv", "text/csv", append(csv, "Short\n"...)}})
		if p.Status != http.StatusOK || len(p.Errors) > 0 {
			t.Fatalf("preview: %s", p)
		}
		apitest.Expect(t, "preview", p.Data, H{
			"previewKanbanImport.preview.columns":   []any{"Deal", "Amount", "Stage"},
			"previewKanbanImport.preview.totalRows": 4.0,
			"previewKanbanImport.preview.rows": []any{
				H{"Deal": "Acme", "Amount": "100", "Stage": "won"}, H{"Deal": "Globex", "Amount": "-5", "Stage": "new"},
				H{"Deal": "Initech", "Amount": "20", "Stage": ""}, H{"Deal": "Short", "Amount": "", "Stage": ""}},
			"previewKanbanImport.preview.targets.0": "title"})
		bad := a.gqlMultipart("", `mutation($file: Upload!) { previewKanbanImport(file: $file) { preview { totalRows } userErrors { field code } } }`,
			H{"file": nil}, []upload{{"variables.file", "empty.csv", "text/csv", nil}})
		apitest.Expect(t, "empty file", bad.Data, H{"previewKanbanImport.preview": nil,
			"previewKanbanImport.userErrors": []any{H{"field": []any{"file"}, "code": "INVALID"}}})
		if n := a.srv.DB.Client.KanbanItem.Query().CountX(sys()); n != cardsBefore {
			t.Fatalf("the preview wrote cards: %d, want %d", n, cardsBefore)
		}
		r := a.gqlMultipart("", `mutation($f: ID!, $file: Upload!) { importKanbanItems(funnelID: $f, file: $file,
			mapping: {Deal: "title", Amount: "value", Stage: "funnel_stage"}) { result { total created { title stage { slug } } errors { row error } } userErrors { field message code } } }`,
			H{"f": funnel, "file": nil}, []upload{{"variables.file", "cards.csv", "text/csv", csv}})
		if r.Status != http.StatusOK || len(r.Errors) > 0 {
			t.Fatalf("import: %s", r)
		}
		if got := mustGet(t, r.Data, "importKanbanItems.result.created.#"); got != float64(2) {
			t.Errorf("imported %v cards, want 2 (the negative value refused): %s", got, r)
		}
		if got := mustGet(t, r.Data, "importKanbanItems.result.errors.0.row"); got != float64(3) {
			t.Errorf("the refused row is %v, want row 3: %s", got, r)
		}
	})
}
