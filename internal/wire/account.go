package wire

import "github.com/switchboard/switchboard/ent"

// CustomAttribute is a custom attribute definition.
func CustomAttribute(d *ent.CustomAttributeDefinition) H {
	return H{
		"id":                     d.ID,
		"attribute_display_name": d.AttributeDisplayName,
		"attribute_display_type": string(d.AttributeDisplayType),
		"attribute_key":          d.AttributeKey,
		"attribute_model":        string(d.AttributeModel),
		"attribute_description":  d.AttributeDescription,
		"attribute_values":       OrEmpty(d.AttributeValues),
		"regex_pattern":          NilIfEmpty(d.RegexPattern),
		"regex_cue":              NilIfEmpty(d.RegexCue),
		"default_value":          nil,
		"created_at":             Time(d.CreatedAt),
		"updated_at":             Time(d.UpdatedAt),
	}
}

// Account is an account as the platform API shows it.
func Account(a *ent.Account) H {
	return H{
		"id":         a.ID,
		"name":       a.Name,
		"locale":     a.Locale,
		"status":     string(a.Status),
		"created_at": Time(a.CreatedAt),
		"updated_at": Time(a.UpdatedAt),
	}
}

// User is a platform user with their accounts.
func User(u *ent.User) H {
	accounts := []H{}
	for _, m := range u.Edges.Memberships {
		a := H{"id": m.AccountID, "role": string(m.Role)}
		if m.Edges.Account != nil {
			a["name"] = m.Edges.Account.Name
		}
		accounts = append(accounts, a)
	}
	return H{
		"id":                u.ID,
		"name":              u.Name,
		"display_name":      u.DisplayName,
		"email":             u.Email,
		"uid":               u.Email,
		"confirmed":         u.Confirmed,
		"custom_attributes": H{},
		"accounts":          accounts,
		"created_at":        Time(u.CreatedAt),
	}
}

// Agent is Chatwoot's agent partial; id is the user's id.
func Agent(m *ent.AccountUser) H {
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

// Agents is a list of Agent.
func Agents(ms []*ent.AccountUser) []H {
	out := make([]H, 0, len(ms))
	for _, m := range ms {
		out = append(out, Agent(m))
	}
	return out
}

// Label is a label.
func Label(l *ent.Label) H {
	return H{
		"id":              l.ID,
		"title":           l.Title,
		"description":     l.Description,
		"color":           l.Color,
		"show_on_sidebar": l.ShowOnSidebar,
	}
}

// Team is Chatwoot's team partial; is_member tells whether the viewer
// belongs to the team.
func Team(t *ent.Team, viewerID int) H {
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

// AgentBot is an agent bot.
func AgentBot(b *ent.AgentBot) H {
	return H{
		"id":           b.ID,
		"name":         b.Name,
		"description":  b.Description,
		"outgoing_url": b.OutgoingURL,
		"bot_type":     string(b.BotType),
		"bot_config":   OrEmptyMap(b.BotConfig),
		"account_id":   b.AccountID,
		"thumbnail":    "",
		"system_bot":   false,
	}
}
