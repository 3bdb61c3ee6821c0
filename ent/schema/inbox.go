package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/switchboard/switchboard/ent/schema/schematype"
)

// Inbox is a service channel; every conversation belongs to one.
type Inbox struct{ ent.Schema }

func (Inbox) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Inbox) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("NAME")),
		field.Enum("channel_type").Values("api", "whatsapp", "email", "web_widget", "sms", "telegram", "line").Immutable(),
		field.JSON("channel", schematype.Channel{}).Default(schematype.Channel{}).
			Annotations(entgql.Skip(entgql.SkipAll)),
		// channel_key is the channel's setting that names the inbox to the
		// outside (schematype.Channel.Key), kept by channelKeyHook: channels'
		// requests find their inbox by it through an index.
		field.String("channel_key").Optional().Default("").Annotations(entgql.Skip(entgql.SkipAll)),
		field.Bool("greeting_enabled").Default(false),
		field.String("greeting_message").Optional().Default("").Validate(maxRunes(MaxTextRunes)),
		field.Bool("enable_auto_assignment").Default(true),
		field.Bool("enable_email_collect").Default(true),
		field.Bool("csat_survey_enabled").Default(false),
		field.Bool("working_hours_enabled").Default(false),
		field.String("out_of_office_message").Optional().Default("").Validate(maxRunes(MaxTextRunes)),
		field.String("timezone").Default("UTC").Validate(maxRunes(MaxNameRunes)),
		field.Bool("allow_messages_after_resolved").Default(true),
		field.Bool("lock_to_single_conversation").Default(false),
		field.Enum("sender_name_type").Values("friendly", "professional").Default("friendly"),
		field.String("business_name").Optional().Default("").Validate(maxRunes(MaxNameRunes)),
		field.String("avatar_url").Optional().Default("").Validate(maxRunes(MaxURLRunes)),
		field.Int("agent_bot_id").Optional().Nillable(),
	}
}

func (Inbox) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("contact_inboxes", ContactInbox.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
		edge.To("members", InboxMember.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("conversations", Conversation.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
		edge.To("scheduled_messages", ScheduledMessage.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
		edge.From("agent_bot", AgentBot.Type).Ref("inboxes").Field("agent_bot_id").Unique(),
		edge.To("mailbox_state", MailboxState.Type).Unique().
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
	}
}

func (Inbox) Indexes() []ent.Index {
	return []ent.Index{index.Fields("channel_key", "channel_type")}
}

func (Inbox) Hooks() []ent.Hook { return []ent.Hook{channelKeyHook()} }

func (Inbox) Policy() ent.Policy { return adminWritesPolicy() }

func (Inbox) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("inboxes"), entgql.MultiOrder()}
}

// InboxMember lets an agent see and work the inbox's conversations.
type InboxMember struct{ ent.Schema }

func (InboxMember) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (InboxMember) Fields() []ent.Field {
	return []ent.Field{
		field.Int("inbox_id").Immutable(),
		field.Int("user_id").Immutable(),
	}
}

func (InboxMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("inbox", Inbox.Type).Ref("members").Field("inbox_id").Unique().Required().Immutable(),
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable(),
	}
}

func (InboxMember) Indexes() []ent.Index {
	return []ent.Index{index.Fields("inbox_id", "user_id").Unique()}
}

func (InboxMember) Policy() ent.Policy { return adminWritesPolicy() }

func (InboxMember) Annotations() []schema.Annotation { return nil }

// AgentBot answers an inbox's conversations through its outgoing URL.
type AgentBot struct{ ent.Schema }

func (AgentBot) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (AgentBot) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)),
		field.String("outgoing_url").Optional().Default("").Validate(maxRunes(MaxURLRunes)),
		field.Enum("bot_type").Values("webhook").Default("webhook"),
		field.JSON("bot_config", map[string]any{}).Default(map[string]any{}),
	}
}

func (AgentBot) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("inboxes", Inbox.Type),
		edge.To("access_tokens", AccessToken.Type),
	}
}

func (AgentBot) Policy() ent.Policy { return adminWritesPolicy() }

func (AgentBot) Annotations() []schema.Annotation { return nil }
