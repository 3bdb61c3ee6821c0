package graph_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// otherCases are the subscriptions to contacts (the account's: the agent
// sees A's, not B's), boards and schedules.
func (w *liveWorld) otherCases() []liveCase {
	mine := w.contact(w.Admin, w.support, H{"name": "Ann"})
	theirs := w.contact(w.adminB, w.inboxB, H{"name": "Bob"})
	create := func(token string, inbox int) func(int) string {
		return func(int) string {
			name := fmt.Sprintf("Contact %d", w.next())
			w.contact(token, inbox, H{"name": name})
			return name
		}
	}
	rename := func(account int, token string, contact int) func(int) string {
		return func(int) string {
			name := fmt.Sprintf("Renamed %d", w.next())
			w.mustREST("PUT", fmt.Sprintf("/api/v1/accounts/%d/contacts/%d", account, contact), token, H{"name": name}, http.StatusOK)
			return name
		}
	}
	funnel := func(name string) int {
		return atoi(w.t, mustGet(w.t, w.mustREST("POST", w.base+"/funnels", w.Admin, H{"name": name,
			"stages": []H{{"name": "New", "slug": "new"}}}, http.StatusOK), "id"))
	}
	deals, hires := funnel("Deals"), funnel("Hires")
	card := func(funnel int) func(int) string {
		return func(int) string {
			title := fmt.Sprintf("Card %d", w.next())
			w.mustREST("POST", w.base+"/kanban_items", w.Admin, H{"funnel_id": funnel, "funnel_stage": "new",
				"item_details": H{"title": title}}, http.StatusOK)
			return title
		}
	}
	board := `subscription { kanbanBoardChanged(funnelID: %q) { sequence kind item { title } } }`
	schedule := func(conv int) func(int) string {
		return func(int) string {
			content := fmt.Sprintf("Later %d", w.next())
			w.mustREST("POST", fmt.Sprintf("%s/conversations/%d/scheduled_messages", w.base, conv), w.Admin, H{"content": content,
				"scheduled_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, http.StatusOK)
			return content
		}
	}
	return []liveCase{
		{name: "contactCreated", field: "contactCreated",
			query:   `subscription { contactCreated { sequence kind contact { name } } }`,
			visible: create(w.Admin, w.support), hidden: create(w.adminB, w.inboxB), key: "contact.name",
			witness: w.adminB, witnessAccount: w.accountB,
			check: func(t *testing.T, _ int, ev map[string]any) { wantAt(t, ev, "kind", "contact_created") }},
		{name: "contactUpdated", field: "contactUpdated",
			query:   `subscription { contactUpdated { sequence kind contact { name } } }`,
			visible: rename(w.Account, w.Admin, mine), hidden: rename(w.accountB, w.adminB, theirs), key: "contact.name",
			witness: w.adminB, witnessAccount: w.accountB,
			check: func(t *testing.T, _ int, ev map[string]any) { wantAt(t, ev, "kind", "contact_updated") }},
		{name: "kanbanBoardChanged carries the sequence", field: "kanbanBoardChanged",
			query:        fmt.Sprintf(board, gid("Funnel", deals)),
			witnessQuery: fmt.Sprintf(board, gid("Funnel", hires)),
			visible:      card(deals), hidden: card(hires), key: "item.title",
			check: func(t *testing.T, _ int, ev map[string]any) { wantAt(t, ev, "kind", "created") }},
		{name: "scheduledMessageUpdated carries the sequence", field: "scheduledMessageUpdated",
			query:   `subscription { scheduledMessageUpdated { sequence kind scheduledMessage { content } } }`,
			visible: schedule(w.supportConv), hidden: schedule(w.salesConv), key: "scheduledMessage.content",
			check: func(t *testing.T, _ int, ev map[string]any) { wantAt(t, ev, "kind", "updated") }},
	}
}

// subscribeWith opens a GraphQL subscription over a websocket as token.
func subscribeWith(t *testing.T, addr, token, query string, vars H) *websocket.Conn {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 5 * time.Second}
	conn, resp, err := d.Dial("ws://"+addr+"/graphql", nil)
	if err != nil {
		t.Fatalf("dialing the subscription endpoint: %v (%v)", err, resp)
	}
	t.Cleanup(func() { conn.Close() })
	must(t, conn.WriteJSON(wsMsg{Type: "connection_init", Payload: map[string]any{"api_access_token": token}}))
	if m := read(t, conn); m.Type != "connection_ack" {
		t.Fatalf("connection_init answered %+v, want connection_ack", m)
	}
	must(t, conn.WriteJSON(wsMsg{ID: "1", Type: "subscribe", Payload: map[string]any{"query": query, "variables": vars}}))
	return conn
}
