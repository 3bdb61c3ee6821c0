package rest

import "github.com/getkin/kin-openapi/openapi3"

// wireShapes are the named objects of the responses (components/schemas).
func wireShapes() openapi3.Schemas {
	out := openapi3.Schemas{}
	for name, s := range map[string]*openapi3.Schema{
		"Error":                     errorShape(),
		"Contact":                   contactShape(true),
		"ContactBase":               contactShape(false),
		"InboxSlim":                 inboxSlimShape(),
		"Inbox":                     inboxShape(),
		"ContactInbox":              obj(props{"source_id": str(), "inbox": orNull(shape("InboxSlim"))}),
		"Conversation":              conversationShape(),
		"Message":                   messageShape(),
		"Attachment":                attachmentShape(),
		"CustomAttributeDefinition": customAttributeShape(),
		"Account":                   obj(props{"id": integer(), "name": str(), "locale": str(), "status": str(), "created_at": ts(), "updated_at": ts()}),
		"User":                      userShape(),
		"Agent":                     agentShape(),
		"Label":                     obj(props{"id": integer(), "title": str(), "description": str(), "color": str(), "show_on_sidebar": boolean()}),
		"Team":                      obj(props{"id": integer(), "name": str(), "description": str(), "allow_auto_assign": boolean(), "account_id": integer(), "is_member": boolean()}),
		"AgentBot":                  agentBotShape(),
		"Webhook":                   webhookShape(),
		"WebhookDelivery":           webhookDeliveryShape(),
		"DeliveryAttempt":           attemptShape(),
		"ScheduledMessage":          scheduleShape(),
		"Funnel":                    funnelShape(),
		"KanbanItem":                cardShape(),
		"CardAgent":                 obj(props{"id": integer(), "name": str(), "email": str(), "avatar_url": str()}),
		"ChecklistItem":             checklistItemShape(),
		"CardNote":                  noteShape(),
		"KanbanAutomation":          automationShape(),
		"KanbanConfig":              kanbanConfigShape(),
		"PlatformAccountUser":       accountUserShape(),
	} {
		out[name] = openapi3.NewSchemaRef("", s)
	}
	for name, s := range publicShapes() {
		out[name] = openapi3.NewSchemaRef("", s)
	}
	return out
}

func errorShape() *openapi3.Schema {
	s := obj(props{
		"error":      str(),
		"message":    str(),
		"attributes": arr(str()),
	}, "message", "attributes")
	s.Description = "Every error: error is a sentence; a validation failure (422) adds Chatwoot's message and attributes, the failing fields."
	return s
}

func contactShape(withInboxes bool) *openapi3.Schema {
	p := props{
		"id": integer(), "name": str(), "email": nullStr(), "phone_number": nullStr(), "identifier": nullStr(),
		"blocked": boolean(), "thumbnail": str(), "avatar_url": str(), "availability_status": str(),
		"additional_attributes": anyObj(), "custom_attributes": anyObj(), "labels": arr(str()),
		"last_activity_at": nullTS(), "created_at": ts(), "updated_at": ts(),
	}
	if !withInboxes {
		return obj(p)
	}
	p["contact_inboxes"] = arr(shapeOf("ContactInbox"))
	return obj(p, "contact_inboxes")
}

func inboxSlimShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "avatar_url": str(), "channel_id": integer(), "name": str(),
		"channel_type": enum("Channel::Api", "Channel::Whatsapp", "Channel::Email", "Channel::WebWidget", "Channel::Sms", "Channel::Telegram", "Channel::Line"),
		"provider":     nullStr(),
	})
}

// inboxShape is Chatwoot's inbox partial; channel settings (and, for an
// administrator, masked secrets) depend on the channel type.
func inboxShape() *openapi3.Schema {
	p := props{}
	for k, v := range inboxSlimShape().Properties {
		p[k] = v.Value
	}
	for k, v := range (props{
		"type": str(), "greeting_enabled": boolean(), "greeting_message": str(),
		"enable_auto_assignment": boolean(), "enable_email_collect": boolean(), "csat_survey_enabled": boolean(),
		"working_hours_enabled": boolean(), "out_of_office_message": str(), "timezone": str(),
		"allow_messages_after_resolved": boolean(), "lock_to_single_conversation": boolean(),
		"sender_name_type": str(), "business_name": str(), "phone_number": nullStr(), "website_url": nullStr(),
		"website_token": nullStr(), "widget_color": nullStr(), "hmac_mandatory": boolean(), "agent_bot_id": nullInt(),
		// by channel type
		"webhook_url": str(), "inbox_identifier": str(), "additional_attributes": anyObj(),
		"message_templates": arr(anyObj()), "reauthorization_required": boolean(), "email": str(),
		// administrators only, secrets masked
		"hmac_token": str(), "provider_config": anyObj(), "callback_webhook_url": str(), "smtp_address": str(), "smtp_port": integer(),
		"smtp_login": str(), "smtp_password": str(), "smtp_domain": str(), "smtp_authentication": str(),
		"smtp_enable_starttls_auto": boolean(), "smtp_enable_ssl_tls": boolean(),
		"imap_enabled": boolean(), "imap_address": str(), "imap_port": integer(), "imap_login": str(),
		"imap_password": str(), "imap_enable_ssl": boolean(),
	}) {
		p[k] = v
	}
	return obj(p, "webhook_url", "inbox_identifier", "additional_attributes", "message_templates",
		"reauthorization_required", "email", "hmac_token", "provider_config", "callback_webhook_url", "smtp_address", "smtp_port",
		"smtp_login", "smtp_password", "smtp_domain", "smtp_authentication", "smtp_enable_starttls_auto", "smtp_enable_ssl_tls",
		"imap_enabled", "imap_address", "imap_port", "imap_login", "imap_password", "imap_enable_ssl")
}

