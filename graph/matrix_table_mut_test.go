package graph_test

// The GraphQL matrix's table, part 2: mutations of contacts, inboxes,
// bots, labels, agents, teams, conversations, messages and schedules.

import (
	"context"
	"fmt"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/webhookdelivery"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/viewer"
)

// gmFresh makes an object over REST as A's administrator for a one-shot
// mutation and keeps its id as c.ids[name].
func gmFresh(name, path string, body func(c *gmCell) any, idPath string) func(c *gmCell) {
	return func(c *gmCell) { c.ids[name] = c.restID(path, body(c), idPath) }
}

func gmContactBody(c *gmCell) any {
	return H{"inbox_id": c.w.Inbox1, "name": fmt.Sprintf("Fresh %d", c.n())}
}

func gmLater() string { return time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339) }

func gmFreshSchedule(c *gmCell) {
	c.ids["id"] = c.restID(fmt.Sprintf("/conversations/%d/scheduled_messages", c.w.Conv),
		H{"content": "Fresh", "scheduled_at": gmLater()}, "id")
}

// idf formats a field with a fresh id (c.ids[name]).
func idf(format, name string) func(c *gmCell) string {
	return func(c *gmCell) string { return fmt.Sprintf(format, c.ids[name]) }
}

func gmMutations() map[string]gmEntry {
	return map[string]gmEntry{
		"mutation.createContact": {want: gmMemberRef(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createContact(input: {inboxID: %d, name: "Made %d"}) { contact { id } userErrors { field message code } }`, c.w.Inbox1, c.n())
		}},
		"mutation.updateContact":    {want: gmMemberObj(), field: gmf(`updateContact(id: %d, input: {name: "GM Contact"}) { contact { id } userErrors { field message code } }`, wContact)},
		"mutation.deleteContact":    {want: gmAdminObj(), setup: gmFresh("id", "/contacts", gmContactBody, "payload.contact.id"), field: idf("deleteContact(id: %d) { deletedId userErrors { field message code } }", "id")},
		"mutation.setContactLabels": {want: gmMemberObj(), field: gmf(`setContactLabels(id: %d, labels: ["gm-label"]) { labels userErrors { field message code } }`, wContact)},
		"mutation.createContactInbox": {want: gmMemberObj(), setup: gmFresh("id", "/contacts", gmContactBody, "payload.contact.id"),
			field: func(c *gmCell) string {
				return fmt.Sprintf("createContactInbox(contactID: %d, inboxID: %d) { contactInbox { sourceID } userErrors { field message code } }", c.ids["id"], c.w.Inbox2)
			}},
		"mutation.mergeContacts": {want: gmMemberRef(),
			setup: func(c *gmCell) {
				gmFresh("base", "/contacts", gmContactBody, "payload.contact.id")(c)
				gmFresh("mergee", "/contacts", gmContactBody, "payload.contact.id")(c)
			},
			field: func(c *gmCell) string {
				return fmt.Sprintf("mergeContacts(baseContactID: %d, mergeeContactID: %d) { contact { id } userErrors { field message code } }", c.ids["base"], c.ids["mergee"])
			}},

		"mutation.createInbox": {want: gmAdminList(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createInbox(input: {name: "Made %d", channel: {type: "api"}}) { inbox { id } userErrors { field message code } }`, c.n())
		}},
		"mutation.updateInbox": {want: gmAdminObj(), field: gmf(`updateInbox(id: %d, input: {greetingMessage: "Hi"}) { inbox { id } userErrors { field message code } }`, wInbox1)},
		"mutation.deleteInbox": {want: gmAdminObj(), field: idf("deleteInbox(id: %d) { deletedId userErrors { field message code } }", "id"),
			setup: gmFresh("id", "/inboxes", func(c *gmCell) any { return H{"name": fmt.Sprintf("Gone %d", c.n()), "channel": H{"type": "api"}} }, "id")},
		"mutation.setInboxAgentBot":   {want: gmAdminObj(), field: gmf("setInboxAgentBot(inboxID: %d, agentBotID: %d) { inbox { id } userErrors { field message code } }", wInbox1, wBot)},
		"mutation.changeInboxMembers": {want: gmAdminObj(), field: gmf("changeInboxMembers(inboxID: %d, userIDs: [%d], change: ADD) { members { __typename } userErrors { field message code } }", wInbox1, wSpare)},

		"mutation.createAgentBot": {want: gmAdminList(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createAgentBot(input: {name: "Bot %d"}) { agentBot { id } userErrors { field message code } }`, c.n())
		}},
		"mutation.updateAgentBot": {want: gmAdminObj(), field: gmf(`updateAgentBot(id: %d, input: {description: "x"}) { agentBot { id } userErrors { field message code } }`, wBot)},
		"mutation.deleteAgentBot": {want: gmAdminObj(), field: idf("deleteAgentBot(id: %d) { deletedId userErrors { field message code } }", "id"),
			setup: gmFresh("id", "/agent_bots", func(c *gmCell) any { return H{"name": fmt.Sprintf("Gone %d", c.n())} }, "id")},

		"mutation.createLabel": {want: gmAdminList(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createLabel(input: {title: "made-%d"}) { label { id } userErrors { field message code } }`, c.n())
		}},
		"mutation.updateLabel": {want: gmAdminObj(), field: gmf(`updateLabel(id: %d, input: {description: "x"}) { label { id } userErrors { field message code } }`, wLabel)},
		"mutation.deleteLabel": {want: gmAdminObj(), field: idf("deleteLabel(id: %d) { deletedId userErrors { field message code } }", "id"),
			setup: gmFresh("id", "/labels", func(c *gmCell) any { return H{"title": fmt.Sprintf("gone-%d", c.n())} }, "id")},

		"mutation.createAgent": {want: gmAdminList(), field: func(c *gmCell) string {
			n := c.n()
			return fmt.Sprintf(`createAgent(input: {name: "Made %d", email: "made%d@people.test", role: "agent"}) { agent { __typename } userErrors { field message code } }`, n, n)
		}},
		"mutation.updateAgent": {want: gmAdminObj(), field: gmf(`updateAgent(id: %d, input: {availability: "busy"}) { agent { __typename } userErrors { field message code } }`, wSpare)},
		"mutation.deleteAgent": {want: gmAdminObj(), field: idf("deleteAgent(id: %d) { deletedId userErrors { field message code } }", "id"),
			setup: func(c *gmCell) { c.ids["id"], _ = c.w.agentUser(c.w.Account) }},

		"mutation.createTeam": {want: gmAdminList(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createTeam(input: {name: "Team %d"}) { team { id } userErrors { field message code } }`, c.n())
		}},
		"mutation.updateTeam": {want: gmAdminObj(), field: gmf(`updateTeam(id: %d, input: {description: "x"}) { team { id } userErrors { field message code } }`, wTeam)},
		"mutation.deleteTeam": {want: gmAdminObj(), field: idf("deleteTeam(id: %d) { deletedId userErrors { field message code } }", "id"),
			setup: gmFresh("id", "/teams", func(c *gmCell) any { return H{"name": fmt.Sprintf("Gone %d", c.n())} }, "id")},
		"mutation.changeTeamMembers": {want: gmAdminObj(), field: gmf("changeTeamMembers(teamID: %d, userIDs: [%d], change: REPLACE) { members { __typename } userErrors { field message code } }", wTeam, wSpare)},

		"mutation.createConversation":       {want: gmInboxCreate(), field: gmf("createConversation(input: {inboxID: %d, contactID: %d}) { conversation { id } userErrors { field message code } }", wInbox1, wContact)},
		"mutation.toggleConversationStatus": {want: gmInboxObj(), field: gmf(`toggleConversationStatus(displayID: %d, status: "open") { conversation { id } userErrors { field message code } }`, wConv)},
		"mutation.setConversationLabels":    {want: gmInboxObj(), field: gmf(`setConversationLabels(displayID: %d, labels: ["gm-label"]) { labels userErrors { field message code } }`, wConv)},
		"mutation.assignConversation":       {want: gmInboxObj(), field: gmf(`assignConversation(displayID: %d, removeTeam: true) { conversation { id } userErrors { field message code } }`, wConv)},
		"mutation.setConversationPriority":  {want: gmInboxObj(), field: gmf(`setConversationPriority(displayID: %d, priority: "high") { conversation { id } userErrors { field message code } }`, wConv)},
		"mutation.createMessage":            {want: gmInboxObj(), field: gmf(`createMessage(conversationDisplayID: %d, input: {content: "Hi"}) { message { id } userErrors { field message code } }`, wConv)},
		"mutation.deleteMessage": {want: gmInboxObj(),
			setup: func(c *gmCell) {
				c.ids["id"] = c.restID(fmt.Sprintf("/conversations/%d/messages", c.w.Conv), H{"content": "Fresh"}, "id")
			},
			field: func(c *gmCell) string {
				return fmt.Sprintf("deleteMessage(conversationDisplayID: %d, messageID: %d) { deletedId userErrors { field message code } }", c.w.Conv, c.ids["id"])
			}},
		// The matrix's inbox does not deliver: the failure is written
		// straight to the database.
		"mutation.retryMessage": {want: gmInboxObj(),
			setup: func(c *gmCell) {
				c.ids["id"] = c.restID(fmt.Sprintf("/conversations/%d/messages", c.w.Conv), H{"content": "Failed"}, "id")
				apitest.FailMessage(c.t, viewer.SystemContext(context.Background()), c.w.srv.DB.Client, c.ids["id"])
			},
			field: func(c *gmCell) string {
				return fmt.Sprintf("retryMessage(conversationDisplayID: %d, messageID: %d) { message { id status deliveryAttempts deliveryError } userErrors { field message code } }", c.w.Conv, c.ids["id"])
			}},
		"mutation.setAgentTyping": {want: gmInboxObj(), field: gmf("setAgentTyping(conversationDisplayID: %d, typing: true) { typing userErrors { field message code } }", wConv)},
		"mutation.retryWebhookDelivery": {want: gmAdminObj(),
			setup: func(c *gmCell) { c.ids["id"] = failedDelivery(c.w.srv.DB.Client, c.w.Account, c.w.Webhook, c.n()) },
			field: func(c *gmCell) string {
				return fmt.Sprintf("retryWebhookDelivery(webhookID: %d, deliveryID: %d) { deliveryId userErrors { field message code } }", c.w.Webhook, c.ids["id"])
			}},

		"mutation.createCustomAttributeDefinition": {want: gmAdminList(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createCustomAttributeDefinition(input: {attributeDisplayName: "Tier", attributeKey: "tier_%d", attributeModel: "contact_attribute"}) { customAttributeDefinition { id } userErrors { field message code } }`, c.n())
		}},
		"mutation.updateCustomAttributeDefinition": {want: gmAdminObj(), field: gmf(`updateCustomAttributeDefinition(id: %d, input: {attributeDescription: "GM"}) { customAttributeDefinition { id } userErrors { field message code } }`, wAttr)},
		"mutation.deleteCustomAttributeDefinition": {want: gmAdminObj(), setup: func(c *gmCell) {
			c.ids["id"] = c.restID("/custom_attribute_definitions", H{"attribute_display_name": "Gone", "attribute_key": fmt.Sprintf("gone_%d", c.n()),
				"attribute_model": "contact_attribute"}, "id")
		}, field: idf("deleteCustomAttributeDefinition(id: %d) { deletedId userErrors { field message code } }", "id")},
		"mutation.createWebhook": {want: gmAdminList(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createWebhook(input: {name: "GM %d", url: "%s/made", subscriptions: ["message_created"]}) { webhook { id } userErrors { field message code } }`, c.n(), c.w.hook.URL)
		}},
		"mutation.updateWebhook": {want: gmAdminObj(), field: gmf(`updateWebhook(id: %d, input: {name: "GM webhook"}) { webhook { id } userErrors { field message code } }`, wWebhook)},
		"mutation.deleteWebhook": {want: gmAdminObj(), setup: func(c *gmCell) {
			c.ids["id"] = c.restID("/webhooks", H{"url": c.w.hook.URL + "/gone", "subscriptions": []string{"message_created"}}, "payload.webhook.id")
		}, field: idf("deleteWebhook(id: %d) { deletedId userErrors { field message code } }", "id")},

		"mutation.createScheduledMessage": {want: gmInboxRef(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createScheduledMessage(input: {conversationDisplayID: %d, content: "Later", scheduledAt: "%s"}) { scheduledMessage { id } userErrors { field message code } }`, c.w.Conv, gmLater())
		}},
		"mutation.updateScheduledMessage": {want: gmAuthorOrAdmin(), field: gmf(`updateScheduledMessage(id: %d, input: {content: "`+gmMarkSchedule+`"}) { scheduledMessage { id } userErrors { field message code } }`, wSchedule)},
		"mutation.cancelScheduledMessage": {want: gmAuthorOrAdmin(), setup: gmFreshSchedule, field: idf("cancelScheduledMessage(id: %d) { scheduledMessage { id } userErrors { field message code } }", "id")},
		"mutation.deleteScheduledMessage": {want: gmAuthorOrAdmin(), setup: gmFreshSchedule, field: idf("deleteScheduledMessage(id: %d) { deletedId userErrors { field message code } }", "id")},
	}
}

// failedDelivery writes a failed delivery to webhook webhookID of account
// accountID straight to the database (the matrix's receiver answers every
// delivery), for the retry route, and returns its id.
func failedDelivery(c *ent.Client, accountID, webhookID int, n int64) int {
	return c.WebhookDelivery.Create().SetAccountID(accountID).SetSubscriptionID(webhookID).
		SetDeliveryID(fmt.Sprintf("msg_failed_%d", n)).SetURL("http://127.0.0.1:1/hook").SetEvent("message_created").
		SetPayload("{}").SetStatus(webhookdelivery.StatusFailed).SetAttempts(3).SetLastError("receiver answered 503").
		SaveX(viewer.SystemContext(context.Background())).ID
}
