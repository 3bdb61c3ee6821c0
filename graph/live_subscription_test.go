package graph_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

// liveWorld is account A with two API inboxes, Support and Sales, a
// visitor's conversation in each (through the public client API), and an
// agent who works in Support only; and account B with an inbox of its own.
type liveWorld struct {
	*app
	addr, base             string
	member                 string // an agent of Support only
	support, sales         int    // inbox ids
	supportConv, salesConv int    // display ids
	visitors               map[int]visitorConv
	accountB               int
	adminB                 string
	inboxB                 int
}

// visitorConv is a visitor's conversation as the public client API names it.
type visitorConv struct{ inbox, source string }

func newLiveWorld(t *testing.T, e testdb.Engine) *liveWorld {
	a := newApp(t, e)
	w := &liveWorld{app: a, addr: a.listen(), base: fmt.Sprintf("/api/v1/accounts/%d", a.Account), visitors: map[int]visitorConv{}}
	memberID, member := a.agentUser(a.Account)
	w.member = member
	w.support, w.supportConv = w.visitorInbox("Support")
	w.sales, w.salesConv = w.visitorInbox("Sales")
	a.mustREST("POST", w.base+"/inbox_members", a.Admin, H{"inbox_id": w.support, "user_ids": []int{memberID}}, http.StatusOK)
	w.accountB, w.adminB = a.otherAccount("Globex")
	w.inboxB = a.inbox(w.accountB, w.adminB, "Globex desk", apiChannel())
	return w
}

// visitorInbox makes an API inbox with a visitor's conversation in it.
func (w *liveWorld) visitorInbox(name string) (inbox, conv int) {
	// With a webhook URL the inbox's outgoing messages are delivered (by
	// acceptAll), so they get the channel's receipt.
	channel := H{"type": "api", "webhook_url": "https://hooks.example.com/" + strings.ToLower(name)}
	r := w.mustREST("POST", w.base+"/inboxes", w.Admin, H{"name": name, "channel": channel}, http.StatusOK).(map[string]any)
	ident := r["inbox_identifier"].(string)
	pub := "/public/api/v1/inboxes/" + ident
	source := mustGet(w.t, w.mustREST("POST", pub+"/contacts", noToken, H{"name": name + " visitor"}, http.StatusOK), "source_id").(string)
	conv = atoi(w.t, mustGet(w.t, w.mustREST("POST", pub+"/contacts/"+source+"/conversations", noToken, H{}, http.StatusOK), "id"))
	w.visitors[conv] = visitorConv{inbox: ident, source: source}
	return atoi(w.t, r["id"]), conv
}

// typing has the visitor of conversation conv start (on) or stop typing.
func (w *liveWorld) typing(conv int, on bool) {
	v, status := w.visitors[conv], "off"
	if on {
		status = "on"
	}
	path := fmt.Sprintf("/public/api/v1/inboxes/%s/contacts/%s/conversations/%d/toggle_typing", v.inbox, v.source, conv)
	if st, body := w.rest("POST", path, noToken, H{"typing_status": status}); st != http.StatusOK && st != http.StatusNoContent {
		w.t.Fatalf("typing %s: %d %v", status, st, body)
	}
}

// assign makes user the conversation's assignee, as the console's side
// panel does (the API has no assignment route yet).
func (w *liveWorld) assign(conv, user int) {
	ctx := viewer.NewContext(context.Background(), viewer.Viewer{UserID: w.AdminID, AccountID: w.Account, Role: viewer.RoleAdministrator})
	if _, err := w.srv.Svc.AssignConversation(ctx, conv, conversations.Assignment{AssigneeID: &user}); err != nil {
		w.t.Fatalf("assigning conversation %d: %v", conv, err)
	}
}

// conversationGID is the global id of the conversation with display id n.
func (w *liveWorld) conversationGID(n int) string {
	r := w.gql(gqlReq{query: fmt.Sprintf(`{ conversation(displayID: %d) { id } }`, n)})
	return mustGet(w.t, r.Data, "conversation.id").(string)
}

// listen subscribes as token and waits until the subscription follows its
// account's events. Subscriptions stay open until the test ends, so the
// count of listeners only grows while it runs.
func (w *liveWorld) listen(account int, token, query string) *feed {
	w.t.Helper()
	before := w.srv.Events.Listeners(account)
	f := feedOf(w.t, subscribe(w.t, w.addr, token, query))
	deadline := time.Now().Add(5 * time.Second)
	for w.srv.Events.Listeners(account) <= before {
		<-time.After(5 * time.Millisecond) // poll with a deadline
		if time.Now().After(deadline) {
			w.t.Fatal("the subscription did not start listening within 5 s")
		}
	}
	return f
}

