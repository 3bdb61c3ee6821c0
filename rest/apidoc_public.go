package rest

import "github.com/getkin/kin-openapi/openapi3"

// publicShapes are the public client API's objects (wire.Public*):
// Chatwoot's public views, with Unix timestamps.
func publicShapes() map[string]*openapi3.Schema {
	contact := props{"id": integer(), "name": str(), "email": nullStr(), "phone_number": nullStr()}
	visitor := props{"source_id": str(), "pubsub_token": str()}
	for k, v := range contact {
		visitor[k] = v
	}
	visitorShape := obj(visitor, "pubsub_token")
	visitorShape.Properties["pubsub_token"].Value.Description = "the credential of the visitor's live socket, in the answer that created the visitor only"
	typ := integer()
	typ.Description = "0 incoming, 1 outgoing, 2 activity, 3 template (Chatwoot's enum)"
	sender := obj(props{"id": integer(), "name": str(), "available_name": str(), "avatar_url": str(),
		"thumbnail": str(), "type": enum("contact", "user")}, "available_name")
	return map[string]*openapi3.Schema{
		"PublicContact": obj(contact),
		"Visitor":       visitorShape,
		"PublicMessage": obj(props{
			"id": integer(), "content": nullStr(), "message_type": typ, "content_type": str(),
			"content_attributes": anyObj(), "created_at": unixTime(), "conversation_id": integer(),
			"status": str(), "echo_id": nullStr(), "attachments": arr(shapeOf("Attachment")), "sender": sender,
		}, "attachments", "sender"),
		"PublicConversation": obj(props{
			"id": integer(), "uuid": str(), "inbox_id": integer(), "contact_last_seen_at": unixTime(),
			"agent_last_seen_at": unixTime(), "status": enum("open", "resolved", "pending", "snoozed"),
			"messages": arr(shapeOf("PublicMessage")), "contact": orNull(shape("PublicContact")),
		}),
	}
}

func unixTime() *openapi3.Schema {
	s := integer()
	s.Description = "Unix seconds (0: never), as Chatwoot's public API"
	return s
}
