package rest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Statement counts of the hot routes (issue 13): each route is measured with
// few rows behind it and again with many, and must take the same number of
// statements both times: a statement per row fails the test.

// fewestStatements is statementsOf for a request that changes from try to
// try (a POST that must not repeat itself exactly).
func fewestStatements(a *app, n *atomic.Int64, rq func(try int) request) int64 {
	a.t.Helper()
	fewest := int64(-1)
	for try := range 5 {
		before := n.Load()
		a.mustDo(rq(try), http.StatusOK)
		if d := n.Load() - before; fewest < 0 || d < fewest {
			fewest = d
		}
	}
	return fewest
}

// expectConstant measures rq, calls grow to add rows behind it, measures
// again and fails if the count changed.
func expectConstant(t *testing.T, a *app, n *atomic.Int64, route string, rq func(try int) request, grow func()) int64 {
	t.Helper()
	few := fewestStatements(a, n, rq)
	grow()
	many := fewestStatements(a, n, rq)
	if many != few {
		t.Errorf("%s took %d statements with many rows and %d with few: a statement per row crept in", route, many, few)
	}
	t.Logf("%s takes %d statements", route, many)
	return many
}

func same(rq request) func(int) request { return func(int) request { return rq } }

// countingWorld is a counting app with an API inbox and a contact.
type countingWorld struct {
	*app
	n         *atomic.Int64
	inbox     int
	contactID int
}

func newCountingWorld(t *testing.T, e testdb.Engine) *countingWorld {
	a, n := newCountingApp(t, e)
	ib := a.apiInbox("Support")
	ct, _ := a.contact(ib, H{"name": "Ann Example", "email": "ann@example.test"})
	return &countingWorld{app: a, n: n, inbox: ib, contactID: ct}
}

// contacts adds k contacts named "Ann <n>", each with two labels.
func (w *countingWorld) contacts(k int) {
	for range k {
		i := w.next()
		id, _ := w.contact(w.inbox, H{"name": fmt.Sprintf("Ann %d", i), "email": fmt.Sprintf("ann%d@example.test", i)})
		w.mustDo(request{method: "POST", path: w.path("/contacts/%d/labels", id), body: H{"labels": []string{"vip", "lead"}}}, http.StatusOK)
	}
}

// messages posts k messages to conversation conv and returns the id of the last.
func (w *countingWorld) messages(conv, k int) int {
	last := 0
	for range k {
		last = w.mustDo(request{method: "POST", path: w.path("/conversations/%d/messages", conv),
			body: H{"content": fmt.Sprintf("message %d", w.next())}}, http.StatusOK).int(w.t, "id")
	}
	return last
}

func (w *countingWorld) conversation() int {
	return w.startConversation(w.Account, w.Admin, H{"inbox_id": w.inbox, "contact_id": w.contactID})
}

func TestHotRouteStatementsDoNotGrowWithRows(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		for _, tc := range []struct {
			route string
			run   func(t *testing.T, w *countingWorld)
		}{
			{"GET /contacts/{id}", showContactStatements},
			{"GET /contacts?page=", listContactsStatements},
			{"GET /contacts/search", searchContactsStatements},
			{"GET messages?before=", messagePageStatements},
			{"POST message", postMessageStatements},
			{"card move", cardMoveStatements},
			{"schedule create", scheduleCreateStatements},
			{"GraphQL contact(id)", graphQLContactStatements},
		} {
			t.Run(tc.route, func(t *testing.T) {
				t.Parallel()
				w := newCountingWorld(t, e)
				w.t = t
				tc.run(t, w)
			})
		}
	})
}

// showContactStatements grows the contact's inboxes and labels.
func showContactStatements(t *testing.T, w *countingWorld) {
	show := request{method: "GET", path: w.path("/contacts/%d", w.contactID)}
	expectConstant(t, w.app, w.n, "GET /contacts/{id}", same(show), func() {
		labels := []string{}
		for i := range 8 {
			ib := w.apiInbox(fmt.Sprintf("Inbox %d", i))
			w.mustDo(request{method: "POST", path: w.path("/contacts/%d/contact_inboxes", w.contactID), body: H{"inbox_id": ib}}, http.StatusOK)
			labels = append(labels, "label"+strconv.Itoa(i))
		}
		w.mustDo(request{method: "POST", path: w.path("/contacts/%d/labels", w.contactID), body: H{"labels": labels}}, http.StatusOK)
	})
}

