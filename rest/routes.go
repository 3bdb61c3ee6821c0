package rest

import (
	"github.com/gofiber/fiber/v2"
	"github.com/switchboard/switchboard/internal/accounts"
)

// routes lists every REST route in one place.
func (a *API) routes(app *fiber.App) {
	acc := guarded{app.Group("/api/v1/accounts/:account_id"), accountAuth(a.svc), idempotent(a.svc)}

	acc.Get("/contacts", a.listContacts)
	acc.Post("/contacts", a.createContact)
	acc.Get("/contacts/search", a.searchContacts)
	acc.Post("/contacts/filter", a.filterContacts)
	acc.Get("/contacts/:id", a.showContact)
	acc.Put("/contacts/:id", a.updateContact)
	acc.Patch("/contacts/:id", a.updateContact)
	acc.Delete("/contacts/:id", a.deleteContact)
	acc.Get("/contacts/:id/conversations", a.contactConversations)
	acc.Post("/contacts/:id/contact_inboxes", a.createContactInbox)
	acc.Get("/contacts/:id/contactable_inboxes", a.contactableInboxes)
	acc.Get("/contacts/:id/labels", a.contactLabels)
	acc.Post("/contacts/:id/labels", a.setContactLabels)
	acc.Post("/actions/contact_merge", a.mergeContacts)

	acc.Get("/inboxes", a.listInboxes)
	acc.Post("/inboxes", a.createInbox)
	acc.Get("/inboxes/:id", a.showInbox)
	acc.Patch("/inboxes/:id", a.updateInbox)

	acc.Get("/custom_attribute_definitions", a.listCustomAttributes)
	acc.Post("/custom_attribute_definitions", a.createCustomAttribute)
	acc.Get("/custom_attribute_definitions/:id", a.showCustomAttribute)
	acc.Patch("/custom_attribute_definitions/:id", a.updateCustomAttribute)
	acc.Put("/custom_attribute_definitions/:id", a.updateCustomAttribute)
	acc.Delete("/custom_attribute_definitions/:id", a.deleteCustomAttribute)

	acc.Delete("/inboxes/:id", a.deleteInbox)
	acc.Get("/inboxes/:id/agent_bot", a.inboxAgentBot)
	acc.Post("/inboxes/:id/set_agent_bot", a.setInboxAgentBot)
	acc.Get("/inbox_members/:inbox_id", a.inboxMembers)
	acc.Post("/inbox_members", a.changeInboxMembers(accounts.AddMembers))
	acc.Patch("/inbox_members", a.changeInboxMembers(accounts.ReplaceMembers))
	acc.Delete("/inbox_members", a.changeInboxMembers(accounts.RemoveMembers))
	acc.Delete("/inbox_members/:inbox_id", a.changeInboxMembers(accounts.RemoveMembers))

	acc.Get("/agent_bots", a.listAgentBots)
	acc.Post("/agent_bots", a.createAgentBot)
	acc.Get("/agent_bots/:id", a.showAgentBot)
	acc.Patch("/agent_bots/:id", a.updateAgentBot)
	acc.Delete("/agent_bots/:id", a.deleteAgentBot)

	acc.Get("/labels", a.listLabels)
	acc.Post("/labels", a.createLabel)
	acc.Get("/labels/:id", a.showLabel)
	acc.Patch("/labels/:id", a.updateLabel)
	acc.Put("/labels/:id", a.updateLabel)
	acc.Delete("/labels/:id", a.deleteLabel)

	acc.Get("/conversations", a.listConversations)
	acc.Post("/conversations", a.createConversation)
	acc.Get("/conversations/:id", a.showConversation)
	acc.Post("/conversations/:id/toggle_status", a.toggleConversationStatus)
	acc.Get("/conversations/:id/labels", a.conversationLabels)
	acc.Post("/conversations/:id/labels", a.setConversationLabels)

	acc.Get("/conversations/:id/messages", a.listMessages)
	acc.Post("/conversations/:id/messages", a.createMessage)
	acc.Delete("/conversations/:id/messages/:message_id", a.deleteMessage)
	acc.Post("/conversations/:id/messages/:message_id/retry", a.retryMessage)
	app.Get("/api/v1/accounts/:account_id/attachments/:id", a.downloadAttachment)

	for _, prefix := range []string{"/scheduled_messages", "/conversations/:conversation_id/scheduled_messages"} {
		acc.Get(prefix, a.listSchedules)
		acc.Post(prefix, a.createSchedule)
		acc.Get(prefix+"/count", a.countSchedules)
		acc.Get(prefix+"/:id", a.showSchedule)
		acc.Put(prefix+"/:id", a.updateSchedule)
		acc.Patch(prefix+"/:id", a.updateSchedule)
		acc.Post(prefix+"/:id/cancel", a.cancelSchedule)
		acc.Delete(prefix+"/:id", a.deleteSchedule)
	}

	acc.Get("/webhooks", a.listWebhooks)
	acc.Post("/webhooks", a.createWebhook)
	acc.Get("/webhooks/:id", a.showWebhook)
	acc.Patch("/webhooks/:id", a.updateWebhook)
	acc.Put("/webhooks/:id", a.updateWebhook)
	acc.Delete("/webhooks/:id", a.deleteWebhook)
	acc.Get("/webhooks/:id/deliveries", a.webhookDeliveries)
	acc.Post("/webhooks/:id/deliveries/:delivery_id/retry", a.retryWebhookDelivery)

	acc.Get("/agents", a.listAgents)
	acc.Post("/agents", a.createAgent)
	acc.Patch("/agents/:id", a.updateAgent)
	acc.Put("/agents/:id", a.updateAgent)
	acc.Delete("/agents/:id", a.deleteAgent)

	acc.Get("/teams", a.listTeams)
	acc.Post("/teams", a.createTeam)
	acc.Get("/teams/:id", a.showTeam)
	acc.Patch("/teams/:id", a.updateTeam)
	acc.Put("/teams/:id", a.updateTeam)
	acc.Delete("/teams/:id", a.deleteTeam)
	acc.Get("/teams/:id/team_members", a.teamMembers)
	acc.Post("/teams/:id/team_members", a.changeTeamMembers(accounts.AddMembers))
	acc.Patch("/teams/:id/team_members", a.changeTeamMembers(accounts.ReplaceMembers))
	acc.Delete("/teams/:id/team_members", a.changeTeamMembers(accounts.RemoveMembers))

	acc.Get("/funnels", a.listFunnels)
	acc.Post("/funnels", a.createFunnel)
	acc.Get("/funnels/:id", a.showFunnel)
	acc.Patch("/funnels/:id", a.updateFunnel)
	acc.Put("/funnels/:id", a.updateFunnel)
	acc.Delete("/funnels/:id", a.deleteFunnel)
	acc.Patch("/funnels/:id/reorder", a.reorderStages)
	acc.Get("/funnels/:id/stage_stats", a.funnelStageStats)
	acc.Get("/funnels/:funnel_id/kanban_items", a.funnelCards)

	// The fixed /kanban_items/... paths come before /kanban_items/:id.
	acc.Get("/kanban_items", a.listCards)
	acc.Post("/kanban_items", a.createCard)
	acc.Get("/kanban_items/batch", a.batchCards)
	acc.Post("/kanban_items/reorder", a.reorderCards)
	acc.Get("/kanban_items/search", a.searchCards)
	acc.Get("/kanban_items/filter", a.filterCards)
	acc.Get("/kanban_items/reports", a.cardReports)
	acc.Get("/kanban_items/export", a.exportCards)
	acc.Post("/kanban_items/import_preview", a.importPreview)
	acc.Post("/kanban_items/import", a.importCards)
	acc.Post("/kanban_items/bulk_move_items", a.bulkMove)
	acc.Post("/kanban_items/bulk_assign_agent", a.bulkAssignAgent)
	acc.Post("/kanban_items/bulk_set_priority", a.bulkSetPriority)
	acc.Get("/kanban_items/:id", a.showCard)
	acc.Patch("/kanban_items/:id", a.updateCard)
	acc.Put("/kanban_items/:id", a.updateCard)
	acc.Delete("/kanban_items/:id", a.deleteCard)
	acc.Post("/kanban_items/:id/move_to_stage", a.moveCard(false))
	acc.Post("/kanban_items/:id/move", a.moveCard(true))
	acc.Post("/kanban_items/:id/change_status", a.changeCardStatus)
	acc.Post("/kanban_items/:id/assign_agent", a.changeCardAgent(true))
	acc.Post("/kanban_items/:id/remove_agent", a.changeCardAgent(false))
	acc.Delete("/kanban_items/:id/remove_agent", a.changeCardAgent(false))
	acc.Get("/kanban_items/:id/assigned_agents", a.cardAgents)
	acc.Post("/kanban_items/:id/create_checklist_item", a.createChecklistItem)
	acc.Get("/kanban_items/:id/get_checklist", a.getChecklist)
	acc.Patch("/kanban_items/:id/update_checklist_item", a.updateChecklistItem)
	acc.Put("/kanban_items/:id/update_checklist_item", a.updateChecklistItem)
	acc.Post("/kanban_items/:id/toggle_checklist_item", a.toggleChecklistItem)
	acc.Delete("/kanban_items/:id/delete_checklist_item", a.deleteChecklistItem)
	acc.Post("/kanban_items/:id/create_note", a.createNote)
	acc.Get("/kanban_items/:id/get_notes", a.getNotes)
	acc.Patch("/kanban_items/:id/update_note", a.updateNote)
	acc.Put("/kanban_items/:id/update_note", a.updateNote)
	acc.Delete("/kanban_items/:id/delete_note", a.deleteNote)
	acc.Get("/kanban_items/:id/time_report", a.cardTimeReport)
	acc.Get("/kanban_items/:id/stage_time_breakdown", a.cardStageBreakdown)
	acc.Get("/kanban_items/:id/counts", a.cardCounts)

	acc.Get("/kanban_config", a.showKanbanConfig)
	acc.Post("/kanban_config", a.saveKanbanConfig)
	acc.Put("/kanban_config", a.saveKanbanConfig)
	acc.Patch("/kanban_config", a.saveKanbanConfig)
	acc.Delete("/kanban_config", a.deleteKanbanConfig)
	acc.Post("/kanban_config/test_webhook", a.testKanbanWebhook)

	acc.Get("/kanban/automations", a.listAutomations)
	acc.Post("/kanban/automations", a.createAutomation)
	acc.Get("/kanban/automations/:id", a.showAutomation)
	acc.Patch("/kanban/automations/:id", a.updateAutomation)
	acc.Put("/kanban/automations/:id", a.updateAutomation)
	acc.Delete("/kanban/automations/:id", a.deleteAutomation)

	// The signed-in user's own profile, outside any account.
	me := guarded{app.Group("/api/v1"), userAuth(a.svc), idempotent(a.svc)}
	me.Get("/profile", a.showProfile)
	me.Put("/profile", a.updateProfile)
	me.Patch("/profile", a.updateProfile)

	plat := guarded{app.Group("/platform/api/v1"), platformAuth(a.svc), idempotent(a.svc)}
	plat.Post("/accounts", a.platformCreateAccount)
	plat.Get("/accounts/:id", a.platformShowAccount)
	plat.Patch("/accounts/:id", a.platformUpdateAccount)
	plat.Put("/accounts/:id", a.platformUpdateAccount)
	plat.Delete("/accounts/:id", a.platformDeleteAccount)
	plat.Get("/accounts/:id/account_users", a.platformListAccountUsers)
	plat.Get("/users/:id/login", a.platformUserLogin)
	plat.Post("/users", a.platformCreateUser)
	plat.Get("/users/:id", a.platformShowUser)
	plat.Patch("/users/:id", a.platformUpdateUser)
	plat.Put("/users/:id", a.platformUpdateUser)
	plat.Delete("/users/:id", a.platformDeleteUser)
	plat.Post("/accounts/:id/account_users", a.platformAddAccountUser)
	plat.Delete("/accounts/:id/account_users", a.platformRemoveAccountUser)
}

// guarded registers routes behind an authentication handler. The handler
// runs per route, not for the whole prefix, so an unknown path is a 404
// whatever the credentials. POST routes (the creates) honour an
// Idempotency-Key header.
type guarded struct {
	r    fiber.Router
	auth fiber.Handler
	idem fiber.Handler
}

func (g guarded) Get(path string, h fiber.Handler)    { g.r.Get(path, g.auth, h) }
func (g guarded) Post(path string, h fiber.Handler)   { g.r.Post(path, g.auth, g.idem, h) }
func (g guarded) Put(path string, h fiber.Handler)    { g.r.Put(path, g.auth, h) }
func (g guarded) Patch(path string, h fiber.Handler)  { g.r.Patch(path, g.auth, h) }
func (g guarded) Delete(path string, h fiber.Handler) { g.r.Delete(path, g.auth, h) }
