package rest_test

import (
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// TestAContactsLinksAreTheirInboxes: a contact is the account's, but its
// link to an inbox (the source id the inbox's channel and its public client
// API know the contact by, with which anyone holding the inbox's public
// identifier reads the contact's conversations there) is the inbox's. An
// agent reads the links of its own inboxes only; it may still link a
// contact to any inbox, as Chatwoot's agents may, and is told the link it
// made.
func TestAContactsLinksAreTheirInboxes(t *testing.T) {
	t.Parallel()
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		t.Parallel()
		a := newApp(t, e)
		agent, hidden, worked := a.agentOfOneInbox()
		ann, annHidden := a.contact(hidden, H{"name": "Ann"})
		annWorked := a.mustDo(request{method: "POST", path: a.path("/contacts/%d/contact_inboxes", ann),
			body: H{"inbox_id": worked}}, http.StatusOK).str(t, "source_id")
		show := request{method: "GET", path: a.path("/contacts/%d", ann)}
		a.run(t, []scenario{
			{name: "the administrator reads both links", request: show, wantStatus: http.StatusOK,
				want: map[string]any{"payload.contact_inboxes.*.source_id": sameItems(annHidden, annWorked)}},
			{name: "the agent reads the link of its inbox only", request: as(agent, show), wantStatus: http.StatusOK,
				want: map[string]any{"payload.contact_inboxes.*.source_id": []string{annWorked}}, check: bodyLacks(annHidden)},
			{name: "and so in the contact list", request: as(agent, request{method: "GET", path: a.path("/contacts")}),
				wantStatus: http.StatusOK, check: bodyLacks(annHidden)},
			{name: "an agent's new contact in an inbox it does not work in tells it the link it made",
				request:    as(agent, request{method: "POST", path: a.path("/contacts"), body: H{"inbox_id": hidden, "name": "Bea", "source_id": "bea-1"}}),
				wantStatus: http.StatusOK, want: map[string]any{"payload.contact_inbox.source_id": "bea-1", "payload.contact_inbox.inbox.id": hidden}},
			{name: "the agent can reach the contact in its inbox only (as Chatwoot lists an agent's)",
				request: as(agent, request{method: "GET", path: a.path("/contacts/%d/contactable_inboxes", ann)}), wantStatus: http.StatusOK,
				want: map[string]any{"payload.*.inbox.id": []int{worked}, "payload.*.source_id": []string{annWorked}}},
			{name: "the administrator in both", request: request{method: "GET", path: a.path("/contacts/%d/contactable_inboxes", ann)},
				wantStatus: http.StatusOK, want: map[string]any{"payload.*.source_id": sameItems(annHidden, annWorked)}},
			invalid("a source id taken there is refused as taken, naming source_id",
				as(agent, request{method: "POST", path: a.path("/contacts/%d/contact_inboxes", ann), body: H{"inbox_id": hidden, "source_id": "bea-1"}}), "source_id"),
		})
	})
}
