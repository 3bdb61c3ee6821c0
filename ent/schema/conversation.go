package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Conversation is a thread with a contact in one inbox. Its public id is the
// per-account display id.
type Conversation struct{ ent.Schema }

func (Conversation) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Conversation) Fields() []ent.Field {
	return []ent.Field{
		field.Int("display_id").Immutable(),
		field.String("uuid").Immutable(),
		field.Int("inbox_id").Immutable(),
		field.Int("contact_id"),
		field.Int("contact_inbox_id").Optional().Nillable(),
		field.Int("assignee_id").Optional().Nillable(),
		field.Int("team_id").Optional().Nillable(),
		field.Enum("status").Values("open", "resolved", "pending", "snoozed").Default("open"),
		field.Enum("priority").Values("low", "medium", "high", "urgent").Optional().Nillable(),
		field.JSON("labels", []string{}).Default([]string{}),
		field.JSON("additional_attributes", map[string]any{}).Default(map[string]any{}),
		field.JSON("custom_attributes", map[string]any{}).Default(map[string]any{}),
		field.Time("snoozed_until").Optional().Nillable(),
		field.Time("last_activity_at").Default(utcNow).Annotations(entgql.OrderField("LAST_ACTIVITY_AT")),
		// Opens the messaging-app 24-hour window for free-form replies.
		field.Time("last_incoming_at").Optional().Nillable(),
		field.Time("first_reply_created_at").Optional().Nillable(),
		field.Time("waiting_since").Optional().Nillable(),
		field.Time("agent_last_seen_at").Optional().Nillable(),
		field.Time("contact_last_seen_at").Optional().Nillable(),
	}
}

func (Conversation) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("inbox", Inbox.Type).Ref("conversations").Field("inbox_id").Unique().Required().Immutable(),
		edge.From("contact", Contact.Type).Ref("conversations").Field("contact_id").Unique().Required(),
		edge.To("contact_inbox", ContactInbox.Type).Field("contact_inbox_id").Unique(),
		edge.To("assignee", User.Type).Field("assignee_id").Unique(),
		edge.From("team", Team.Type).Ref("conversations").Field("team_id").Unique(),
		edge.To("messages", Message.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.RelayConnection()),
		edge.To("scheduled_messages", ScheduledMessage.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("kanban_items", KanbanItem.Type),
	}
}

func (Conversation) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("account_id", "display_id").Unique(),
		index.Fields("account_id", "status", "last_activity_at"),
		index.Fields("contact_id"),
	}
}

func (Conversation) Policy() ent.Policy { return conversationPolicy() }

func (Conversation) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("conversations"), entgql.MultiOrder()}
}

// Message is one message or private note of a conversation.
type Message struct{ ent.Schema }

func (Message) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Message) Fields() []ent.Field {
	return []ent.Field{
		field.Int("conversation_id").Immutable(),
		field.Int("inbox_id").Immutable(),
		field.Text("content").Optional().Nillable().Validate(maxRunes(MaxTextRunes)),
		field.Enum("message_type").Values("incoming", "outgoing", "activity", "template").Default("outgoing"),
		field.Enum("content_type").
			Values("text", "input_text", "input_textarea", "input_email", "input_select", "cards", "form", "article", "incoming_email", "input_csat", "sticker").
			Default("text"),
		field.Bool("private").Default(false),
		field.Enum("status").Values("sent", "delivered", "read", "failed").Default("sent"),
		field.JSON("content_attributes", map[string]any{}).Default(map[string]any{}),
		field.JSON("additional_attributes", map[string]any{}).Default(map[string]any{}),
		field.JSON("template_params", map[string]any{}).Optional(),
		field.String("source_id").Optional().Nillable().Validate(maxRunes(MaxNameRunes)),
		field.String("echo_id").Optional().Nillable().Validate(maxRunes(MaxNameRunes)),
		field.Enum("sender_type").Values("user", "contact", "agent_bot").Optional().Nillable(),
		field.Int("sender_id").Optional().Nillable(),
		// Durable delivery state: the delivery job claims the row while due.
		// Shown (read-only) so a message retrying says so: its attempts,
		// the last attempt's error and when the next one is due.
		field.Int("delivery_attempts").Default(0).
			Annotations(entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput, entgql.SkipWhereInput, entgql.SkipOrderField)),
		field.Time("next_delivery_at").Optional().Nillable().
			Annotations(entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput, entgql.SkipWhereInput, entgql.SkipOrderField)),
		field.Text("delivery_error").Optional().Default("").
			Annotations(entgql.Skip(entgql.SkipMutationCreateInput, entgql.SkipMutationUpdateInput, entgql.SkipWhereInput, entgql.SkipOrderField)),
	}
}

func (Message) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("conversation", Conversation.Type).Ref("messages").Field("conversation_id").Unique().Required().Immutable(),
		edge.To("attachments", Attachment.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("attempt_log", MessageDeliveryAttempt.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Message) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("conversation_id", "id"),
		index.Fields("next_delivery_at"),
		// The delivery claim's order rule looks for an earlier pending
		// message of the conversation; only pending ones are indexed.
		index.Fields("conversation_id", "id").StorageKey("message_pending_by_conversation").
			Annotations(entsql.IndexWhere("next_delivery_at IS NOT NULL")),
		// A channel's id of a message names one message of the inbox: a
		// provider's redelivery is stored once, and a receipt finds the
		// message it is about.
		index.Fields("inbox_id", "source_id").Unique(),
	}
}

func (Message) Policy() ent.Policy { return messagePolicy() }

func (Message) Hooks() []ent.Hook { return []ent.Hook{incomingFromUsersOnAPIInboxes()} }

func (Message) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.MultiOrder()}
}

// Attachment is a file of a message or of a scheduled message.
type Attachment struct{ ent.Schema }

func (Attachment) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Attachment) Policy() ent.Policy { return attachmentPolicy() }

func (Attachment) Fields() []ent.Field {
	return []ent.Field{
		field.Int("message_id").Optional().Nillable(),
		field.Int("scheduled_message_id").Optional().Nillable(),
		field.Enum("file_type").Values("image", "audio", "video", "file", "location", "fallback", "contact").Default("file"),
		field.String("file_name").Default(""),
		field.String("content_type").Default("application/octet-stream"),
		field.Int64("file_size").Default(0),
		// Path below STORAGE_DIR.
		field.String("storage_key").NotEmpty(),
	}
}

func (Attachment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("message", Message.Type).Ref("attachments").Field("message_id").Unique(),
		edge.From("scheduled_message", ScheduledMessage.Type).Ref("attachments").Field("scheduled_message_id").Unique(),
	}
}

func (Attachment) Annotations() []schema.Annotation { return skipGraphQL() }

// Label is an account's tag for conversations and contacts.
type Label struct{ ent.Schema }

func (Label) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Label) Fields() []ent.Field {
	return []ent.Field{
		// Stored lower-cased, so the unique index ignores case.
		field.String("title").NotEmpty().MaxLen(255).Match(labelTitlePattern).Annotations(entgql.OrderField("TITLE")),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)),
		field.String("color").Default("#1f93ff").Match(hexColorPattern),
		field.Bool("show_on_sidebar").Default(false),
	}
}

func (Label) Indexes() []ent.Index {
	return []ent.Index{index.Fields("account_id", "title").Unique()}
}

func (Label) Policy() ent.Policy { return adminWritesPolicy() }

func (Label) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("labels"), entgql.MultiOrder()}
}
