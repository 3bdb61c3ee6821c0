package rest

import (
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/ops"
)

// agentJSON is Chatwoot's agent partial; id is the user's id.
func agentJSON(m *ent.AccountUser) H {
	h := H{
		"id":                  m.UserID,
		"account_id":          m.AccountID,
		"role":                string(m.Role),
		"availability_status": string(m.Availability),
		"auto_offline":        m.AutoOffline,
		"provider":            "email",
		"thumbnail":           "",
	}
	if u := m.Edges.User; u != nil {
		h["name"] = u.Name
		h["available_name"] = u.Name
		if u.DisplayName != "" {
			h["available_name"] = u.DisplayName
		}
		h["email"] = u.Email
		h["confirmed"] = u.Confirmed
		h["thumbnail"] = u.AvatarURL
	}
	return h
}

func agentsJSON(ms []*ent.AccountUser) []H {
	out := make([]H, 0, len(ms))
	for _, m := range ms {
		out = append(out, agentJSON(m))
	}
	return out
}

func labelJSON(l *ent.Label) H {
	return H{
		"id":              l.ID,
		"title":           l.Title,
		"description":     l.Description,
		"color":           l.Color,
		"show_on_sidebar": l.ShowOnSidebar,
	}
}

// teamJSON is Chatwoot's team partial; is_member tells whether the viewer
// belongs to the team.
func teamJSON(t *ent.Team, viewerID int) H {
	member := false
	for _, m := range t.Edges.Members {
		if m.UserID == viewerID {
			member = true
		}
	}
	return H{
		"id":                t.ID,
		"name":              t.Name,
		"description":       t.Description,
		"allow_auto_assign": t.AllowAutoAssign,
		"account_id":        t.AccountID,
		"is_member":         member,
	}
}

func agentBotJSON(b *ent.AgentBot) H {
	return H{
		"id":           b.ID,
		"name":         b.Name,
		"description":  b.Description,
		"outgoing_url": b.OutgoingURL,
		"bot_type":     string(b.BotType),
		"bot_config":   orEmptyMap(b.BotConfig),
		"account_id":   b.AccountID,
		"thumbnail":    "",
		"system_bot":   false,
	}
}

// messageJSON is Chatwoot's message partial with an ISO created_at; its
// message_type is Chatwoot's integer (0 incoming, 1 outgoing, 2 activity, 3
// template) and conversation_id the display id.
func messageJSON(m *ent.Message, displayID int) H {
	h := H{
		"id":                 m.ID,
		"content":            strPtr(m.Content),
		"inbox_id":           m.InboxID,
		"conversation_id":    displayID,
		"message_type":       messageTypeCode[string(m.MessageType)],
		"content_type":       string(m.ContentType),
		"status":             string(m.Status),
		"content_attributes": orEmptyMap(m.ContentAttributes),
		"created_at":         iso(m.CreatedAt),
		"updated_at":         iso(m.UpdatedAt),
		"private":            m.Private,
		"source_id":          strPtr(m.SourceID),
		"sender_type":        ops.SenderClassName(m.SenderType),
		"sender_id":          intPtr(m.SenderID),
	}
	return h
}

var messageTypeCode = map[string]int{"incoming": 0, "outgoing": 1, "activity": 2, "template": 3}
