package graph_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/switchboard/switchboard/internal/testdb"
)

// feed reads a subscription's messages in the background, so that a test
// can wait for them with a deadline (a timed-out websocket read would break
// the connection).
type feed struct {
	t    *testing.T
	msgs chan wsMsg
}

func feedOf(t *testing.T, conn *websocket.Conn) *feed {
	_ = conn.SetReadDeadline(time.Time{})
	f := &feed{t: t, msgs: make(chan wsMsg, 16)}
	go func() {
		defer close(f.msgs)
		for {
			var m wsMsg
			if err := conn.ReadJSON(&m); err != nil {
				return
			}
			if m.Type != "ping" && m.Type != "pong" && m.Type != "ka" {
				f.msgs <- m
			}
		}
	}()
	return f
}

// until acts (act(0), then again every 200 ms, for a subscription that may
// not be registered yet) until data arrives, and returns it; it fails after
// 10 s or when the subscription ends.
func (f *feed) until(act func(i int)) wsMsg {
	f.t.Helper()
	retry := time.NewTicker(200 * time.Millisecond)
	defer retry.Stop()
	deadline := time.After(10 * time.Second)
	act(0)
	for i := 1; ; i++ {
		select {
		case m := <-f.msgs:
			return f.data(m)
		case <-retry.C:
			act(i)
		case <-deadline:
			f.t.Fatal("no event within 10 s")
		}
	}
}

// next is the next data message, within 10 s.
func (f *feed) next() wsMsg {
	f.t.Helper()
	select {
	case m := <-f.msgs:
		return f.data(m)
	case <-time.After(10 * time.Second):
		f.t.Fatal("no event within 10 s")
	}
	return wsMsg{}
}

func (f *feed) data(m wsMsg) wsMsg {
	f.t.Helper()
	if m.Type != "next" {
		f.t.Fatalf("the subscription sent %+v, want data", m)
	}
	return m
}

