package rest

import (
	"github.com/gofiber/fiber/v2"
)

// publicRoutes are Chatwoot's public client API: no token, every route
// throttled per client address (and, once the visitor is known, per
// visitor); POSTs take no Idempotency-Key (echo_id is the widget's own
// answer to retries).
func (a *API) publicRoutes(app *fiber.App, book *routeBook) {
	const prefix = "/public/api/v1/inboxes/:inbox_identifier"
	next := func(c *fiber.Ctx) error { return c.Next() }
	pub := guarded{app.Group(prefix), prefix, visitorPath, book, a.throttleVisitors, next}
	visitor, conv, msg := shape("Visitor"), shape("PublicConversation"), shape("PublicMessage")
	const me = "/contacts/:contact_identifier"
	const cv = me + "/conversations/:conversation_id"

	pub.Post("/contacts", a.createVisitor, op("Create a visitor (its pubsub_token shown once)", visitor).in(publicContactRequest{}, ""))
	pub.Get(me, a.showVisitor, op("The visitor", visitor))
	pub.Patch(me, a.updateVisitor, op("Identify the visitor (identifier with identifier_hash), or change their details", visitor).in(publicContactRequest{}, ""))
	pub.Get(me+"/conversations", a.listVisitorConversations, op("The visitor's conversations", inline(listAnswer("PublicConversation"))))
	pub.Post(me+"/conversations", a.createVisitorConversation, op("Start a conversation", conv).in(publicConversationRequest{}, ""))
	pub.Get(cv, a.visitorConversation(a.showVisitorConversation), op("One of the visitor's conversations", conv))
	pub.Post(cv+"/toggle_status", a.visitorConversation(a.resolveVisitorConversation), op("Resolve the conversation", conv))
	pub.Post(cv+"/toggle_typing", a.toggleVisitorTyping, op("Tell the agents the visitor is typing (on) or stopped (off)", nil).in(publicTypingRequest{}, ""))
	pub.Post(cv+"/update_last_seen", a.visitorSeen, op("Mark the conversation seen (the agents' messages become read)", nil))
	pub.Get(cv+"/messages", a.listVisitorMessages, op("The conversation's messages (no private notes)", inline(listAnswer("PublicMessage"))).q("before"))
	pub.Post(cv+"/messages", a.createVisitorMessage, op("Send a message", msg).in(publicMessageRequest{}, "").withFiles())
	pub.Patch(cv+"/messages/:message_id", a.submitVisitorMessage, op("Answer an input_select or form message", msg).in(publicSubmitRequest{}, "message"))
	pub.Get("/live", a.visitorLive, op("The visitor's live socket (websocket; first message: pubsub_token)", nil))
}
