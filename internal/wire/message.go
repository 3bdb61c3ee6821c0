package wire

import (
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
)

// MessageJSON is Chatwoot's message partial. A struct for the reason
// ConversationJSON is one; the fields are in the order of their keys.
type MessageJSON struct {
	// Attachments are added by the API, which signs their URLs; none: no key.
	Attachments       []H            `json:"attachments,omitempty"`
	Content           *string        `json:"content"`
	ContentAttributes map[string]any `json:"content_attributes"`
	ContentType       string         `json:"content_type"`
	ConversationID    int            `json:"conversation_id"`
	CreatedAt         string         `json:"created_at"`
	Delivery          *DeliveryJSON  `json:"delivery,omitempty"`
	ID                int            `json:"id"`
	InboxID           int            `json:"inbox_id"`
	MessageType       int            `json:"message_type"`
	Private           bool           `json:"private"`
	SenderID          *int           `json:"sender_id"`
	SenderType        any            `json:"sender_type"`
	SourceID          *string        `json:"source_id"`
	Status            string         `json:"status"`
	UpdatedAt         string         `json:"updated_at"`
}

// DeliveryJSON is a message's channel delivery (see delivery).
type DeliveryJSON struct {
	Attempts      int     `json:"attempts"`
	LastError     string  `json:"last_error"`
	NextAttemptAt *string `json:"next_attempt_at"`
	State         string  `json:"state"`
}

// Message is Chatwoot's message partial with an ISO created_at; its
// message_type is Chatwoot's integer (0 incoming, 1 outgoing, 2 activity, 3
// template) and conversation_id the display id.
func Message(m *ent.Message, displayID int) MessageJSON {
	return MessageJSON{
		ID:                m.ID,
		Content:           m.Content,
		InboxID:           m.InboxID,
		ConversationID:    displayID,
		MessageType:       messageTypeCode[string(m.MessageType)],
		ContentType:       string(m.ContentType),
		Status:            string(m.Status),
		ContentAttributes: OrEmptyMap(m.ContentAttributes),
		CreatedAt:         Time(m.CreatedAt),
		UpdatedAt:         Time(m.UpdatedAt),
		Private:           m.Private,
		SourceID:          m.SourceID,
		SenderType:        SenderClassName(m.SenderType),
		SenderID:          m.SenderID,
		Delivery:          delivery(m),
	}
}

// delivery is a channel delivery's state, on messages that have one (an
// addition to Chatwoot's shape, whose status stays "sent" while retrying):
// pending (not tried yet), retrying (an attempt failed; the next is due at
// next_attempt_at), accepted (by a channel whose receipt is still to come),
// delivered or failed, with the attempts made and the last attempt's error.
func delivery(m *ent.Message) *DeliveryJSON {
	if m.NextDeliveryAt == nil && m.DeliveryAttempts == 0 && m.DeliveryError == "" {
		return nil
	}
	state := "pending"
	switch {
	case m.NextDeliveryAt != nil && m.DeliveryAttempts > 0:
		state = "retrying"
	case m.NextDeliveryAt != nil:
	case m.Status == message.StatusFailed:
		state = "failed"
	case m.Status == message.StatusSent:
		state = "accepted" // by a channel that tells when it reaches the contact (delivery.AwaitsReceipt)
	default:
		state = "delivered"
	}
	return &DeliveryJSON{State: state, Attempts: m.DeliveryAttempts, LastError: m.DeliveryError,
		NextAttemptAt: timeOrNil(m.NextDeliveryAt)}
}

var messageTypeCode = map[string]int{"incoming": 0, "outgoing": 1, "activity": 2, "template": 3}

// senderClassNames is the one map from our stored sender_type to the value
// Chatwoot's message JSON carries in sender_type: the Rails polymorphic class
// name. (The lower-case spelling stays in sender.type, where Chatwoot uses
// it too.) Mapping here rather than renaming the stored enum keeps existing
// databases valid without a data migration.
var senderClassNames = map[message.SenderType]string{
	message.SenderTypeUser:     "User",
	message.SenderTypeContact:  "Contact",
	message.SenderTypeAgentBot: "AgentBot",
}

// SenderClassName is a message's sender_type as Chatwoot sends it, or nil
// when the message has no sender.
func SenderClassName(t *message.SenderType) any {
	if t == nil {
		return nil
	}
	if name, ok := senderClassNames[*t]; ok {
		return name
	}
	return string(*t)
}

// MessageEvent is the body of a message_created or message_updated webhook
// (and of the API channel's webhook), as Chatwoot's webhook_data: the
// message with message_type as a word (not the API's integer), and the
// account, the conversation (cv, with its inbox and contact loaded), the
// inbox and the sender beside it.
func MessageEvent(event string, m *ent.Message, cv *ent.Conversation, acc *ent.Account) H {
	p := H{
		"event":              event,
		"id":                 m.ID,
		"content":            m.Content,
		"content_type":       string(m.ContentType),
		"content_attributes": m.ContentAttributes,
		"message_type":       string(m.MessageType),
		"private":            m.Private,
		"status":             string(m.Status),
		"source_id":          m.SourceID,
		"created_at":         Time(m.CreatedAt),
		"account":            H{"id": acc.ID, "name": acc.Name},
		"conversation":       Conversation(cv),
	}
	if cv.Edges.Inbox != nil {
		p["inbox"] = H{"id": cv.Edges.Inbox.ID, "name": cv.Edges.Inbox.Name}
	}
	if m.SenderType != nil {
		p["sender"] = H{"id": m.SenderID, "type": string(*m.SenderType)}
	}
	if len(m.Edges.Attachments) > 0 {
		atts := make([]H, 0, len(m.Edges.Attachments))
		for _, a := range m.Edges.Attachments {
			atts = append(atts, H{
				"id": a.ID, "file_type": string(a.FileType), "file_name": a.FileName,
				"content_type": a.ContentType, "file_size": a.FileSize,
			})
		}
		p["attachments"] = atts
	}
	return p
}
