package rest

import (
	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/internal/inboxes"
	"github.com/switchboard/switchboard/internal/wire"
)

// H is a JSON object.
type H = wire.H

// inboxSecrets says which channel settings an inbox answer carries.
type inboxSecrets int

const (
	// noSecrets: lists and agents; no secret key at all.
	noSecrets inboxSecrets = iota
	// maskedSecrets: an administrator's read or update; the channel's
	// settings with every secret as inboxes.SecretMask (unlike Chatwoot, which
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
	h := wire.InboxSlim(ib)
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
		"phone_number":                  wire.NilIfEmpty(ch.PhoneNumber),
		"website_url":                   wire.NilIfEmpty(ch.WebsiteURL),
		"website_token":                 wire.NilIfEmpty(ch.WebsiteToken),
		"widget_color":                  wire.NilIfEmpty(ch.WidgetColor),
		"hmac_mandatory":                ch.HMACMandatory,
		"agent_bot_id":                  wire.IntPtr(ib.AgentBotID),
	}) {
		h[k] = v
	}
	switch ib.ChannelType {
	case inbox.ChannelTypeAPI:
		h["webhook_url"] = ch.WebhookURL
		h["inbox_identifier"] = ch.InboxIdentifier
		h["additional_attributes"] = wire.OrEmptyMap(ch.AdditionalAttributes)
	case inbox.ChannelTypeWhatsapp:
		h["message_templates"] = wire.OrEmpty(ch.MessageTemplates)
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
	ch := inboxes.MaskedChannel(ib.Channel)
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
		if ch.IMAP != nil {
			h["imap_enabled"] = ch.IMAP.Enabled
			h["imap_address"] = ch.IMAP.Address
			h["imap_port"] = ch.IMAP.Port
			h["imap_login"] = ch.IMAP.Login
			h["imap_password"] = ch.IMAP.Password
			h["imap_enable_ssl"] = ch.IMAP.EnableSSL
		}
	}
}
