package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/visitors"
)

// TestPublicConversationListStatementsDoNotGrowWithRows: a visitor's
// conversation list loads every conversation's messages, their files and
// senders in one statement each, so 12 conversations cost what 2 do; and
// each conversation still shows its newest 20 messages the visitor may
// read, private notes not taking their place.
func TestPublicConversationListStatementsDoNotGrowWithRows(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a, n := newCountingApp(t, e)
		p := a.newPublicInbox("Site API", H{"type": "api"})
		me, _ := a.visitor(p, H{"name": "Vera"})
		start := func() {
			cv := a.visitorConversation(p, me)
			a.mustDo(pub("POST", p.path("/contacts/%s/conversations/%d/messages", me, cv), H{"content": "hello"}), http.StatusOK)
			a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", cv), body: H{"content": "Hi, Vera"}}, http.StatusOK)
		}
		list := pub("GET", p.path("/contacts/%s/conversations", me), nil)
		for range 2 {
			start()
		}
		few := statementsOf(a, n, list)
		for range 10 {
			start()
		}
		many := statementsOf(a, n, list)
		if many != few {
			t.Errorf("listing 12 conversations took %d statements, 2 took %d: a statement per conversation crept in", many, few)
		}
		t.Logf("%s: the public conversation list takes %d statements", e.Name, many)

		// A long conversation whose newest messages include private notes.
		long := a.visitorConversation(p, me)
		for i := range visitors.MessagesPerPage + 5 {
			a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", long), body: H{"content": fmt.Sprintf("public %d", i)}}, http.StatusOK)
		}
		for range 3 {
			a.mustDo(request{method: "POST", path: a.path("/conversations/%d/messages", long), body: H{"content": "INTERNAL", "private": true}}, http.StatusOK)
		}
		r := a.mustDo(list, http.StatusOK)
		for _, th := range r.JSON.([]any) {
			th := th.(map[string]any)
			msgs := th["messages"].([]any)
			if th["id"] != float64(long) {
				if len(msgs) != 2 {
					t.Errorf("conversation %v shows %d messages, want 2", th["id"], len(msgs))
				}
				continue
			}
			first := msgs[0].(map[string]any)["content"]
			last := msgs[len(msgs)-1].(map[string]any)["content"]
			if len(msgs) != visitors.MessagesPerPage || first != "public 5" || last != "public 24" {
				t.Errorf("the long conversation shows %d messages from %v to %v; want the newest %d public ones, public 5 to public 24",
					len(msgs), first, last, visitors.MessagesPerPage)
			}
		}
		if strings.Contains(string(r.Body), "INTERNAL") {
			t.Error("the list shows a private note")
		}
	})
}
