package graph_test

import (
	"fmt"
	"net/http"
)

// The subscriptions of graph/subscriptions.graphqls beyond the first three
// (matrix_table_kanban_test.go). An account-wide one is open to every member
// of the account, and its trigger makes a change each of them may see (in
// inbox 1, inbox 2 and account B); one naming a conversation is its inbox's.

// wConvDB is the conversation's database id (Conv is its display id).
func wConvDB(w *gmWorld) int {
	r := w.gql(gqlReq{query: fmt.Sprintf(`{ conversation(displayID: %d) { databaseId } }`, w.Conv)})
	return int(mustGet(w.t, r.Data, "conversation.databaseId").(float64))
}

// gmConversationEverywhere starts a conversation in inboxes 1 and 2 and in
// account B.
func gmConversationEverywhere(c *gmCell) {
	c.w.mustREST("POST", c.w.accountPath+"/conversations", c.w.Admin, H{"inbox_id": c.w.Inbox1, "contact_id": c.w.Contact}, http.StatusOK)
	c.w.mustREST("POST", c.w.accountPath+"/conversations", c.w.Admin, H{"inbox_id": c.w.Inbox2, "contact_id": c.w.ContactOut}, http.StatusOK)
	c.w.mustREST("POST", c.w.pathOfB+"/conversations", c.w.tokens[gmOther], H{"inbox_id": c.w.InboxB, "contact_id": c.w.ContactB}, http.StatusOK)
}

// gmContactEverywhere creates a contact in A and one in B.
func gmContactEverywhere(c *gmCell) {
	name := fmt.Sprintf("GM live %d", c.n())
	c.w.mustREST("POST", c.w.accountPath+"/contacts", c.w.Admin, H{"inbox_id": c.w.Inbox2, "name": name}, http.StatusOK)
	c.w.mustREST("POST", c.w.pathOfB+"/contacts", c.w.tokens[gmOther], H{"inbox_id": c.w.InboxB, "name": name}, http.StatusOK)
}

// gmRenameEverywhere renames a contact of A and one of B.
func gmRenameEverywhere(c *gmCell) {
	name := fmt.Sprintf("GM renamed %d", c.n())
	c.w.mustREST("PUT", fmt.Sprintf("%s/contacts/%d", c.w.accountPath, c.w.ContactOut), c.w.Admin, H{"name": name}, http.StatusOK)
	c.w.mustREST("PUT", fmt.Sprintf("%s/contacts/%d", c.w.pathOfB, c.w.ContactB), c.w.tokens[gmOther], H{"name": name}, http.StatusOK)
}

// gmPostInConv posts a reply in Conv: message_created, and message_updated
// once inbox 1's channel has delivered it.
func gmPostInConv(c *gmCell) {
	c.w.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", c.w.accountPath, c.w.Conv), c.w.Admin, H{"content": "Live"}, http.StatusOK)
}

func gmLiveSubscriptions() map[string]gmEntry {
	return map[string]gmEntry{
		"subscription.conversationCreated": {want: gmMember(),
			field: gmFixed("conversationCreated { sequence conversation { id } }"), trigger: gmConversationEverywhere},
		"subscription.conversationUpdated": {want: gmInboxObj(),
			field: gmf("conversationUpdated(conversationID: %d) { sequence kind }", wConvDB),
			trigger: func(c *gmCell) {
				// A label new to the conversation each time: setting the
				// labels it already has changes nothing and tells nobody.
				c.w.mustREST("POST", fmt.Sprintf("%s/conversations/%d/labels", c.w.accountPath, c.w.Conv), c.w.Admin,
					H{"labels": []string{fmt.Sprintf("gm-label-%d", c.n())}}, http.StatusOK)
			}},
		"subscription.messageAdded": {want: gmInboxObj(),
			field: gmf("messageAdded(conversationID: %d) { sequence message { content } }", wConvDB), trigger: gmPostInConv},
		"subscription.messageUpdated": {want: gmInboxObj(),
			field: gmf("messageUpdated(conversationID: %d) { sequence message { status } }", wConvDB), trigger: gmPostInConv},
		"subscription.contactCreated": {want: gmMember(),
			field: gmFixed("contactCreated { sequence contact { id } }"), trigger: gmContactEverywhere},
		"subscription.contactUpdated": {want: gmMember(),
			field: gmFixed("contactUpdated { sequence contact { id } }"), trigger: gmRenameEverywhere},
		"subscription.typingChanged": {want: gmInboxObj(),
			field: gmf("typingChanged(conversationID: %d) { sequence typing }", wConvDB),
			trigger: func(c *gmCell) {
				c.w.mustREST("POST", fmt.Sprintf("%s/conversations/%d/toggle_typing_status", c.w.accountPath, c.w.Conv), c.w.Admin,
					H{"typing_status": "on"}, http.StatusOK)
			}},
	}
}
