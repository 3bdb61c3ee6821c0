package rest

import (
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/ops"
)

// Rendering: Chatwoot's JSON shapes, except that every timestamp is an ISO
// 8601 UTC string (the spec's rule) instead of Chatwoot's unix integers.

// H is a JSON object.
type H = map[string]any

const isoLayout = "2006-01-02T15:04:05.000Z"

func iso(t time.Time) string { return t.UTC().Format(isoLayout) }

func isoPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return iso(*t)
}

func strPtr(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func intPtr(n *int) any {
	if n == nil {
		return nil
	}
	return *n
}

func orEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func orEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// contactJSON is Chatwoot's contact partial; contact_inboxes is included
// when they were loaded.
func contactJSON(ct *ent.Contact) H {
	h := contactBaseJSON(ct)
	if ct.Edges.ContactInboxes != nil { // loaded (ent loads "none" as an empty slice)
		cis := make([]H, 0, len(ct.Edges.ContactInboxes))
		for _, ci := range ct.Edges.ContactInboxes {
			cis = append(cis, contactInboxJSON(ci))
		}
		h["contact_inboxes"] = cis
	}
	return h
}

// contactBaseJSON is a contact without its inboxes (as embedded elsewhere).
func contactBaseJSON(ct *ent.Contact) H {
	return H{
		"id":                    ct.ID,
		"name":                  ct.Name,
		"email":                 strPtr(ct.Email),
		"phone_number":          strPtr(ct.PhoneNumber),
		"identifier":            strPtr(ct.Identifier),
		"blocked":               ct.Blocked,
		"thumbnail":             ct.AvatarURL,
		"avatar_url":            ct.AvatarURL,
		"availability_status":   "offline",
		"additional_attributes": orEmptyMap(ct.AdditionalAttributes),
		"custom_attributes":     orEmptyMap(ct.CustomAttributes),
		"labels":                orEmpty(ct.Labels),
		"last_activity_at":      isoPtr(ct.LastActivityAt),
		"created_at":            iso(ct.CreatedAt),
		"updated_at":            iso(ct.UpdatedAt),
	}
}

// contactInboxJSON is {source_id, inbox: <inbox_slim>}.
func contactInboxJSON(ci *ent.ContactInbox) H {
	h := H{"source_id": ci.SourceID, "inbox": nil}
	if ci.Edges.Inbox != nil {
		h["inbox"] = inboxSlimJSON(ci.Edges.Inbox)
	}
	return h
}

// chatwootChannelType is the channel class name Chatwoot clients switch on.
var chatwootChannelType = map[inbox.ChannelType]string{
	inbox.ChannelTypeAPI:       "Channel::Api",
	inbox.ChannelTypeWhatsapp:  "Channel::Whatsapp",
	inbox.ChannelTypeEmail:     "Channel::Email",
	inbox.ChannelTypeWebWidget: "Channel::WebWidget",
	inbox.ChannelTypeSms:       "Channel::Sms",
	inbox.ChannelTypeTelegram:  "Channel::Telegram",
	inbox.ChannelTypeLine:      "Channel::Line",
}

func inboxSlimJSON(ib *ent.Inbox) H {
	return H{
		"id":           ib.ID,
		"avatar_url":   ib.AvatarURL,
		"channel_id":   ib.ID,
		"name":         ib.Name,
		"channel_type": chatwootChannelType[ib.ChannelType],
		"provider":     nilIfEmpty(ib.Channel.Provider),
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// inboxSecrets says which channel settings an inbox answer carries.
type inboxSecrets int

const (
	// noSecrets: lists and agents; no secret key at all.
	noSecrets inboxSecrets = iota
	// maskedSecrets: an administrator's read or update; the channel's
	// settings with every secret as ops.SecretMask (unlike Chatwoot, which
	// shows them: secrets are shown once).
	maskedSecrets
	// issuedSecrets: the answer that created the inbox; the HMAC token the
	// service issued is shown this once, secrets the client sent stay masked.
	issuedSecrets
)

// inboxJSON is Chatwoot's inbox partial; secrets says how much of the
// channel's settings it shows.
func inboxJSON(ib *ent.Inbox, secrets inboxSecrets) H {
	ch := ib.Channel
	h := inboxSlimJSON(ib)
	for k, v := range (H{
		"type":                          string(ib.ChannelType),
		"greeting_enabled":              ib.GreetingEnabled,
		"greeting_message":              ib.GreetingMessage,
		"enable_auto_assignment":        ib.EnableAutoAssignment,
		"enable_email_collect":          ib.EnableEmailCollect,
		"csat_survey_enabled":           ib.CsatSurveyEnabled,
		"working_hours_enabled":         ib.WorkingHoursEnabled,
		"out_of_office_message":         ib.OutOfOfficeMessage,
		"timezone":                      ib.Timezone,
		"allow_messages_after_resolved": ib.AllowMessagesAfterResolved,
		"lock_to_single_conversation":   ib.LockToSingleConversation,
		"sender_name_type":              string(ib.SenderNameType),
		"business_name":                 ib.BusinessName,
		"phone_number":                  nilIfEmpty(ch.PhoneNumber),
		"website_url":                   nilIfEmpty(ch.WebsiteURL),
		"website_token":                 nilIfEmpty(ch.WebsiteToken),
		"widget_color":                  nilIfEmpty(ch.WidgetColor),
		"hmac_mandatory":                ch.HMACMandatory,
		"agent_bot_id":                  intPtr(ib.AgentBotID),
	}) {
		h[k] = v
	}
	switch ib.ChannelType {
	case inbox.ChannelTypeAPI:
		h["webhook_url"] = ch.WebhookURL
		h["inbox_identifier"] = ch.InboxIdentifier
		h["additional_attributes"] = orEmptyMap(ch.AdditionalAttributes)
	case inbox.ChannelTypeWhatsapp:
		h["message_templates"] = orEmpty(ch.MessageTemplates)
		h["reauthorization_required"] = false
	case inbox.ChannelTypeEmail:
		h["email"] = ch.Email
	}
	if secrets != noSecrets {
		addInboxSecrets(h, ib, secrets)
	}
	return h
}

func addInboxSecrets(h H, ib *ent.Inbox, secrets inboxSecrets) {
	ch := ops.MaskedChannel(ib.Channel)
	if secrets == issuedSecrets {
		ch.HMACToken = ib.Channel.HMACToken
	}
	switch ib.ChannelType {
	case inbox.ChannelTypeAPI, inbox.ChannelTypeWebWidget:
		h["hmac_token"] = ch.HMACToken
	case inbox.ChannelTypeWhatsapp:
		h["provider_config"] = ch.ProviderConfig
	case inbox.ChannelTypeEmail:
		if ch.SMTP != nil {
			h["smtp_address"] = ch.SMTP.Address
			h["smtp_port"] = ch.SMTP.Port
			h["smtp_login"] = ch.SMTP.Login
			h["smtp_password"] = ch.SMTP.Password
			h["smtp_domain"] = ch.SMTP.Domain
			h["smtp_authentication"] = ch.SMTP.Authentication
			h["smtp_enable_starttls_auto"] = ch.SMTP.EnableStartTLS
			h["smtp_enable_ssl_tls"] = ch.SMTP.EnableSSLTLS
		}
	}
}

// conversationJSON is Chatwoot's conversation partial, with ISO timestamps.
// Its id is the per-account display id.
func conversationJSON(cv *ent.Conversation) H {
	meta := H{"hmac_verified": false}
	if cv.Edges.Contact != nil {
		meta["sender"] = contactBaseJSON(cv.Edges.Contact)
	}
	if cv.Edges.Inbox != nil {
		meta["channel"] = chatwootChannelType[cv.Edges.Inbox.ChannelType]
	}
	return H{
		"id":                     cv.DisplayID,
		"uuid":                   cv.UUID,
		"account_id":             cv.AccountID,
		"inbox_id":               cv.InboxID,
		"status":                 string(cv.Status),
		"priority":               enumPtr(cv.Priority),
		"labels":                 orEmpty(cv.Labels),
		"meta":                   meta,
		"messages":               lastMessages(cv),
		"additional_attributes":  orEmptyMap(cv.AdditionalAttributes),
		"custom_attributes":      orEmptyMap(cv.CustomAttributes),
		"assignee_id":            intPtr(cv.AssigneeID),
		"team_id":                intPtr(cv.TeamID),
		"snoozed_until":          isoPtr(cv.SnoozedUntil),
		"agent_last_seen_at":     isoPtr(cv.AgentLastSeenAt),
		"contact_last_seen_at":   isoPtr(cv.ContactLastSeenAt),
		"first_reply_created_at": isoPtr(cv.FirstReplyCreatedAt),
		"waiting_since":          isoPtr(cv.WaitingSince),
		"last_activity_at":       iso(cv.LastActivityAt),
		"timestamp":              iso(cv.LastActivityAt),
		"created_at":             iso(cv.CreatedAt),
		"updated_at":             iso(cv.UpdatedAt),
		"can_reply":              true,
		"muted":                  false,
		"unread_count":           0,
	}
}

func enumPtr[T ~string](v *T) any {
	if v == nil {
		return nil
	}
	return string(*v)
}

func customAttributeJSON(d *ent.CustomAttributeDefinition) H {
	return H{
		"id":                     d.ID,
		"attribute_display_name": d.AttributeDisplayName,
		"attribute_display_type": string(d.AttributeDisplayType),
		"attribute_key":          d.AttributeKey,
		"attribute_model":        string(d.AttributeModel),
		"attribute_description":  d.AttributeDescription,
		"attribute_values":       orEmpty(d.AttributeValues),
		"regex_pattern":          nilIfEmpty(d.RegexPattern),
		"regex_cue":              nilIfEmpty(d.RegexCue),
		"default_value":          nil,
		"created_at":             iso(d.CreatedAt),
		"updated_at":             iso(d.UpdatedAt),
	}
}

func accountJSON(a *ent.Account) H {
	return H{
		"id":         a.ID,
		"name":       a.Name,
		"locale":     a.Locale,
		"status":     string(a.Status),
		"created_at": iso(a.CreatedAt),
		"updated_at": iso(a.UpdatedAt),
	}
}

func userJSON(u *ent.User) H {
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
		"created_at":        iso(u.CreatedAt),
	}
}

func lastMessages(cv *ent.Conversation) []H {
	out := make([]H, 0, len(cv.Edges.Messages))
	for _, m := range cv.Edges.Messages {
		out = append(out, messageJSON(m, cv.DisplayID))
	}
	return out
}