// liveCase is one subscription: a visible change must reach the
// subscriber, with an increasing sequence; a change it may not see (in an
// inbox it does not work in, or in another account) must not, though a
// witness subscribed to that change's account hears it.
type liveCase struct {
	name, field, query string
	// visible(i) makes the i-th change the subscriber may see; hidden one
	// it may not. Each returns what key reads from its event.
	visible, hidden func(i int) string
	key             string                         // the path, under the event, of what tells changes apart
	keys            func(ev map[string]any) string // instead of key, when one path does not
	// witness subscribes to the hidden change (A's administrator unless
	// set), in witnessAccount (A unless set).
	witness        string
	witnessAccount int
	witnessQuery   string // the witness's subscription (query unless set)
	// changes is how many visible changes the case makes (2 unless set);
	// the hidden one comes before the second.
	changes int
	// check looks at the i-th visible event beyond its key.
	check func(t *testing.T, i int, ev map[string]any)
}

// keyOf is what tells the change of event ev apart.
func (c liveCase) keyOf(t *testing.T, ev map[string]any) string {
	if c.keys != nil {
		return c.keys(ev)
	}
	return fmt.Sprint(mustGet(t, ev, c.key))
}

func (w *liveWorld) run(t *testing.T, c liveCase) {
	witness, account, wq := c.witness, c.witnessAccount, c.witnessQuery
	if witness == "" {
		witness, account = w.Admin, w.Account
	}
	if wq == "" {
		wq = c.query
	}
	sub := w.listen(w.Account, w.member, c.query)
	wit := w.listen(account, witness, wq)
	sub.t, wit.t = t, t
	event := func(m wsMsg) map[string]any {
		return mustGet(t, m.Payload, "data."+c.field).(map[string]any)
	}
	// Events of the setup may still arrive (PostgreSQL's relay delivers
	// after the commit, asynchronously): the subscriber skips those; the
	// hidden change fails the test.
	last, hidden := 0, ""
	for i := range max(c.changes, 2) {
		if i == 1 {
			// Heard by the witness, so published: were it sent to the
			// subscriber, it would come before the next visible change.
			hidden = c.hidden(i)
			for got := ""; got != hidden; {
				got = c.keyOf(t, event(wit.next()))
			}
		}
		want := c.visible(i)
		var ev map[string]any
		for got := ""; got != want; {
			ev = event(sub.next())
			got = c.keyOf(t, ev)
			if hidden != "" && got == hidden {
				t.Fatalf("change %d: the subscriber got %s %q, a change it may not see", i, c.key, got)
			}
		}
		seq := int(mustGet(t, ev, "sequence").(float64))
		if seq <= last {
			t.Errorf("change %d: sequence %d after %d, want it increasing", i, seq, last)
		}
		last = seq
		if c.check != nil {
			c.check(t, i, ev)
		}
	}
}

func TestLiveSubscriptions(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		w := newLiveWorld(t, e)
		for _, c := range w.conversationCases() {
			t.Run(c.name, func(t *testing.T) { w.run(t, c) })
		}
		for _, c := range w.otherCases() {
			t.Run(c.name, func(t *testing.T) { w.run(t, c) })
		}
		t.Run("a conversation of an inbox the agent does not work in cannot be followed", func(t *testing.T) {
			sales := w.conversationGID(w.salesConv)
			for _, q := range []string{
				`subscription($id: ID!) { typingChanged(conversationID: $id) { typing } }`,
				`subscription($id: ID!) { conversationUpdated(conversationID: $id) { sequence } }`,
				`subscription($id: ID!) { messageAdded(conversationID: $id) { sequence } }`,
			} {
				conn := subscribeWith(t, w.addr, w.member, q, H{"id": sales})
				m := read(t, conn)
				refused := m.Type == "error" || m.Type == "next" && m.Payload["data"] == nil
				if !refused || !strings.Contains(m.Raw, "NOT_FOUND") {
					t.Errorf("%s: the agent got %s %s, want a NOT_FOUND error", q, m.Type, m.Raw)
				}
			}
		})
	})
}

