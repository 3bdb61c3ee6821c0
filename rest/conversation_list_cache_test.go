package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/testdb"
)

// The conversation list from memory (issue 13): a user asking again for a
// page nothing has changed gets it without a statement; a page is never
// given to another user; whatever it shows, written through the API, shows
// on the very next request: a message, a contact's name, a status, an
// agent's inboxes; a write in another account (a rename, a post and the job
// runner's record of its delivery) leaves the page; and a page too large to
// keep is read each time.

// listStep is a change (none when its method is empty), then a page and
// what it must hold.
type listStep struct {
	name   string
	change request
	// settle, when set, waits for what the change started (a delivery).
	settle     func(t *testing.T, changed *response)
	list       request
	want       map[string]any
	fromMemory bool // the page costs no statement
}

func TestConversationListFromMemorySeesEveryChange(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a, n := newCountingApp(t, e)
		shared, private := a.apiInbox("Shared"), a.apiInbox("Private")
		agentID, agent := a.agent(a.Account)
		a.addInboxMembers(shared, agentID)
		ann, _ := a.contact(shared, H{"name": "Ann"})
		bob, _ := a.contact(private, H{"name": "Bob"})
		annConv := a.startConversation(a.Account, a.Admin, H{"inbox_id": shared, "contact_id": ann})
		bobConv := a.startConversation(a.Account, a.Admin, H{"inbox_id": private, "contact_id": bob})
		other, otherAdmin := a.otherAccount("Other")
		otherInbox := a.inboxIn(other, otherAdmin, "Their inbox", H{"type": "api", "webhook_url": "https://hooks.example.com/in"})
		bea, _ := a.contactIn(other, otherAdmin, otherInbox, H{"name": "Bea"})
		beaConv := a.startConversation(other, otherAdmin, H{"inbox_id": otherInbox, "contact_id": bea})
		// deliveredThere waits until the message a change posted in the
		// other account is delivered (recorded by the job runner).
		deliveredThere := func(t *testing.T, posted *response) {
			id := posted.int(t, "id")
			apitest.Eventually(t, 10*time.Second, "the other account's message to be delivered", func() bool {
				r := a.mustDoT(t, request{method: "GET", path: accountPath(other, "/conversations/%d/messages", beaConv), token: otherAdmin}, http.StatusOK)
				for i := range r.ints(t, "payload.*.id") {
					if r.int(t, fmt.Sprintf("payload.%d.id", i)) == id {
						return r.str(t, fmt.Sprintf("payload.%d.status", i)) == "delivered"
					}
				}
				return false
			})
		}

		all := request{method: "GET", path: a.path("/conversations?status=all")}
		open := request{method: "GET", path: a.path("/conversations")}
		agentAll := request{method: "GET", path: a.path("/conversations?status=all"), token: agent}
		otherAll := request{method: "GET", path: accountPath(other, "/conversations?status=all"), token: otherAdmin}
		long := strings.Repeat("a long message ", 10_000) // 150,000 characters: over the 128 kB a kept page may hold
		steps := []listStep{
			{name: "the administrator's page is read", list: all,
				want: map[string]any{"data.meta.all_count": 2, "data.payload.0.id": bobConv}},
			{name: "and given again from memory", list: all,
				want: map[string]any{"data.meta.all_count": 2, "data.payload.0.id": bobConv}, fromMemory: true},
			{name: "the agent's page is their own: the shared inbox only", list: agentAll,
				want: map[string]any{"data.meta.all_count": 1, "data.payload.0.id": annConv}},
			{name: "the agent's page again, from memory", list: agentAll,
				want: map[string]any{"data.meta.all_count": 1, "data.payload.0.id": annConv}, fromMemory: true},
			{name: "the open page, remembered", list: open, want: map[string]any{"data.meta.all_count": 2}},
			{name: "the other account's page is read", list: otherAll,
				want: map[string]any{"data.meta.all_count": 1, "data.payload.0.meta.sender.name": "Bea"}},
			{name: "a write in the other account leaves this account's pages",
				change: request{method: "PATCH", path: accountPath(other, "/contacts/%d", bea), token: otherAdmin, body: H{"name": "Bea Renamed"}},
				list:   agentAll, want: map[string]any{"data.meta.all_count": 1, "data.payload.0.id": annConv}, fromMemory: true},
			{name: "a post in the other account, and its delivery, leave this account's pages",
				change: request{method: "POST", path: accountPath(other, "/conversations/%d/messages", beaConv), token: otherAdmin, body: H{"content": "their news"}},
				settle: deliveredThere,
				list:   agentAll, want: map[string]any{"data.meta.all_count": 1, "data.payload.0.id": annConv}, fromMemory: true},
			{name: "and forgets the other account's own", list: otherAll,
				want: map[string]any{"data.payload.0.meta.sender.name": "Bea Renamed"}},
			{name: "a new message shows at once",
				change: request{method: "POST", path: a.path("/conversations/%d/messages", annConv), body: H{"content": "fresh news"}},
				list:   all,
				want:   map[string]any{"data.payload.0.id": annConv, "data.payload.0.messages.0.content": "fresh news"}},
			{name: "a renamed contact shows at once",
				change: request{method: "PATCH", path: a.path("/contacts/%d", ann), body: H{"name": "Ann Renamed"}},
				list:   agentAll, want: map[string]any{"data.payload.0.meta.sender.name": "Ann Renamed"}},
			{name: "a resolved conversation leaves the open page at once",
				change: request{method: "POST", path: a.path("/conversations/%d/toggle_status", bobConv), body: H{"status": "resolved"}},
				list:   open, want: map[string]any{"data.meta.all_count": 1, "data.payload.0.id": annConv}},
			{name: "a page holding a very long message is read",
				change: request{method: "POST", path: a.path("/conversations/%d/messages", bobConv), body: H{"content": long}},
				list:   all, want: map[string]any{"data.payload.0.id": bobConv}},
			{name: "and read again: it is too large to keep", list: all, want: map[string]any{"data.payload.0.id": bobConv}},
			{name: "an agent taken off the inbox sees none of it at once",
				change: request{method: "DELETE", path: a.path("/inbox_members"), body: H{"inbox_id": shared, "user_ids": []int{agentID}}},
				list:   agentAll, want: map[string]any{"data.meta.all_count": 0, "data.payload": []any{}}},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				if st.change.method != "" {
					changed := a.mustDoT(t, st.change, http.StatusOK)
					if st.settle != nil {
						st.settle(t, changed)
					}
				}
				before := n.Load()
				r := a.mustDoT(t, st.list, http.StatusOK)
				statements := n.Load() - before
				expect(t, r, st.want)
				if st.fromMemory && statements != 0 {
					t.Errorf("a page asked for again took %d statements, want 0 (from memory)", statements)
				}
				if !st.fromMemory && statements == 0 {
					t.Errorf("a page that had to be read took no statement: it came from memory")
				}
			})
		}
	})
}

