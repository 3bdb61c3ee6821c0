package rest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// A contact's inboxes come from the inboxes' memory (issue 13): once a
// member has read them, a contact show, REST or GraphQL, reads the contact
// and its contact inboxes and nothing else; an inbox renamed is shown by its
// new name at the next show, and remembered again after it.
func TestAContactShowsItsInboxesFromMemory(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		w := newCountingWorld(t, e)
		cases := []struct {
			name      string
			show      request
			inboxName string // where the first contact inbox's inbox name is
		}{
			{"REST GET /contacts/{id}", request{method: "GET", path: w.path("/contacts/%d", w.contactID)},
				"payload.contact_inboxes.0.inbox.name"},
			{"GraphQL contact(id)", request{method: "POST", path: "/graphql",
				header: map[string]string{"X-Account-Id": strconv.Itoa(w.Account)},
				body:   H{"query": countedContactQuery, "variables": H{"id": w.contactID}}},
				"data.contact.contactInboxes.0.inbox.name"},
		}
		for i, tc := range cases {
			if got := statementsOf(w.app, w.n, tc.show); got != 2 {
				t.Errorf("%s: %d statements, want 2 (the contact, its contact inboxes)", tc.name, got)
			}
			renamed := fmt.Sprintf("Renamed %d", i)
			w.mustDo(request{method: "PATCH", path: w.path("/inboxes/%d", w.inbox), body: H{"name": renamed}}, http.StatusOK)
			before := w.n.Load()
			r := w.mustDo(tc.show, http.StatusOK)
			if got := r.str(t, tc.inboxName); got != renamed {
				t.Errorf("%s after the rename: inbox %q, want %q\n%s", tc.name, got, renamed, r)
			}
			if got := w.n.Load() - before; got != 3 {
				t.Errorf("%s after the rename: %d statements, want 3 (the inbox read again)", tc.name, got)
			}
			if got := statementsOf(w.app, w.n, tc.show); got != 2 {
				t.Errorf("%s after the rename, read again: %d statements, want 2", tc.name, got)
			}
		}
	})
}