func conversationShape() *openapi3.Schema {
	meta := obj(props{"hmac_verified": boolean(), "sender": shapeOf("ContactBase"), "channel": str()}, "sender", "channel")
	return obj(props{
		"id": integer(), "uuid": str(), "account_id": integer(), "inbox_id": integer(), "status": enum("open", "resolved", "pending", "snoozed"),
		"priority": nullStr(), "labels": arr(str()), "meta": meta, "messages": arr(shapeOf("Message")),
		"additional_attributes": anyObj(), "custom_attributes": anyObj(), "assignee_id": nullInt(), "team_id": nullInt(),
		"snoozed_until": nullTS(), "agent_last_seen_at": nullTS(), "contact_last_seen_at": nullTS(),
		"first_reply_created_at": nullTS(), "waiting_since": nullTS(), "last_activity_at": ts(), "timestamp": ts(),
		"created_at": ts(), "updated_at": ts(), "can_reply": boolean(), "muted": boolean(), "unread_count": integer(),
	})
}

func messageShape() *openapi3.Schema {
	delivery := obj(props{"state": enum("pending", "retrying", "failed", "accepted", "delivered"), "attempts": integer(), "last_error": str(), "next_attempt_at": nullTS()})
	typ := integer()
	typ.Description = "0 incoming, 1 outgoing, 2 activity, 3 template (Chatwoot's enum)"
	return obj(props{
		"id": integer(), "content": nullStr(), "inbox_id": integer(), "conversation_id": integer(),
		"message_type": typ, "content_type": str(), "status": str(), "content_attributes": anyObj(),
		"created_at": ts(), "updated_at": ts(), "private": boolean(), "source_id": nullStr(),
		"sender_type": nullable(enum("User", "Contact", "AgentBot")), "sender_id": nullInt(),
		"delivery": delivery, "attachments": arr(shapeOf("Attachment")),
	}, "delivery", "attachments")
}

func attachmentShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "message_id": nullInt(), "account_id": integer(), "file_type": str(), "content_type": str(),
		"file_name": str(), "extension": str(), "file_size": integer(), "data_url": str(), "thumb_url": str(),
	})
}

func customAttributeShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "attribute_display_name": str(), "attribute_display_type": str(), "attribute_key": str(),
		"attribute_model": enum("contact_attribute", "conversation_attribute"), "attribute_description": str(),
		"attribute_values": arr(str()), "regex_pattern": nullStr(), "regex_cue": nullStr(), "default_value": null(),
		"created_at": ts(), "updated_at": ts(),
	})
}

func userShape() *openapi3.Schema {
	account := obj(props{"id": integer(), "role": enum("administrator", "agent"), "name": str()}, "name")
	return obj(props{
		"id": integer(), "name": str(), "display_name": str(), "email": str(), "uid": str(), "confirmed": boolean(),
		"custom_attributes": anyObj(), "accounts": arr(account), "created_at": ts(), "access_token": str(),
	}, "access_token")
}

func agentShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "account_id": integer(), "role": enum("administrator", "agent"), "availability_status": str(),
		"auto_offline": boolean(), "provider": str(), "thumbnail": str(),
		"name": str(), "available_name": str(), "email": str(), "confirmed": boolean(),
	}, "name", "available_name", "email", "confirmed")
}

func agentBotShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "name": str(), "description": str(), "outgoing_url": str(), "bot_type": str(),
		"bot_config": anyObj(), "account_id": integer(), "thumbnail": str(), "system_bot": boolean(),
	})
}