// TestGraphQLInboxVisibilityOnEdges: a card is the account's, but its
// conversation (and what hangs from it) is its inbox's. An agent outside the
// inbox reads the card with a null conversation — through kanbanItem,
// kanbanItemsConnection and the board subscription — and no schedule of the
// inbox, live or listed; an agent of the inbox reads them all.
func TestGraphQLInboxVisibilityOnEdges(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		addr := a.listen()
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		support := a.inbox(a.Account, a.Admin, "Support", apiChannel())
		sales := a.inbox(a.Account, a.Admin, "Sales", apiChannel())
		memberID, member := a.agentUser(a.Account)
		outsiderID, outsider := a.agentUser(a.Account)
		a.mustREST("POST", base+"/inbox_members", a.Admin, H{"inbox_id": support, "user_ids": []int{memberID}}, http.StatusOK)
		a.mustREST("POST", base+"/inbox_members", a.Admin, H{"inbox_id": sales, "user_ids": []int{outsiderID}}, http.StatusOK)
		ct := a.contact(a.Admin, support, H{"name": "Ann"})
		conv := int(mustGet(t, a.mustREST("POST", base+"/conversations", a.Admin,
			H{"inbox_id": support, "contact_id": ct}, http.StatusOK), "id").(float64))
		at := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		sched := int(mustGet(t, a.mustREST("POST", fmt.Sprintf("%s/conversations/%d/scheduled_messages", base, conv), a.Admin,
			H{"content": "secret plan", "scheduled_at": at}, http.StatusOK), "id").(float64))
		funnel := int(mustGet(t, a.mustREST("POST", base+"/funnels", a.Admin, H{"name": "Deals",
			"stages": []H{{"name": "New", "slug": "new"}, {"name": "Won", "slug": "won"}}}, http.StatusOK), "id").(float64))
		card := int(mustGet(t, a.mustREST("POST", base+"/kanban_items", a.Admin, H{"funnel_id": funnel,
			"funnel_stage": "new", "item_details": H{"title": "Ann's deal"}, "conversation_display_id": conv}, http.StatusOK), "id").(float64))

		cardQuery := `query($id: ID!) { kanbanItem(id: $id) { title conversation { id scheduledMessages { content } } } }`
		a.run(t, []gqlCase{
			{name: "an agent outside the inbox reads the card without its conversation", token: outsider,
				query: cardQuery, vars: H{"id": card},
				want: H{"kanbanItem.title": "Ann's deal", "kanbanItem.conversation": nil}},
			{name: "and so in the cards connection", token: outsider,
				query: `{ kanbanItems(first: 10) { edges { node { title conversation { id } } } } }`,
				want:  H{"kanbanItems.edges.0.node.title": "Ann's deal", "kanbanItems.edges.0.node.conversation": nil}},
			{name: "and sees none of the inbox's schedules", token: outsider,
				query: `{ scheduledMessages(first: 10) { totalCount } }`, want: H{"scheduledMessages.totalCount": 0}},
			{name: "nor one by id", token: outsider,
				query: `query($id: ID!) { scheduledMessage(id: $id) { content } }`, vars: H{"id": sched}, code: "NOT_FOUND"},
			{name: "an agent of the inbox reads the conversation and its schedules", token: member,
				query: cardQuery, vars: H{"id": card},
				want: H{"kanbanItem.conversation.scheduledMessages.0.content": "secret plan"}},
		})

		t.Run("the board subscription sends the card without its conversation", func(t *testing.T) {
			conn := subscribe(t, addr, outsider, fmt.Sprintf(
				`subscription { kanbanBoardChanged(funnelID: %d) { kind item { title conversation { id } } } }`, funnel))
			stages := []string{"won", "new"}
			m := feedOf(t, conn).until(func(i int) {
				a.mustREST("POST", fmt.Sprintf("%s/kanban_items/%d/move_to_stage", base, card), a.Admin,
					H{"funnel_stage": stages[i%2]}, http.StatusOK)
			})
			if got := mustGet(t, m.Payload, "data.kanbanBoardChanged.item.title"); got != "Ann's deal" {
				t.Fatalf("the event carried %v, want the card", got)
			}
			if got := mustGet(t, m.Payload, "data.kanbanBoardChanged.item.conversation"); got != nil {
				t.Errorf("an agent outside the inbox received the card's conversation: %v", got)
			}
		})

		t.Run("schedule events of another inbox never reach the agent", func(t *testing.T) {
			conn := subscribe(t, addr, outsider, `subscription { scheduledMessageUpdated { kind id } }`)
			salesCt := a.contact(a.Admin, sales, H{"name": "Bob"})
			schedule := func() string {
				return fmt.Sprint(mustGet(t, a.mustREST("POST", base+"/scheduled_messages", a.Admin, H{"inbox_id": sales,
					"contact_id": salesCt, "content": "visible", "scheduled_at": at}, http.StatusOK), "id"))
			}
			// Once an event of its own inbox arrives, the subscription is live.
			live := feedOf(t, conn)
			live.until(func(int) { schedule() })
			drain := func(want string) {
				for {
					m := live.next()
					kind := mustGet(t, m.Payload, "data.scheduledMessageUpdated.kind")
					id := fmt.Sprint(atoi(t, mustGet(t, m.Payload, "data.scheduledMessageUpdated.id")))
					if kind == "deleted" || kind == "updated" && id == fmt.Sprint(sched) {
						t.Fatalf("an agent outside the inbox received %v of schedule %v", kind, id)
					}
					if id == want {
						return
					}
				}
			}
			a.mustREST("PUT", fmt.Sprintf("%s/scheduled_messages/%d", base, sched), a.Admin, H{"content": "still secret"}, http.StatusOK)
			a.mustREST("DELETE", fmt.Sprintf("%s/scheduled_messages/%d", base, sched), a.Admin, nil, http.StatusNoContent)
			drain(schedule())
		})
	})
}

