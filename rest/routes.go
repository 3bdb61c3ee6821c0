package rest

import "github.com/gofiber/fiber/v2"

// routes lists every REST route in one place.
func (a *API) routes(app *fiber.App) {
	acc := app.Group("/api/v1/accounts/:account_id", accountAuth(a.svc))

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

	plat := app.Group("/platform/api/v1", platformAuth(a.svc))
	plat.Post("/accounts", a.platformCreateAccount)
	plat.Get("/accounts/:id", a.platformShowAccount)
	plat.Post("/users", a.platformCreateUser)
	plat.Get("/users/:id", a.platformShowUser)
	plat.Post("/accounts/:id/account_users", a.platformAddAccountUser)
	plat.Delete("/accounts/:id/account_users", a.platformRemoveAccountUser)
}
