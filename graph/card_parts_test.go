package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// TestACardsPartsPastTheListBound: a card holds up to 500 notes and to-dos
// (REST answers them whole), and KanbanItem.notes and checklistItems return
// 100 with LIST_TRUNCATED; cardNotes and checklistItems page through the
// rest, a card's with where: {kanbanItemID}, to-dos in their checklist
// order, and only within the viewer's account.
func TestACardsPartsPastTheListBound(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		_, adminB := a.otherAccount("Globex")
		card := a.cardWithParts(105)
		vars := H{"card": gid("KanbanItem", card)}
		var after string
		a.run(t, []gqlCase{
			{name: "the card's notes field stops at 100, saying so",
				query: `query($card: ID!) { kanbanItem(id: $card) { notes { id } checklistItems { id } } }`, vars: vars,
				code: "LIST_TRUNCATED", want: H{"kanbanItem.notes": apitest.Count(100), "kanbanItem.checklistItems": apitest.Count(100)},
				check: func(t *testing.T, r *gqlResp) {
					for _, q := range []string{"cardNotes(where: {kanbanItemID})", "checklistItems(where: {kanbanItemID})"} {
						if !strings.Contains(fmt.Sprint(r.Errors), q) {
							t.Errorf("no truncation says to page through %s: %v", q, r.Errors)
						}
					}
				}},
			{name: "the first page of its notes, oldest first",
				query: `query($card: ID!) { cardNotes(first: 100, where: {kanbanItemID: $card}) {
					totalCount pageInfo { hasNextPage endCursor } edges { node { content } } } }`, vars: vars,
				want: H{"cardNotes.totalCount": 105, "cardNotes.pageInfo.hasNextPage": true, "cardNotes.edges": apitest.Count(100),
					"cardNotes.edges.0.node.content": "note 1", "cardNotes.edges.99.node.content": "note 100"},
				check: func(t *testing.T, r *gqlResp) { after = mustGet(t, r.Data, "cardNotes.pageInfo.endCursor").(string) }},
			{name: "the rest of its notes",
				query: `query($card: ID!, $after: Cursor) { cardNotes(first: 100, after: $after, where: {kanbanItemID: $card}) {
					pageInfo { hasNextPage } edges { node { content } } } }`,
				vars: H{"card": vars["card"], "after": lazy(func() any { return after })},
				want: H{"cardNotes.pageInfo.hasNextPage": false,
					"cardNotes.edges.*.node.content": []any{"note 101", "note 102", "note 103", "note 104", "note 105"}}},
			{name: "its to-dos in their checklist order",
				query: `query($card: ID!) { checklistItems(first: 3, where: {kanbanItemID: $card}, orderBy: {field: POSITION}) {
					totalCount edges { node { text position } } } }`, vars: vars,
				want: H{"checklistItems.totalCount": 105, "checklistItems.edges.*.node.text": []any{"to-do 105", "to-do 104", "to-do 103"}}},
			{name: "a page size is required",
				query: `query($card: ID!) { cardNotes(where: {kanbanItemID: $card}) { totalCount } }`, vars: vars, code: "BAD_USER_INPUT"},
			{name: "another account's administrator finds none of them", token: adminB,
				query: `query($card: ID!) { cardNotes(first: 5, where: {kanbanItemID: $card}) { totalCount }
					checklistItems(first: 5, where: {kanbanItemID: $card}) { totalCount } }`, vars: vars,
				want: H{"cardNotes.totalCount": 0, "checklistItems.totalCount": 0}},
		})
	})
}

// cardWithParts makes a card of account A with n notes ("note 1" first)
// and n to-dos, "to-do n" first in the checklist's order, written in bulk.
func (a *app) cardWithParts(n int) int {
	a.t.Helper()
	base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
	funnel := atoi(a.t, mustGet(a.t, a.mustREST("POST", base+"/funnels", a.Admin,
		H{"name": "Sales", "stages": []H{{"name": "Lead", "slug": "lead"}}}, http.StatusOK), "id"))
	card := atoi(a.t, mustGet(a.t, a.mustREST("POST", base+"/kanban_items", a.Admin,
		H{"funnel_id": funnel, "funnel_stage": "lead", "item_details": H{"title": "Big deal"}}, http.StatusOK), "id"))
	ctx := viewer.SystemContext(context.Background())
	c := a.srv.DB.Client
	notes := make([]*ent.CardNoteCreate, n)
	todos := make([]*ent.ChecklistItemCreate, n)
	for i := range n {
		notes[i] = c.CardNote.Create().SetAccountID(a.Account).SetKanbanItemID(card).SetContent(fmt.Sprintf("note %d", i+1))
		todos[i] = c.ChecklistItem.Create().SetAccountID(a.Account).SetKanbanItemID(card).
			SetText(fmt.Sprintf("to-do %d", i+1)).SetPosition(n - 1 - i)
	}
	must(a.t, c.CardNote.CreateBulk(notes...).Exec(ctx))
	must(a.t, c.ChecklistItem.CreateBulk(todos...).Exec(ctx))
	return card
}