// TestConversationListHearsOfChangesOnAnotherInstance: a page one instance
// remembers is forgotten when another instance renames its contact, well
// before the entry would expire. (A rename starts no background work that
// could write on the first instance and forget the page there.)
func TestConversationListHearsOfChangesOnAnotherInstance(t *testing.T) {
	t.Parallel()
	a, b := twoInstances(t)
	ib := a.apiInbox("Support")
	ct, _ := a.contact(ib, H{"name": "Ann"})
	a.startConversation(a.Account, a.Admin, H{"inbox_id": ib, "contact_id": ct})
	list := request{method: "GET", path: a.path("/conversations?status=all")}
	b.mustDo(list, http.StatusOK) // b remembers the page
	a.mustDo(request{method: "PATCH", path: a.path("/contacts/%d", ct), body: H{"name": "Ann on a"}}, http.StatusOK)
	// Within half the page's lifetime: only the announcement can do it.
	apitest.Eventually(t, listCacheLifetime/2, "instance b gives the page with the name written on a", func() bool {
		got, _ := b.mustDo(list, http.StatusOK).get("data.payload.0.meta.sender.name")
		return got == "Ann on a"
	})
}

// listCacheLifetime is how long a page may be kept (list_cache.go's
// listCacheTTL): an announcement must beat it.
const listCacheLifetime = 2 * time.Second
