package web

import "github.com/gofiber/fiber/v2"

// mountPages registers the calendar, conversations, contacts and settings
// pages (the board's routes are in console.go).
func (c *Console) mountPages(acc fiber.Router) {
	acc.Get("/schedules", c.schedules)
	acc.Get("/schedules/live", c.scheduleLive)
	acc.Get("/schedules/new", c.newSchedule)
	acc.Post("/schedules", c.createSchedule)
	acc.Get("/schedules/:id/drawer", c.scheduleDrawer)
	acc.Post("/schedules/:id/edit", c.editSchedule)
	acc.Post("/schedules/:id/cancel", c.cancelSchedule)
	acc.Post("/schedules/:id/delete", c.deleteSchedule)
	acc.Get("/contacts/options", c.contactOptions)
	acc.Get("/contacts/:id", c.contact)
	acc.Post("/contacts", c.createContact)
	acc.Post("/contacts/:id/edit", c.editContact)
	acc.Post("/contacts/:id/merge", c.mergeContact)
	acc.Post("/contacts/:id/labels", c.contactLabelsSave)
	acc.Post("/contacts/:id/delete", c.deleteContact)
	acc.Get("/settings", c.settingsHome)
	for section := range settingsLoaders {
		acc.Get("/settings/"+section, c.settings(section))
	}
	acc.Post("/settings/labels", c.saveLabel)
	acc.Post("/settings/labels/:id", c.saveLabel)
	acc.Post("/settings/labels/:id/delete", c.deleteLabel)
	acc.Post("/settings/agents", c.saveAgent)
	acc.Post("/settings/agents/:id", c.saveAgent)
	acc.Post("/settings/agents/:id/delete", c.deleteAgent)
	acc.Post("/settings/teams", c.saveTeam)
	acc.Post("/settings/teams/:id", c.saveTeam)
	acc.Post("/settings/teams/:id/delete", c.deleteTeam)
	acc.Post("/settings/inboxes", c.createInbox)
	acc.Post("/settings/inboxes/:id", c.saveInbox)
	acc.Post("/settings/webhooks", c.saveHook)
	acc.Post("/settings/webhooks/:id", c.editHook)
	acc.Post("/settings/webhooks/:id/delete", c.deleteHook)
	acc.Post("/settings/kanban", c.saveKanban)
	acc.Post("/settings/kanban/secret", c.regenerateKanbanSecret)
	acc.Post("/settings/kanban/test", c.testKanban)
	acc.Post("/settings/automations", c.saveAuto)
	acc.Post("/settings/automations/:id", c.saveAuto)
	acc.Post("/settings/automations/:id/delete", c.deleteAuto)
	acc.Get("/conversations", c.conversations)
	conv := "/conversations/:conversation_id"
	acc.Get(conv, c.conversation)
	acc.Get(conv+"/thread", c.threadPart)
	acc.Get(conv+"/side", c.sidePart)
	acc.Get(conv+"/live", c.convLive)
	acc.Post(conv+"/messages", c.reply)
	acc.Post(conv+"/status", c.setStatus)
	acc.Post(conv+"/assignment", c.assign)
	acc.Post(conv+"/labels", c.setLabels)
}