// conversationCases are the subscriptions to conversations and their
// messages and typing: the agent sees Support's, not Sales'.
func (w *liveWorld) conversationCases() []liveCase {
	conv := func(inbox int) func(int) string {
		return func(int) string {
			r := w.mustREST("POST", w.base+"/conversations", w.Admin, H{"inbox_id": inbox,
				"contact_id": w.contact(w.Admin, inbox, H{"name": fmt.Sprintf("Caller %d", w.next())})}, http.StatusOK)
			return fmt.Sprint(atoi(w.t, mustGet(w.t, r, "id")))
		}
	}
	statuses := []string{"resolved", "open"}
	// post writes a message in conv: a private note (never delivered, so no
	// receipt of it reaches a later case) or a reply the channel delivers.
	post := func(conv int, prefix string, private bool) func(int) string {
		return func(i int) string {
			content := fmt.Sprintf("%s %d", prefix, w.next())
			w.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", w.base, conv), w.Admin,
				H{"content": content, "private": private}, http.StatusOK)
			return content
		}
	}
	other, _ := strconv.Atoi(conv(w.support)(0)) // a conversation the agent sees too
	typing := `subscription { typingChanged(conversationID: %q) { sequence typing conversationID contact { name } agent { name } } }`
	return []liveCase{
		{name: "conversationCreated", field: "conversationCreated",
			query:   `subscription { conversationCreated { sequence kind conversation { displayID status } } }`,
			visible: conv(w.support), hidden: conv(w.sales), key: "conversation.displayID",
			check: func(t *testing.T, _ int, ev map[string]any) { wantAt(t, ev, "kind", "conversation_created") }},
		{name: "conversationUpdated: status, labels, assignee", field: "conversationUpdated", changes: 3,
			query: `subscription { conversationUpdated { sequence kind conversation { displayID status labels assigneeID } } }`,
			visible: func(i int) string {
				switch i {
				case 0:
					w.mustREST("POST", fmt.Sprintf("%s/conversations/%d/toggle_status", w.base, w.supportConv), w.Admin, H{"status": statuses[0]}, http.StatusOK)
				case 1:
					w.mustREST("POST", fmt.Sprintf("%s/conversations/%d/labels", w.base, w.supportConv), w.Admin, H{"labels": []string{"vip"}}, http.StatusOK)
				default:
					w.assign(w.supportConv, w.AdminID)
				}
				return fmt.Sprint(w.supportConv)
			},
			hidden: func(int) string {
				w.mustREST("POST", fmt.Sprintf("%s/conversations/%d/labels", w.base, w.salesConv), w.Admin, H{"labels": []string{"vip"}}, http.StatusOK)
				return fmt.Sprint(w.salesConv)
			},
			key: "conversation.displayID",
			check: func(t *testing.T, i int, ev map[string]any) {
				if i == 0 {
					wantAt(t, ev, "kind", "conversation_status_changed")
					wantAt(t, ev, "conversation.status", "resolved")
					return
				}
				wantAt(t, ev, "kind", "conversation_updated")
				wantAt(t, ev, "conversation.labels", []any{"vip"})
				if i == 2 {
					wantAt(t, ev, "conversation.assigneeID", gid("User", w.AdminID))
				}
			}},
		{name: "messageAdded", field: "messageAdded",
			query:   `subscription { messageAdded { sequence kind message { content } } }`,
			visible: post(w.supportConv, "visible", true), hidden: post(w.salesConv, "hidden", true), key: "message.content",
			check: func(t *testing.T, _ int, ev map[string]any) { wantAt(t, ev, "kind", "message_created") }},
		{name: "messageAdded(conversationID) keeps to that conversation", field: "messageAdded",
			query:        fmt.Sprintf(`subscription { messageAdded(conversationID: %q) { sequence message { content } } }`, w.conversationGID(w.supportConv)),
			witnessQuery: fmt.Sprintf(`subscription { messageAdded(conversationID: %q) { sequence message { content } } }`, w.conversationGID(other)),
			visible:      post(w.supportConv, "this one", true), hidden: post(other, "another of the inbox", true), key: "message.content"},
		{name: "messageUpdated: the channel's delivery receipt", field: "messageUpdated",
			query:   `subscription { messageUpdated { sequence kind message { content status } } }`,
			visible: post(w.supportConv, "delivered", false), hidden: post(w.salesConv, "hidden", false), key: "message.content",
			check: func(t *testing.T, _ int, ev map[string]any) {
				wantAt(t, ev, "kind", "message_updated")
				wantAt(t, ev, "message.status", "delivered")
			}},
		{name: "typingChanged: the visitor's, then an agent's", field: "typingChanged",
			query:        fmt.Sprintf(typing, w.conversationGID(w.supportConv)),
			witnessQuery: fmt.Sprintf(typing, w.conversationGID(w.salesConv)),
			visible: func(i int) string {
				if i == 0 {
					w.typing(w.supportConv, true)
					return "true Support visitor <nil>"
				}
				// An agent's, through the mutation (REST's toggle_typing_status
				// feeds the same event: the matrix's trigger).
				r := w.gql(gqlReq{query: fmt.Sprintf(`mutation { setAgentTyping(conversationDisplayID: %d, typing: false) { typing userErrors { field } } }`, w.supportConv)})
				if told, _ := lookup(r.Data, "setAgentTyping.typing"); r.Status != http.StatusOK || len(r.Errors) > 0 || told != false {
					w.t.Fatalf("setAgentTyping: %s", r)
				}
				return "false <nil> Ada Admin"
			},
			hidden: func(int) string { w.typing(w.salesConv, true); return "true Sales visitor <nil>" },
			keys: func(ev map[string]any) string {
				contact, _ := lookup(ev, "contact.name")
				agent, _ := lookup(ev, "agent.name")
				return fmt.Sprint(ev["typing"], " ", contact, " ", agent)
			},
			check: func(t *testing.T, _ int, ev map[string]any) {
				wantAt(t, ev, "conversationID", w.conversationGID(w.supportConv))
			}},
	}
}

// wantAt fails unless the value at path in ev is want.
func wantAt(t *testing.T, ev map[string]any, path string, want any) {
	t.Helper()
	if got := mustGet(t, ev, path); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s is %v, want %v", path, got, want)
	}
}