func webhookShape() *openapi3.Schema {
	s := obj(props{
		"id": integer(), "name": str(), "url": str(), "account_id": integer(), "subscriptions": arr(str()),
		"inbox": null(), "created_at": ts(), "secret": str(),
	}, "secret")
	s.Properties["secret"].Value.Description = "the signing secret, in the answer that created the webhook only"
	return s
}

func webhookDeliveryShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "delivery_id": str(), "event": str(), "url": str(), "payload": &openapi3.Schema{},
		"status": str(), "attempts": integer(), "response_status": nullInt(), "last_error": nullStr(),
		"next_attempt_at": nullTS(), "delivered_at": nullTS(), "created_at": ts(),
	})
}

// attemptShape is one entry of a delivery's attempt log.
func attemptShape() *openapi3.Schema {
	outcome := str()
	outcome.Enum = []any{"delivered", "retrying", "failed"}
	return obj(props{
		"id": integer(), "attempt": integer(), "started_at": ts(), "duration_ms": integer(),
		"outcome": outcome, "response_status": nullInt(), "error": nullStr(),
	})
}

func scheduleShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "account_id": integer(), "inbox_id": integer(), "contact_id": integer(),
		"conversation_id": nullInt(), "author_id": nullInt(), "title": str(), "content": str(), "private": boolean(),
		"scheduled_at": ts(), "status": str(), "failure_reason": nullStr(),
		"template_params": nullable(anyObj()), "content_attributes": nullable(anyObj()),
		"recurrence_type": str(), "recurrence_interval": integer(), "recurrence_days": arr(integer()),
		"recurrence_end_type": str(), "recurrence_end_date": nullTS(), "recurrence_max_occurrences": nullInt(),
		"occurrences_count": integer(), "next_occurrence_at": nullTS(), "parent_id": nullInt(),
		"occurrence_at": nullTS(), "message_id": nullInt(), "sent_at": nullTS(), "created_at": ts(), "updated_at": ts(),
		"attachments": arr(shapeOf("Attachment")),
	})
}

func funnelShape() *openapi3.Schema {
	stage := obj(props{"id": integer(), "name": str(), "slug": str(), "color": str(), "description": str(), "position": integer()})
	return obj(props{
		"id": integer(), "account_id": integer(), "name": str(), "description": str(), "active": boolean(),
		"settings": anyObj(), "stages": arr(stage), "created_at": ts(), "updated_at": ts(),
	})
}

func cardShape() *openapi3.Schema {
	details := obj(props{"title": str(), "description": str(), "priority": str(), "value": number(), "currency": anyObj(), "status": str()})
	contact := obj(props{"id": integer(), "name": str(), "email": nullStr(), "phone_number": nullStr()})
	conv := obj(props{"id": integer(), "inbox_id": integer(), "status": str(), "contact": nullable(contact)})
	return obj(props{
		"id": integer(), "account_id": integer(), "funnel_id": integer(), "funnel_stage": str(), "stage_name": str(),
		"stage_id": integer(), "position": integer(), "status": str(), "item_details": details,
		"conversation_display_id": nullInt(), "conversation": nullable(conv), "assigned_agents": arr(shapeOf("CardAgent")),
		"stage_entered_at": ts(), "closed_at": nullTS(), "created_by_id": nullInt(), "created_at": ts(), "updated_at": ts(),
	}, "stage_name")
}

func checklistItemShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "text": str(), "completed": boolean(), "due_date": nullTS(), "agent_id": nullInt(),
		"position": integer(), "created_at": ts(), "updated_at": ts(),
	})
}

func noteShape() *openapi3.Schema {
	author := obj(props{"id": integer(), "name": str(), "email": str(), "avatar_url": str()})
	return obj(props{
		"id": integer(), "content": str(), "author_id": nullInt(), "author": nullable(author),
		"created_at": ts(), "updated_at": ts(),
	})
}

func automationShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "account_id": integer(), "name": str(), "funnel_id": nullInt(), "trigger_type": str(),
		"trigger_config": anyObj(), "action_type": str(), "action_config": anyObj(), "enabled": boolean(),
		"last_run_at": nullTS(), "created_at": ts(), "updated_at": ts(),
	})
}

func kanbanConfigShape() *openapi3.Schema {
	events := &openapi3.Schema{Description: "settings.webhook_events, or null when none were saved"}
	return obj(props{
		"id": integer(), "account_id": integer(), "enabled": boolean(), "webhook_url": str(),
		"webhook_events": events, "settings": anyObj(), "created_at": ts(), "updated_at": ts(), "webhook_secret": str(),
	}, "webhook_events", "webhook_secret")
}

func accountUserShape() *openapi3.Schema {
	return obj(props{
		"id": integer(), "account_id": integer(), "user_id": integer(), "role": enum("administrator", "agent"),
		"availability": str(), "auto_offline": boolean(), "created_at": ts(), "updated_at": ts(),
	})
}
