package rest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// Inboxes come from the inboxes' memory (issue 13): once a member has read
// them, a contact show, REST or GraphQL, reads the contact and its contact
// inboxes and nothing else, and the conversation list reads no inbox; an
// inbox renamed is shown by its new name at the next show, and remembered
// again after it.
func TestInboxesShownComeFromMemory(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		w := newCountingWorld(t, e)
		w.startConversation(w.Account, w.Admin, H{"inbox_id": w.inbox, "contact_id": w.contactID})
		cases := []struct {
			name       string
			show       request
			statements int64
			inboxName  string // where the first contact inbox's inbox name is ("": not shown)
		}{
			{"REST GET /contacts/{id}", request{method: "GET", path: w.path("/contacts/%d", w.contactID)},
				2, "payload.contact_inboxes.0.inbox.name"},
			{"GraphQL contact(id)", request{method: "POST", path: "/graphql",
				header: map[string]string{"X-Account-Id": strconv.Itoa(w.Account)},
				body:   H{"query": countedContactQuery, "variables": H{"id": w.contactID}}},
				2, "data.contact.contactInboxes.0.inbox.name"},
			// The counts, the page, its contacts, their last messages.
			{"REST GET /conversations", request{method: "GET", path: w.path("/conversations?status=all")}, 4, ""},
		}
		for i, tc := range cases {
			if tc.inboxName == "" { // the list, read from the database each time
				if got := listStatementsOf(w.app, w.n, tc.show, w.contactID); got != tc.statements {
					t.Errorf("%s: %d statements, want %d", tc.name, got, tc.statements)
				}
				continue
			}
			if got := statementsOf(w.app, w.n, tc.show); got != tc.statements {
				t.Errorf("%s: %d statements, want %d", tc.name, got, tc.statements)
			}
			renamed := fmt.Sprintf("Renamed %d", i)
			w.mustDo(request{method: "PATCH", path: w.path("/inboxes/%d", w.inbox), body: H{"name": renamed}}, http.StatusOK)
			before := w.n.Load()
			r := w.mustDo(tc.show, http.StatusOK)
			if got := r.str(t, tc.inboxName); got != renamed {
				t.Errorf("%s after the rename: inbox %q, want %q\n%s", tc.name, got, renamed, r)
			}
			if got := w.n.Load() - before; got != tc.statements+1 {
				t.Errorf("%s after the rename: %d statements, want %d (the inbox read again)", tc.name, got, tc.statements+1)
			}
			if got := statementsOf(w.app, w.n, tc.show); got != tc.statements {
				t.Errorf("%s after the rename, read again: %d statements, want %d", tc.name, got, tc.statements)
			}
		}
	})
}
