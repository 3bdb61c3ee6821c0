package wire

import (
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
)

// ConversationJSON is Chatwoot's conversation partial, with ISO timestamps.
// The conversation list encodes 25 of them (each with its contact and last
// message) a request, so they are structs, not maps: encoding/json sorts a
// map's keys and looks up each value's type at every encoding. The fields are
// in the order of their keys, so the bytes are those the maps gave.
type ConversationJSON struct {
	AccountID            int              `json:"account_id"`
	AdditionalAttributes map[string]any   `json:"additional_attributes"`
	AgentLastSeenAt      *string          `json:"agent_last_seen_at"`
	AssigneeID           *int             `json:"assignee_id"`
	CanReply             bool             `json:"can_reply"`
	ContactLastSeenAt    *string          `json:"contact_last_seen_at"`
	CreatedAt            string           `json:"created_at"`
	CustomAttributes     map[string]any   `json:"custom_attributes"`
	FirstReplyCreatedAt  *string          `json:"first_reply_created_at"`
	ID                   int              `json:"id"`
	InboxID              int              `json:"inbox_id"`
	Labels               []string         `json:"labels"`
	LastActivityAt       string           `json:"last_activity_at"`
	Messages             []MessageJSON    `json:"messages"`
	Meta                 ConversationMeta `json:"meta"`
	Muted                bool             `json:"muted"`
	Priority             *string          `json:"priority"`
	SnoozedUntil         *string          `json:"snoozed_until"`
	Status               string           `json:"status"`
	TeamID               *int             `json:"team_id"`
	Timestamp            string           `json:"timestamp"`
	UnreadCount          int              `json:"unread_count"`
	UpdatedAt            string           `json:"updated_at"`
	UUID                 string           `json:"uuid"`
	WaitingSince         *string          `json:"waiting_since"`
}

// ConversationMeta is a conversation's meta: its contact as sender and its
// channel class, each when it was loaded.
type ConversationMeta struct {
	Channel      string       `json:"channel,omitempty"`
	HMACVerified bool         `json:"hmac_verified"`
	Sender       *ContactJSON `json:"sender,omitempty"`
}

// Conversation is Chatwoot's conversation partial of cv. Its id is the
// per-account display id.
func Conversation(cv *ent.Conversation) ConversationJSON {
	var meta ConversationMeta
	if cv.Edges.Contact != nil {
		sender := ContactBase(cv.Edges.Contact)
		meta.Sender = &sender
	}
	if cv.Edges.Inbox != nil {
		meta.Channel = ChannelClass[cv.Edges.Inbox.ChannelType]
	}
	return ConversationJSON{
		ID:                   cv.DisplayID,
		UUID:                 cv.UUID,
		AccountID:            cv.AccountID,
		InboxID:              cv.InboxID,
		Status:               string(cv.Status),
		Priority:             enumOrNil(cv.Priority),
		Labels:               OrEmpty(cv.Labels),
		Meta:                 meta,
		Messages:             lastMessages(cv),
		AdditionalAttributes: OrEmptyMap(cv.AdditionalAttributes),
		CustomAttributes:     OrEmptyMap(cv.CustomAttributes),
		AssigneeID:           cv.AssigneeID,
		TeamID:               cv.TeamID,
		SnoozedUntil:         timeOrNil(cv.SnoozedUntil),
		AgentLastSeenAt:      timeOrNil(cv.AgentLastSeenAt),
		ContactLastSeenAt:    timeOrNil(cv.ContactLastSeenAt),
		FirstReplyCreatedAt:  timeOrNil(cv.FirstReplyCreatedAt),
		WaitingSince:         timeOrNil(cv.WaitingSince),
		LastActivityAt:       Time(cv.LastActivityAt),
		Timestamp:            Time(cv.LastActivityAt),
		CreatedAt:            Time(cv.CreatedAt),
		UpdatedAt:            Time(cv.UpdatedAt),
		CanReply:             canReply(cv),
	}
}

func lastMessages(cv *ent.Conversation) []MessageJSON {
	out := make([]MessageJSON, 0, len(cv.Edges.Messages))
	for _, m := range cv.Edges.Messages {
		out = append(out, Message(m, cv.DisplayID))
	}
	return out
}

// canReply is Chatwoot's can_reply: whether a free-form reply may be sent
// now (a WhatsApp conversation's 24-hour window is open). Without its inbox
// loaded the channel is unknown, and a reply is not refused for that.
func canReply(cv *ent.Conversation) bool {
	if cv.Edges.Inbox == nil {
		return true
	}
	return core.CanReply(cv.Edges.Inbox.ChannelType, cv.LastIncomingAt, time.Now())
}