// TestGraphQLCardCurrencyFollowsTheSameRules: GraphQL coerces a card's
// currency with the operation REST uses, and the ent hook refuses what REST
// refuses.
func TestGraphQLCardCurrencyFollowsTheSameRules(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		funnel := int(mustGet(t, a.mustREST("POST", base+"/funnels", a.Admin, H{"name": "Deals",
			"stages": []H{{"name": "New", "slug": "new"}}}, http.StatusOK), "id").(float64))
		create := `mutation($in: KanbanItemInput!) { createKanbanItem(input: $in) { kanbanItem { title } userErrors { field message code } } }`
		in := func(currency H) H {
			return H{"in": H{"funnelID": funnel, "stage": "new", "title": "Deal", "currency": currency}}
		}
		a.run(t, []gqlCase{
			{name: "string values are stored", query: create, vars: in(H{"code": "EUR"}), want: H{"createKanbanItem.kanbanItem.title": "Deal"}},
			{name: "a number inside is an INVALID user error", query: create, vars: in(H{"code": 978}), code: "INVALID", attrs: []string{"input.currency"}},
			{name: "an unknown key is an INVALID user error", query: create, vars: in(H{"code": "EUR", "rate": "1.1"}), code: "INVALID", attrs: []string{"input.currency"}},
		})
	})
}

// TestGraphQLContactLinksAreTheirInboxes: GraphQL reads a contact's links to
// inboxes through the same rule as REST: an agent reads those of its own
// inboxes, and a link elsewhere is NOT_FOUND by id.
func TestGraphQLContactLinksAreTheirInboxes(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		base := fmt.Sprintf("/api/v1/accounts/%d", a.Account)
		hidden := a.inbox(a.Account, a.Admin, "Hidden", apiChannel())
		worked := a.inbox(a.Account, a.Admin, "Worked", apiChannel())
		agentID, agent := a.agentUser(a.Account)
		a.mustREST("POST", base+"/inbox_members", a.Admin, H{"inbox_id": worked, "user_ids": []int{agentID}}, http.StatusOK)
		ct := a.contact(a.Admin, hidden, H{"name": "Ann"})
		a.mustREST("POST", fmt.Sprintf("%s/contacts/%d/contact_inboxes", base, ct), a.Admin, H{"inbox_id": worked}, http.StatusOK)
		links := a.gqlOK(t, `query($id: ID!) { contact(id: $id) { contactInboxes { id inbox { name } } } }`, H{"id": ct})
		var hiddenLink any
		for _, l := range mustGet(t, links.Data, "contact.contactInboxes").([]any) {
			if mustGet(t, l, "inbox.name") == "Hidden" {
				hiddenLink = mustGet(t, l, "id")
			}
		}
		a.run(t, []gqlCase{
			{name: "the agent reads the link of its inbox only", token: agent,
				query: `query($id: ID!) { contact(id: $id) { contactInboxes { inbox { name } } } }`, vars: H{"id": ct},
				want: H{"contact.contactInboxes.*.inbox.name": []any{"Worked"}}},
			{name: "a link of another inbox is NOT_FOUND by id", token: agent,
				query: `query($id: ID!) { node(id: $id) { id } }`, vars: H{"id": hiddenLink}, code: "NOT_FOUND"},
			{name: "the administrator reads it", query: `query($id: ID!) { node(id: $id) { id } }`, vars: H{"id": hiddenLink},
				want: H{"node.id": hiddenLink}},
			{name: "the agent can reach the contact in its inbox only", token: agent,
				query: `query($id: ID!) { contactableInboxes(contactID: $id) { inbox { name } } }`, vars: H{"id": ct},
				want: H{"contactableInboxes.*.inbox.name": []any{"Worked"}}},
			{name: "the administrator in both", query: `query($id: ID!) { contactableInboxes(contactID: $id) { inbox { name } } }`,
				vars: H{"id": ct}, want: H{"contactableInboxes.*.inbox.name": []any{"Hidden", "Worked"}}},
		})
	})
}
