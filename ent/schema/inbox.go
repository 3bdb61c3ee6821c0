package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/switchboard/switchboard/ent/schema/gql"

	"github.com/switchboard/switchboard/ent/schema/schematype"
)

// Inbox is a service channel; every conversation belongs to one.
type Inbox struct{ ent.Schema }

func (Inbox) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Inbox) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255).Annotations(gql.OrderField("NAME")).
			Comment("The inbox's name (1-255 characters)."),
		field.Enum("channel_type").Values("api", "whatsapp", "email", "web_widget", "sms", "telegram", "line").Immutable().
			Comment("The kind of channel; fixed when the inbox is made.").
			Annotations(EnumValues{
				"api":        "The API channel: messages come and go through the REST API and webhooks.",
				"whatsapp":   "WhatsApp Cloud API.",
				"email":      "Email (IMAP in, SMTP out).",
				"web_widget": "The website chat widget.",
				"sms":        "SMS.",
				"telegram":   "Telegram.",
				"line":       "LINE.",
			}),
		field.JSON("channel", schematype.Channel{}).Default(schematype.Channel{}).
			Annotations(gql.Skip(gql.SkipAll)),
		// channel_key is the channel's setting that names the inbox to the
		// outside (schematype.Channel.Key), kept by channelKeyHook: channels'
		// requests find their inbox by it through an index.
		field.String("channel_key").Optional().Default("").Annotations(gql.Skip(gql.SkipAll)),
		field.Bool("greeting_enabled").Default(false).
			Comment("In Chatwoot, whether greetingMessage is sent when a contact opens a new conversation. Stored and returned for the console; Switchboard does not act on it."),
		field.String("greeting_message").Optional().Default("").Validate(maxRunes(MaxTextRunes)).
			Comment("The greeting text for greetingEnabled (stored for the console, not sent by Switchboard); empty when none. At most 150,000 characters."),
		field.Bool("enable_auto_assignment").Default(true).
			Comment("In Chatwoot, whether new conversations are assigned to the inbox's members automatically. Stored and returned for the console; Switchboard does not act on it."),
		field.Bool("enable_email_collect").Default(true).
			Comment("In Chatwoot, whether the web widget asks an anonymous visitor for an email address. Stored and returned for the console; Switchboard does not act on it."),
		field.Bool("csat_survey_enabled").Default(false).
			Comment("In Chatwoot, whether a satisfaction survey is sent when a conversation is resolved. Stored and returned for the console; Switchboard does not act on it."),
		field.Bool("working_hours_enabled").Default(false).
			Comment("In Chatwoot, whether outOfOfficeMessage answers messages received outside working hours (in timezone). Stored and returned for the console; Switchboard does not act on it."),
		field.String("out_of_office_message").Optional().Default("").Validate(maxRunes(MaxTextRunes)).
			Comment("The out-of-office text for workingHoursEnabled (stored for the console, not sent by Switchboard); empty when none."),
		field.String("timezone").Default("UTC").Validate(maxRunes(MaxNameRunes)).
			Comment("The IANA time zone of the inbox's working hours (e.g. Europe/Berlin); UTC by default."),
		field.Bool("allow_messages_after_resolved").Default(true).
			Comment("In Chatwoot, whether the contact may write again after a conversation is resolved. Here the next message starts a new conversation either way (see lockToSingleConversation). Stored and returned for the console; Switchboard does not act on it."),
		field.Bool("lock_to_single_conversation").Default(false).
			Comment("Whether a contact has at most one conversation in the inbox: new messages go to the existing one, whatever its status."),
		field.Enum("sender_name_type").Values("friendly", "professional").Default("friendly").
			Comment("Which name outgoing email and widget messages are signed with.").
			Annotations(EnumValues{
				"friendly":     "Signed with the agent's name (e.g. 'Ana from Acme').",
				"professional": "Signed with businessName only.",
			}),
		field.String("business_name").Optional().Default("").Validate(maxRunes(MaxNameRunes)).
			Comment("The business name used with professional sender names; empty when not set."),
		field.String("avatar_url").Optional().Default("").Validate(maxRunes(MaxURLRunes)).
			Comment("The URL of the inbox's picture, empty when none. At most 2048 characters."),
		field.Int("agent_bot_id").Optional().Nillable().
			Comment("The global id of the AgentBot answering the inbox; null when none."),
	}
}

