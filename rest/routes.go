package rest

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/switchboard/switchboard/internal/accounts"
)

// routes lists every REST route in one place, each with its description
// for the OpenAPI document (apidoc*.go): what it reads, what it answers.
func (a *API) routes(app *fiber.App, book *routeBook) {
	acc := guarded{app.Group("/api/v1/accounts/:account_id"), "/api/v1/accounts/:account_id", userAPIKey, book, accountAuth(a.svc), idempotent(a.svc)}
	labelList := payloadOf(arr(str()))

	acc.Get("/contacts", a.listContacts, op("List contacts", contactPageAnswer(false)).q("page", "sort", "labels"))
	acc.Post("/contacts", a.createContact, op("Create a contact (in an inbox)", contactCreatedAnswer()).in(contactRequest{}, "contact"))
	acc.Get("/contacts/search", a.searchContacts, op("Search contacts", contactPageAnswer(true)).q("q", "sort", "page"))
	acc.Post("/contacts/filter", a.filterContacts, op("Filter contacts", contactPageAnswer(false)).q("page").in(contactFilterRequest{}, ""))
	acc.Get("/contacts/:id", a.showContact, op("Show a contact", payloadOf(shapeOf("Contact"))))
	acc.Put("/contacts/:id", a.updateContact, op("Update a contact", payloadOf(shapeOf("Contact"))).in(contactRequest{}, "contact"))
	acc.Patch("/contacts/:id", a.updateContact, op("Update a contact", payloadOf(shapeOf("Contact"))).in(contactRequest{}, "contact"))
	acc.Delete("/contacts/:id", a.deleteContact, op("Delete a contact", nil))
	acc.Get("/contacts/:id/conversations", a.contactConversations, op("A contact's conversations", payloadOf(listAnswer("Conversation"))))
	acc.Post("/contacts/:id/contact_inboxes", a.createContactInbox, op("Link a contact to an inbox", shape("ContactInbox")).in(contactInboxRequest{}, ""))
	acc.Get("/contacts/:id/contactable_inboxes", a.contactableInboxes, op("Inboxes a contact can be reached in", payloadOf(arr(obj(props{"source_id": str(), "inbox": shapeOf("InboxSlim")})))))
	acc.Get("/contacts/:id/labels", a.contactLabels, op("A contact's labels", labelList))
	acc.Post("/contacts/:id/labels", a.setContactLabels, op("Replace a contact's labels", labelList).in(labelsRequest{}, ""))
	acc.Post("/actions/contact_merge", a.mergeContacts, op("Merge two contacts", shape("ContactBase")).in(contactMergeRequest{}, ""))

	acc.Get("/inboxes", a.listInboxes, op("List inboxes", payloadOf(listAnswer("Inbox"))))
	acc.Post("/inboxes", a.createInbox, op("Create an inbox (its HMAC token shown once)", shape("Inbox")).in(inboxRequest{}, "inbox"))
	acc.Get("/inboxes/:id", a.showInbox, op("Show an inbox", shape("Inbox")))
	acc.Patch("/inboxes/:id", a.updateInbox, op("Update an inbox", shape("Inbox")).in(inboxRequest{}, "inbox"))

	attr := shape("CustomAttributeDefinition")
	acc.Get("/custom_attribute_definitions", a.listCustomAttributes, op("List custom attribute definitions", listOf("CustomAttributeDefinition")).q("attribute_model"))
	acc.Post("/custom_attribute_definitions", a.createCustomAttribute, op("Create a custom attribute definition", attr).in(customAttributeRequest{}, "custom_attribute_definition"))
	acc.Get("/custom_attribute_definitions/:id", a.showCustomAttribute, op("Show a custom attribute definition", attr))
	acc.Patch("/custom_attribute_definitions/:id", a.updateCustomAttribute, op("Update a custom attribute definition", attr).in(customAttributeRequest{}, "custom_attribute_definition"))
	acc.Put("/custom_attribute_definitions/:id", a.updateCustomAttribute, op("Update a custom attribute definition", attr).in(customAttributeRequest{}, "custom_attribute_definition"))
	acc.Delete("/custom_attribute_definitions/:id", a.deleteCustomAttribute, op("Delete a custom attribute definition", nil))

	agentBot, members := inline(obj(props{"agent_bot": orNull(shape("AgentBot"))})), payloadOf(listAnswer("Agent"))
	acc.Delete("/inboxes/:id", a.deleteInbox, op("Delete an inbox", inline(obj(props{"message": str()}))))
	acc.Get("/inboxes/:id/agent_bot", a.inboxAgentBot, op("An inbox's agent bot", agentBot))
	acc.Post("/inboxes/:id/set_agent_bot", a.setInboxAgentBot, op("Set or remove an inbox's agent bot", agentBot).in(inboxAgentBotRequest{}, ""))
	acc.Get("/inbox_members/:inbox_id", a.inboxMembers, op("An inbox's agents", members))
	acc.Post("/inbox_members", a.changeInboxMembers(accounts.AddMembers), op("Add agents to an inbox", members).in(inboxMembersRequest{}, ""))
	acc.Patch("/inbox_members", a.changeInboxMembers(accounts.ReplaceMembers), op("Replace an inbox's agents", members).in(inboxMembersRequest{}, ""))
	acc.Delete("/inbox_members", a.changeInboxMembers(accounts.RemoveMembers), op("Remove agents from an inbox", nil).in(inboxMembersRequest{}, ""))
	acc.Delete("/inbox_members/:inbox_id", a.changeInboxMembers(accounts.RemoveMembers), op("Remove agents from an inbox", nil).in(inboxMembersRequest{}, ""))

	bot := shape("AgentBot")
	acc.Get("/agent_bots", a.listAgentBots, op("List agent bots", listOf("AgentBot")))
	acc.Post("/agent_bots", a.createAgentBot, op("Create an agent bot", bot).in(agentBotRequest{}, "agent_bot"))
	acc.Get("/agent_bots/:id", a.showAgentBot, op("Show an agent bot", bot))
	acc.Patch("/agent_bots/:id", a.updateAgentBot, op("Update an agent bot", bot).in(agentBotRequest{}, "agent_bot"))
	acc.Delete("/agent_bots/:id", a.deleteAgentBot, op("Delete an agent bot", nil))

	label := shape("Label")
	acc.Get("/labels", a.listLabels, op("List labels", payloadOf(listAnswer("Label"))))
	acc.Post("/labels", a.createLabel, op("Create a label", label).in(labelRequest{}, "label"))
	acc.Get("/labels/:id", a.showLabel, op("Show a label", label))
	acc.Patch("/labels/:id", a.updateLabel, op("Update a label", label).in(labelRequest{}, "label"))
	acc.Put("/labels/:id", a.updateLabel, op("Update a label", label).in(labelRequest{}, "label"))
	acc.Delete("/labels/:id", a.deleteLabel, op("Delete a label", nil))

	conv := shape("Conversation")
	acc.Get("/conversations", a.listConversations, op("List conversations", conversationListAnswer()).q("status", "assignee_type", "inbox_id", "team_id", "labels", "page"))
	acc.Post("/conversations", a.createConversation, op("Create a conversation (with a first message)", conv).in(conversationRequest{}, ""))
	acc.Get("/conversations/:id", a.showConversation, op("Show a conversation", conv))
	acc.Post("/conversations/:id/toggle_status", a.toggleConversationStatus, op("Change a conversation's status", toggleStatusAnswer()).in(toggleStatusRequest{}, ""))
	acc.Post("/conversations/:id/assignments", a.assignConversation, op("Assign a conversation to an agent or a team (null clears); answers the agent, or the team when only team_id is sent", shapesOrNull("Agent", "Team")).in(assignmentRequest{}, ""))
	acc.Post("/conversations/:id/toggle_priority", a.toggleConversationPriority, op("Set a conversation's priority: low, medium, high, urgent, or null to clear", nil).in(priorityRequest{}, ""))
	acc.Get("/conversations/:id/labels", a.conversationLabels, op("A conversation's labels", labelList))
	acc.Post("/conversations/:id/labels", a.setConversationLabels, op("Replace a conversation's labels", labelList).in(labelsRequest{}, ""))
	acc.Post("/conversations/:id/toggle_typing_status", a.toggleAgentTyping, op("Tell the conversation's watchers the agent is typing (on) or stopped (off)", nil).in(agentTypingRequest{}, ""))

	msg := shape("Message")
	acc.Get("/conversations/:id/messages", a.listMessages, op("A conversation's messages", messageListAnswer()).q("before", "after"))
	acc.Post("/conversations/:id/messages", a.createMessage, op("Send a message", msg).in(messageRequest{}, "").withFiles())
	acc.Delete("/conversations/:id/messages/:message_id", a.deleteMessage, op("Delete a message", msg))
	acc.Post("/conversations/:id/messages/:message_id/retry", a.retryMessage, op("Retry a failed message", msg))
	acc.Get("/conversations/:id/messages/:message_id/attempts", a.messageAttempts, op("A message's delivery attempt log, latest first", payloadOf(listAnswer("DeliveryAttempt"))))
	book.openGet(app, "/api/v1/accounts/:account_id/attachments/:id", signedOrUser, a.downloadAttachment,
		op("Download an attachment (a signed link, or with a token)", nil).q("exp", "sig").as("*/*"))

	sched := shape("ScheduledMessage")
	for _, prefix := range []string{"/scheduled_messages", "/conversations/:conversation_id/scheduled_messages"} {
		acc.Get(prefix, a.listSchedules, op("List scheduled messages", scheduleListAnswer()).q("status", "page"))
		acc.Post(prefix, a.createSchedule, op("Schedule a message", sched).in(scheduleRequest{}, "scheduled_message").withFiles())
		acc.Get(prefix+"/count", a.countSchedules, op("Count scheduled messages", inline(obj(props{"count": integer()}))).q("status"))
		acc.Get(prefix+"/:id", a.showSchedule, op("Show a scheduled message", sched))
		acc.Put(prefix+"/:id", a.updateSchedule, op("Update a scheduled message", sched).in(scheduleRequest{}, "scheduled_message").withFiles())
		acc.Patch(prefix+"/:id", a.updateSchedule, op("Update a scheduled message", sched).in(scheduleRequest{}, "scheduled_message").withFiles())
		acc.Post(prefix+"/:id/cancel", a.cancelSchedule, op("Cancel a scheduled message", sched))
		acc.Delete(prefix+"/:id", a.deleteSchedule, op("Delete a scheduled message", nil).code(http.StatusNoContent))
	}

	hook := payloadOf(obj(props{"webhook": shapeOf("Webhook")}))
	acc.Get("/webhooks", a.listWebhooks, op("List webhooks", payloadOf(obj(props{"webhooks": listAnswer("Webhook")}))))
	acc.Post("/webhooks", a.createWebhook, op("Create a webhook (its secret shown once)", hook).in(webhookRequest{}, "webhook"))
	acc.Get("/webhooks/:id", a.showWebhook, op("Show a webhook", hook))
	acc.Patch("/webhooks/:id", a.updateWebhook, op("Update a webhook", hook).in(webhookRequest{}, "webhook"))
	acc.Put("/webhooks/:id", a.updateWebhook, op("Update a webhook", hook).in(webhookRequest{}, "webhook"))
	acc.Delete("/webhooks/:id", a.deleteWebhook, op("Delete a webhook", nil))
	acc.Get("/webhooks/:id/deliveries", a.webhookDeliveries, op("A webhook's deliveries", payloadOf(listAnswer("WebhookDelivery"))).q("page"))
	acc.Post("/webhooks/:id/deliveries/:delivery_id/retry", a.retryWebhookDelivery, op("Retry a webhook delivery", payloadOf(shapeOf("WebhookDelivery"))))
	acc.Get("/webhooks/:id/deliveries/:delivery_id/attempts", a.webhookDeliveryAttempts, op("A webhook delivery's attempt log, latest first", payloadOf(listAnswer("DeliveryAttempt"))))

	agent := shape("Agent")
	acc.Get("/agents", a.listAgents, op("List agents", listOf("Agent")))
	acc.Post("/agents", a.createAgent, op("Add an agent", agent).in(agentRequest{}, "agent"))
	acc.Patch("/agents/:id", a.updateAgent, op("Update an agent", agent).in(agentRequest{}, "agent"))
	acc.Put("/agents/:id", a.updateAgent, op("Update an agent", agent).in(agentRequest{}, "agent"))
	acc.Delete("/agents/:id", a.deleteAgent, op("Remove an agent", nil))

	team, agents := shape("Team"), listOf("Agent")
	acc.Get("/teams", a.listTeams, op("List teams", listOf("Team")))
	acc.Post("/teams", a.createTeam, op("Create a team", team).in(teamRequest{}, "team"))
	acc.Get("/teams/:id", a.showTeam, op("Show a team", team))
	acc.Patch("/teams/:id", a.updateTeam, op("Update a team", team).in(teamRequest{}, "team"))
	acc.Put("/teams/:id", a.updateTeam, op("Update a team", team).in(teamRequest{}, "team"))
	acc.Delete("/teams/:id", a.deleteTeam, op("Delete a team", nil))
	acc.Get("/teams/:id/team_members", a.teamMembers, op("A team's agents", agents))
	acc.Post("/teams/:id/team_members", a.changeTeamMembers(accounts.AddMembers), op("Add agents to a team (answers the added ones)", agents).in(userIDsRequest{}, ""))
	acc.Patch("/teams/:id/team_members", a.changeTeamMembers(accounts.ReplaceMembers), op("Replace a team's agents", agents).in(userIDsRequest{}, ""))
	acc.Delete("/teams/:id/team_members", a.changeTeamMembers(accounts.RemoveMembers), op("Remove agents from a team", nil).in(userIDsRequest{}, ""))

	funnel := shape("Funnel")
	acc.Get("/funnels", a.listFunnels, op("List funnels", payloadOf(listAnswer("Funnel"))))
	acc.Post("/funnels", a.createFunnel, op("Create a funnel", funnel).in(funnelRequest{}, "funnel"))
	acc.Get("/funnels/:id", a.showFunnel, op("Show a funnel", funnel))
	acc.Patch("/funnels/:id", a.updateFunnel, op("Update a funnel", funnel).in(funnelRequest{}, "funnel"))
	acc.Put("/funnels/:id", a.updateFunnel, op("Update a funnel", funnel).in(funnelRequest{}, "funnel"))
	acc.Delete("/funnels/:id", a.deleteFunnel, op("Delete a funnel", nil))
	acc.Patch("/funnels/:id/reorder", a.reorderStages, op("Reorder a funnel's stages", funnel).in(stageOrderRequest{}, "funnel"))
	acc.Get("/funnels/:id/stage_stats", a.funnelStageStats, op("A funnel's figures per stage", stageStatsAnswer()))
	acc.Get("/funnels/:funnel_id/kanban_items", a.funnelCards, op("A funnel's cards, a page at a time (the card list's parameters)", cardPageAnswer()).q("agent_id", "page", "per_page", "conversation_id", "stage_id"))

	card, cardFilters := shape("KanbanItem"), []string{"funnel_id", "agent_id", "page", "per_page", "conversation_id", "stage_id"}
	advanced := append([]string{"query", "priority", "status", "value_min", "value_max", "created_from", "created_to"}, cardFilters...)
	checklist, notes := checklistAnswer(), notesAnswer()
	// The fixed /kanban_items/... paths come before /kanban_items/:id.
	acc.Get("/kanban_items", a.listCards, op("List cards", cardPageAnswer()).q(cardFilters...))
	acc.Post("/kanban_items", a.createCard, op("Create a card", card).in(cardRequest{}, "kanban_item"))
	acc.Get("/kanban_items/batch", a.batchCards, op("Cards with counts per stage", cardBatchAnswer()).q(cardFilters...))
	acc.Post("/kanban_items/reorder", a.reorderCards, op("Reorder cards", payloadOf(listAnswer("KanbanItem"))).in(reorderRequest{}, "kanban_item"))
	acc.Get("/kanban_items/search", a.searchCards, op("Search cards", cardSearchAnswer()).q(advanced...))
	acc.Get("/kanban_items/filter", a.filterCards, op("Filter cards", cardPageAnswer()).q(advanced...))
	acc.Get("/kanban_items/reports", a.cardReports, op("Card figures over a period", cardReportAnswer()).q("funnel_id", "inbox_id", "user_ids", "from", "to", "group_by"))
	acc.Get("/kanban_items/export", a.exportCards, op("Export cards as CSV", nil).q(advanced...).as("text/csv"))
	acc.Post("/kanban_items/import_preview", a.importPreview, op("Preview a CSV import (multipart, part file)", importPreviewAnswer()))
	acc.Post("/kanban_items/import", a.importCards, op("Import cards from a CSV (multipart, part file)", importAnswer()).in(importRequest{}, ""))
	acc.Post("/kanban_items/bulk_move_items", a.bulkMove, op("Move cards", bulkAnswer("moved_count")).in(bulkMoveRequest{}, ""))
	acc.Post("/kanban_items/bulk_assign_agent", a.bulkAssignAgent, op("Assign an agent to cards", bulkAnswer("assigned_count")).in(bulkAgentRequest{}, ""))
	acc.Post("/kanban_items/bulk_set_priority", a.bulkSetPriority, op("Set cards' priority", bulkAnswer("updated_count")).in(bulkPriorityRequest{}, ""))
	acc.Get("/kanban_items/:id", a.showCard, op("Show a card", card))
	acc.Patch("/kanban_items/:id", a.updateCard, op("Update a card", card).in(cardRequest{}, "kanban_item"))
	acc.Put("/kanban_items/:id", a.updateCard, op("Update a card", card).in(cardRequest{}, "kanban_item"))
	acc.Delete("/kanban_items/:id", a.deleteCard, op("Delete a card", nil))
	acc.Post("/kanban_items/:id/move_to_stage", a.moveCard(false), op("Move a card to a stage", card).in(moveRequest{}, "kanban_item"))
	acc.Post("/kanban_items/:id/move", a.moveCard(true), op("Move a card to another funnel's stage", card).in(moveRequest{}, "kanban_item"))
	acc.Post("/kanban_items/:id/change_status", a.changeCardStatus, op("Change a card's status", card).in(statusRequest{}, "kanban_item"))
	acc.Post("/kanban_items/:id/assign_agent", a.changeCardAgent(true), op("Assign an agent to a card", card).in(cardAgentRequest{}, ""))
	acc.Post("/kanban_items/:id/remove_agent", a.changeCardAgent(false), op("Remove an agent from a card", card).in(cardAgentRequest{}, ""))
	acc.Delete("/kanban_items/:id/remove_agent", a.changeCardAgent(false), op("Remove an agent from a card", card).in(cardAgentRequest{}, ""))
	acc.Get("/kanban_items/:id/assigned_agents", a.cardAgents, op("A card's agents", cardAgentsAnswer()))
	acc.Post("/kanban_items/:id/create_checklist_item", a.createChecklistItem, op("Add a checklist item", checklist).in(checklistFields{}, ""))
	acc.Get("/kanban_items/:id/get_checklist", a.getChecklist, op("A card's checklist", checklist))
	acc.Patch("/kanban_items/:id/update_checklist_item", a.updateChecklistItem, op("Update a checklist item", checklist).in(checklistUpdate{}, ""))
	acc.Put("/kanban_items/:id/update_checklist_item", a.updateChecklistItem, op("Update a checklist item", checklist).in(checklistUpdate{}, ""))
	acc.Post("/kanban_items/:id/toggle_checklist_item", a.toggleChecklistItem, op("Toggle a checklist item", checklist).in(checklistRef{}, ""))
	acc.Delete("/kanban_items/:id/delete_checklist_item", a.deleteChecklistItem, op("Delete a checklist item", checklist).in(checklistRef{}, ""))
	acc.Post("/kanban_items/:id/create_note", a.createNote, op("Add a note", notes).in(noteFields{}, ""))
	acc.Get("/kanban_items/:id/get_notes", a.getNotes, op("A card's notes", notes))
	acc.Patch("/kanban_items/:id/update_note", a.updateNote, op("Update a note", notes).in(noteUpdate{}, ""))
	acc.Put("/kanban_items/:id/update_note", a.updateNote, op("Update a note", notes).in(noteUpdate{}, ""))
	acc.Delete("/kanban_items/:id/delete_note", a.deleteNote, op("Delete a note", notes).in(noteRef{}, ""))
	acc.Get("/kanban_items/:id/time_report", a.cardTimeReport, op("Time a card spent, in total and per stage", timeReportAnswer()))
	acc.Get("/kanban_items/:id/stage_time_breakdown", a.cardStageBreakdown, op("A card's stays in stages", stageBreakdownAnswer()))
	acc.Get("/kanban_items/:id/counts", a.cardCounts, op("A card's counts", cardCountsAnswer()))

	cfg := shape("KanbanConfig")
	acc.Get("/kanban_config", a.showKanbanConfig, op("The kanban settings", cfg))
	acc.Post("/kanban_config", a.saveKanbanConfig, op("Save the kanban settings", cfg).in(kanbanConfigRequest{}, "kanban_config"))
	acc.Put("/kanban_config", a.saveKanbanConfig, op("Save the kanban settings", cfg).in(kanbanConfigRequest{}, "kanban_config"))
	acc.Patch("/kanban_config", a.saveKanbanConfig, op("Save the kanban settings", cfg).in(kanbanConfigRequest{}, "kanban_config"))
	acc.Delete("/kanban_config", a.deleteKanbanConfig, op("Reset the kanban settings", nil))
	acc.Post("/kanban_config/test_webhook", a.testKanbanWebhook, op("Send a test event to the kanban webhook", webhookTestAnswer()))

	auto := shape("KanbanAutomation")
	acc.Get("/kanban/automations", a.listAutomations, op("List automations", payloadOf(listAnswer("KanbanAutomation"))))
	acc.Post("/kanban/automations", a.createAutomation, op("Create an automation", auto).in(automationRequest{}, "kanban_automation"))
	acc.Get("/kanban/automations/:id", a.showAutomation, op("Show an automation", auto))
	acc.Patch("/kanban/automations/:id", a.updateAutomation, op("Update an automation", auto).in(automationRequest{}, "kanban_automation"))
	acc.Put("/kanban/automations/:id", a.updateAutomation, op("Update an automation", auto).in(automationRequest{}, "kanban_automation"))
	acc.Delete("/kanban/automations/:id", a.deleteAutomation, op("Delete an automation", nil))

	// The signed-in user's own profile, outside any account.
	me := guarded{app.Group("/api/v1"), "/api/v1", userAPIKey, book, userAuth(a.svc), idempotent(a.svc)}
	user := shape("User")
	me.Get("/profile", a.showProfile, op("Your profile", user))
	me.Put("/profile", a.updateProfile, op("Update your profile", user).in(profileRequest{}, "profile"))
	me.Patch("/profile", a.updateProfile, op("Update your profile", user).in(profileRequest{}, "profile"))

	plat := guarded{app.Group("/platform/api/v1"), "/platform/api/v1", platformAPIKey, book, platformAuth(a.svc), idempotent(a.svc)}
	account, member := shape("Account"), shape("PlatformAccountUser")
	plat.Post("/accounts", a.platformCreateAccount, op("Create an account", account).in(accountCreateRequest{}, "account"))
	plat.Get("/accounts/:id", a.platformShowAccount, op("Show an account", account))
	plat.Patch("/accounts/:id", a.platformUpdateAccount, op("Update an account", account).in(accountUpdateRequest{}, "account"))
	plat.Put("/accounts/:id", a.platformUpdateAccount, op("Update an account", account).in(accountUpdateRequest{}, "account"))
	plat.Delete("/accounts/:id", a.platformDeleteAccount, op("Delete an account", nil))
	plat.Get("/accounts/:id/account_users", a.platformListAccountUsers, op("An account's users", listOf("PlatformAccountUser")))
	plat.Get("/users/:id/login", a.platformUserLogin, op("A single sign-on link for a user", inline(obj(props{"url": str()}))))
	plat.Post("/users", a.platformCreateUser, op("Create a user (answers its access token)", user).in(userCreateRequest{}, "user"))
	plat.Get("/users/:id", a.platformShowUser, op("Show a user", user))
	plat.Patch("/users/:id", a.platformUpdateUser, op("Update a user", user).in(profileRequest{}, "user"))
	plat.Put("/users/:id", a.platformUpdateUser, op("Update a user", user).in(profileRequest{}, "user"))
	plat.Delete("/users/:id", a.platformDeleteUser, op("Delete a user", nil))
	plat.Post("/accounts/:id/account_users", a.platformAddAccountUser, op("Add a user to an account", member).in(accountUserRequest{}, ""))
	plat.Delete("/accounts/:id/account_users", a.platformRemoveAccountUser, op("Remove a user from an account", nil).in(accountUserRequest{}, ""))

	a.publicRoutes(app, book)
	// WhatsApp Cloud's webhooks: Meta proves itself with the inbox's verify
	// token (GET) and app secret (POST signatures), not with a user token.
	wa := "/webhooks/whatsapp/:phone_number"
	book.openGet(app, wa, whatsAppVerifyToken, a.verifyWhatsApp,
		op("Meta's check of a WhatsApp inbox's callback URL (answers hub.challenge)", nil).q("hub.mode", "hub.challenge").as("text/plain"))
	book.openPost(app, wa, whatsAppSignature, a.receiveWhatsApp,
		op("A WhatsApp Cloud webhook post: customers' messages and our messages' statuses", inline(obj(props{
			"messages": integer(), "duplicates": integer(), "statuses": integer(), "ignored": integer(),
		}))))

	book.openGet(app, "/api/v1/openapi.json", public, a.openAPIJSON, op("This document (OpenAPI 3.1)", nil).as("application/json"))
	book.openGet(app, "/api/docs", public, a.apiDocsPage, op("The API reference, as a web page", nil).as("text/html"))
}
