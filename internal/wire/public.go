package wire

import (
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
)

// The public client API's shapes are Chatwoot's public views
// (app/views/public/api/v1/models), which its widget and mobile SDKs parse:
// unlike the rest of the API, their timestamps are Unix seconds, and they
// show a visitor nothing of the account beyond their own conversation (no
// agent e-mail, no labels, no assignee).

// PublicContact is the visitor's contact: {id, name, email, phone_number}.
func PublicContact(ct *ent.Contact) H {
	return H{"id": ct.ID, "name": ct.Name, "email": StrPtr(ct.Email), "phone_number": StrPtr(ct.PhoneNumber)}
}

// PublicContactInbox is the visitor as created or read: the contact with
// its source_id (the contact identifier of every later call) and, in the
// answer that created it only, the pubsub_token of its live socket.
func PublicContactInbox(ci *ent.ContactInbox, pubsubToken string) H {
	h := H{"source_id": ci.SourceID}
	if ci.Edges.Contact != nil {
		for k, v := range PublicContact(ci.Edges.Contact) {
			h[k] = v
		}
	}
	if pubsubToken != "" {
		h["pubsub_token"] = pubsubToken
	}
	return h
}

// PublicConversation is a visitor's conversation: id is the display id,
// the last seen times are Unix seconds (0 for never, as Chatwoot's nil.to_i),
// messages its last page.
func PublicConversation(cv *ent.Conversation, messages []H) H {
	h := H{
		"id":                   cv.DisplayID,
		"uuid":                 cv.UUID,
		"inbox_id":             cv.InboxID,
		"contact_last_seen_at": unixOrZero(cv.ContactLastSeenAt),
		"agent_last_seen_at":   unixOrZero(cv.AgentLastSeenAt),
		"status":               string(cv.Status),
		"messages":             OrEmpty(messages),
		"contact":              nil,
	}
	if cv.Edges.Contact != nil {
		h["contact"] = PublicContact(cv.Edges.Contact)
	}
	return h
}

// PublicMessage is a message as its visitor sees it: message_type is
// Chatwoot's integer, created_at Unix seconds, conversation_id the display
// id; attachments (rendered by the transport, which signs their links) and
// sender appear when there are any.
func PublicMessage(m *ent.Message, displayID int, attachments []H, sender H) H {
	h := H{
		"id":                 m.ID,
		"content":            StrPtr(m.Content),
		"message_type":       messageTypeCode[string(m.MessageType)],
		"content_type":       string(m.ContentType),
		"content_attributes": OrEmptyMap(m.ContentAttributes),
		"created_at":         m.CreatedAt.Unix(),
		"conversation_id":    displayID,
		"status":             string(m.Status),
		"echo_id":            StrPtr(m.EchoID),
	}
	if len(attachments) > 0 {
		h["attachments"] = attachments
	}
	if sender != nil {
		h["sender"] = sender
	}
	return h
}

// PublicSender is who sent a message, as a visitor may see them: the
// visitor's own contact, or an agent by name and avatar (never e-mail).
// nil when the sender is neither (a bot, the system).
func PublicSender(m *ent.Message, contact *ent.Contact, agents map[int]*ent.User) H {
	if m.SenderType == nil || m.SenderID == nil {
		return nil
	}
	switch *m.SenderType {
	case message.SenderTypeContact:
		if contact == nil || contact.ID != *m.SenderID {
			return nil
		}
		return H{"id": contact.ID, "name": contact.Name, "avatar_url": contact.AvatarURL,
			"thumbnail": contact.AvatarURL, "type": "contact"}
	case message.SenderTypeUser:
		u := agents[*m.SenderID]
		if u == nil {
			return nil
		}
		name := u.DisplayName
		if name == "" {
			name = u.Name
		}
		return H{"id": u.ID, "name": name, "available_name": name, "avatar_url": u.AvatarURL, "thumbnail": u.AvatarURL, "type": "user"}
	}
	return nil
}

func unixOrZero(t *time.Time) int64 {
	if t == nil {
		return 0
	}
	return t.Unix()
}
