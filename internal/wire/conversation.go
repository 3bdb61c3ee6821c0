package wire

import (
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
)

// Conversation is Chatwoot's conversation partial, with ISO timestamps.
// Its id is the per-account display id.
func Conversation(cv *ent.Conversation) H {
	meta := H{"hmac_verified": false}
	if cv.Edges.Contact != nil {
		meta["sender"] = ContactBase(cv.Edges.Contact)
	}
	if cv.Edges.Inbox != nil {
		meta["channel"] = ChannelClass[cv.Edges.Inbox.ChannelType]
	}
	return H{
		"id":                     cv.DisplayID,
		"uuid":                   cv.UUID,
		"account_id":             cv.AccountID,
		"inbox_id":               cv.InboxID,
		"status":                 string(cv.Status),
		"priority":               EnumPtr(cv.Priority),
		"labels":                 OrEmpty(cv.Labels),
		"meta":                   meta,
		"messages":               lastMessages(cv),
		"additional_attributes":  OrEmptyMap(cv.AdditionalAttributes),
		"custom_attributes":      OrEmptyMap(cv.CustomAttributes),
		"assignee_id":            IntPtr(cv.AssigneeID),
		"team_id":                IntPtr(cv.TeamID),
		"snoozed_until":          TimePtr(cv.SnoozedUntil),
		"agent_last_seen_at":     TimePtr(cv.AgentLastSeenAt),
		"contact_last_seen_at":   TimePtr(cv.ContactLastSeenAt),
		"first_reply_created_at": TimePtr(cv.FirstReplyCreatedAt),
		"waiting_since":          TimePtr(cv.WaitingSince),
		"last_activity_at":       Time(cv.LastActivityAt),
		"timestamp":              Time(cv.LastActivityAt),
		"created_at":             Time(cv.CreatedAt),
		"updated_at":             Time(cv.UpdatedAt),
		"can_reply":              canReply(cv),
		"muted":                  false,
		"unread_count":           0,
	}
}

func lastMessages(cv *ent.Conversation) []H {
	out := make([]H, 0, len(cv.Edges.Messages))
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