func listContactsStatements(t *testing.T, w *countingWorld) {
	w.contacts(1)
	list := request{method: "GET", path: w.path("/contacts?page=1")}
	expectConstant(t, w.app, w.n, "GET /contacts?page=", same(list), func() { w.contacts(16) })
	if got := len(w.mustDo(list, http.StatusOK).JSON.(map[string]any)["payload"].([]any)); got != 15 {
		t.Fatalf("the page holds %d contacts, want a full page of 15", got)
	}
}

func searchContactsStatements(t *testing.T, w *countingWorld) {
	w.contacts(1)
	search := request{method: "GET", path: w.path("/contacts/search?q=ann&page=1")}
	expectConstant(t, w.app, w.n, "GET /contacts/search", same(search), func() { w.contacts(16) })
}

func messagePageStatements(t *testing.T, w *countingWorld) {
	conv := w.conversation()
	last := w.messages(conv, 2)
	page := func(int) request {
		return request{method: "GET", path: w.path("/conversations/%d/messages?before=%d", conv, last+1)}
	}
	expectConstant(t, w.app, w.n, "GET messages?before=", page, func() { last = w.messages(conv, 25) })
}

func postMessageStatements(t *testing.T, w *countingWorld) {
	conv := w.conversation()
	post := func(try int) request {
		return request{method: "POST", path: w.path("/conversations/%d/messages", conv), body: H{"content": fmt.Sprintf("try %d", try)}}
	}
	n := expectConstant(t, w.app, w.n, "POST message", post, func() { w.messages(conv, 25) })
	if n > maxPostMessageStatements {
		t.Errorf("POST message took %d statements, want at most %d", n, maxPostMessageStatements)
	}
}

// maxPostMessageStatements bounds a message's post: the conversation with
// its inbox (two reads), the message, the conversation's and the contact's
// activity, the account's webhooks. It was 10 while the post also read the
// conversation's last message and the new message back, 7 while it read
// the conversation's contact too.
const maxPostMessageStatements = 6

// cardMoveStatements moves a card back and forth between two stages while
// the stages fill up; every try is a real move (never to the stage the card
// is in, which answers without writing).
func cardMoveStatements(t *testing.T, w *countingWorld) {
	funnel := w.funnel("Sales", "new", "won")
	card := w.card(funnel, "new", H{"title": "Deal"})
	// One more card in each stage, so that both the gap closed and the slot
	// opened move rows even with few (an empty range costs a statement less).
	w.card(funnel, "new", H{"title": "Other"})
	w.card(funnel, "won", H{"title": "Another"})
	stages := []string{"won", "new"}
	moved := 0
	move := func(int) request {
		to := stages[moved%2]
		moved++
		return request{method: "POST", path: w.path("/kanban_items/%d/move_to_stage", card),
			body: H{"funnel_stage": to, "position": 0}}
	}
	expectConstant(t, w.app, w.n, "card move", move, func() {
		for i := range 20 {
			w.card(funnel, stages[i%2], H{"title": fmt.Sprintf("Deal %d", i)})
		}
	})
}

func scheduleCreateStatements(t *testing.T, w *countingWorld) {
	at := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	create := func(try int) request {
		return request{method: "POST", path: w.path("/scheduled_messages"), body: H{
			"inbox_id": w.inbox, "contact_id": w.contactID, "content": fmt.Sprintf("reminder %d", try), "scheduled_at": at}}
	}
	expectConstant(t, w.app, w.n, "schedule create", create, func() {
		for i := range 20 {
			w.mustDo(create(100+i), http.StatusOK)
		}
	})
}

const countedContactQuery = `query($id: ID!) { contact(id: $id) {
	id name email labels contactInboxes { sourceID inbox { id name } } } }`

// graphQLContactStatements grows the contact's inboxes, as the REST show does.
func graphQLContactStatements(t *testing.T, w *countingWorld) {
	rq := request{method: "POST", path: "/graphql", header: map[string]string{"X-Account-Id": strconv.Itoa(w.Account)},
		body: H{"query": countedContactQuery, "variables": H{"id": w.contactID}}}
	expectConstant(t, w.app, w.n, "GraphQL contact(id)", same(rq), func() {
		for i := range 8 {
			ib := w.apiInbox(fmt.Sprintf("Inbox %d", i))
			w.mustDo(request{method: "POST", path: w.path("/contacts/%d/contact_inboxes", w.contactID), body: H{"inbox_id": ib}}, http.StatusOK)
		}
	})
	r := w.mustDo(rq, http.StatusOK)
	if errs, ok := r.get("errors"); ok {
		t.Fatalf("contact(id) answered errors: %v", errs)
	}
}