func (Inbox) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("contact_inboxes", ContactInbox.Type).Annotations(entsql.OnDelete(entsql.Cascade), gql.Skip(gql.SkipAll)),
		edge.To("members", InboxMember.Type).Annotations(entsql.OnDelete(entsql.Cascade)).
			Comment("The agents who may see and work the inbox's conversations (administrators see them all anyway)."),
		edge.To("conversations", Conversation.Type).Annotations(entsql.OnDelete(entsql.Cascade), gql.Skip(gql.SkipAll)),
		edge.To("scheduled_messages", ScheduledMessage.Type).Annotations(entsql.OnDelete(entsql.Cascade), gql.Skip(gql.SkipAll)),
		edge.From("agent_bot", AgentBot.Type).Ref("inboxes").Field("agent_bot_id").Unique().
			Comment("The agent bot answering the inbox; null when none."),
		edge.To("mailbox_state", MailboxState.Type).Unique().
			Annotations(entsql.OnDelete(entsql.Cascade), gql.Skip(gql.SkipAll)),
	}
}

func (Inbox) Indexes() []ent.Index {
	return []ent.Index{index.Fields("channel_key", "channel_type")}
}

func (Inbox) Hooks() []ent.Hook { return []ent.Hook{channelKeyHook(), inboxCap()} }

func (Inbox) Policy() ent.Policy { return adminWritesPolicy() }

func (Inbox) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A channel through which conversations arrive and replies leave (API, WhatsApp, email, web widget...). Every conversation is in one inbox. Every member of the account reads the inboxes and only administrators manage them; an inbox's conversations and messages are visible to administrators and to its members only. The REST API's inbox."),
		gql.RelayConnection(),
		gql.QueryField("inboxes").
			Description("The account's inboxes, one page at a time (first or last is required, at most 100)."),
		gql.MultiOrder(),
	}
}

// InboxMember lets an agent see and work the inbox's conversations.
type InboxMember struct{ ent.Schema }

func (InboxMember) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (InboxMember) Fields() []ent.Field {
	return []ent.Field{
		field.Int("inbox_id").Immutable().
			Comment("The global id of the Inbox."),
		field.Int("user_id").Immutable().
			Comment("The global id of the member User."),
	}
}

func (InboxMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("inbox", Inbox.Type).Ref("members").Field("inbox_id").Unique().Required().Immutable().
			Comment("The inbox."),
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable().
			Comment("The member."),
	}
}

func (InboxMember) Indexes() []ent.Index {
	return []ent.Index{index.Fields("inbox_id", "user_id").Unique()}
}

func (InboxMember) Policy() ent.Policy { return adminWritesPolicy() }

func (InboxMember) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("An agent's membership of an inbox: it lets the agent see and work the inbox's conversations. Administrators manage memberships."),
	}
}

// AgentBot answers an inbox's conversations through its outgoing URL.
type AgentBot struct{ ent.Schema }

func (AgentBot) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (AgentBot) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255).
			Comment("The bot's name, shown as the sender of its messages (1-255 characters)."),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)).
			Comment("What the bot does; empty when not given."),
		field.String("outgoing_url").Optional().Default("").Validate(maxRunes(MaxURLRunes)).
			Comment("The http(s) URL Chatwoot posts the bot's events to (at most 2048 characters); empty when none. Stored for integrations: Switchboard does not post to it."),
		field.Enum("bot_type").Values("webhook").Default("webhook").
			Comment("How the bot is reached.").
			Annotations(EnumValues{
				"webhook": "Chatwoot's webhook bot (the only type): reached at outgoingURL, answering through the API.",
			}),
		field.JSON("bot_config", map[string]any{}).Default(map[string]any{}).
			Comment("The bot's own settings, a JSON object of at most 64 KiB, kept as sent."),
	}
}

func (AgentBot) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("inboxes", Inbox.Type).
			Comment("The inboxes the bot answers."),
		edge.To("access_tokens", AccessToken.Type),
	}
}

func (AgentBot) Policy() ent.Policy { return adminWritesPolicy() }

func (AgentBot) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("Chatwoot's agent bot, attached to inboxes (Inbox.agentBot): in Chatwoot its inboxes' events are posted to outgoingURL and it answers through the API with its own access token. Switchboard stores bots and their inboxes but posts no events to outgoingURL. Every member reads bots; administrators manage them."),
	}
}
