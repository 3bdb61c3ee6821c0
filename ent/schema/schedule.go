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

// ScheduledMessage is a message to send at a future time, once or on a
// recurrence. Each occurrence of a recurring schedule is its own row pointing
// at its parent; (parent_id, occurrence_at) is unique, so one occurrence can
// never produce two rows.
type ScheduledMessage struct{ ent.Schema }

func (ScheduledMessage) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (ScheduledMessage) Policy() ent.Policy { return scheduledMessagePolicy() }

func (ScheduledMessage) Fields() []ent.Field {
	return []ent.Field{
		field.Int("inbox_id"),
		field.Int("contact_id"),
		field.Int("conversation_id").Optional().Nillable(),
		field.Int("author_id").Optional().Nillable(),
		field.String("title").Optional().Default("").Validate(maxRunes(MaxNameRunes)),
		field.Text("content").Default("").Validate(maxRunes(MaxTextRunes)),
		field.Time("scheduled_at").Annotations(entgql.OrderField("SCHEDULED_AT")),
		field.Enum("status").Values("pending", "sent", "failed", "cancelled").Default("pending"),
		field.String("failure_reason").Optional().Default(""),
		field.JSON("template_params", map[string]any{}).Optional(),
		field.JSON("content_attributes", map[string]any{}).Default(map[string]any{}),
		field.Bool("private").Default(false),
		field.Enum("recurrence_type").Values("none", "daily", "weekly", "monthly", "yearly").Default("none"),
		field.Int("recurrence_interval").Default(1).Min(1),
		field.JSON("recurrence_days", []int{}).Default([]int{}),
		field.Enum("recurrence_end_type").Values("never", "on_date", "after_occurrences").Default("never"),
		field.Time("recurrence_end_date").Optional().Nillable(),
		field.Int("recurrence_max_occurrences").Optional().Nillable(),
		field.Int("occurrences_count").Default(0),
		// When the job runner next acts on the row: the time of a pending
		// one-off, the next occurrence of a recurring parent (while a runner
		// holds the row, the end of its lease). Nil when nothing is left to
		// fire.
		field.Time("next_occurrence_at").Optional().Nillable().Annotations(entgql.Skip(entgql.SkipAll)),
		field.Int("parent_id").Optional().Nillable(),
		// On an occurrence: the instant it stands for.
		field.Time("occurrence_at").Optional().Nillable(),
		field.Int("message_id").Optional().Nillable(),
		field.Time("sent_at").Optional().Nillable(),
	}
}

func (ScheduledMessage) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("conversation", Conversation.Type).Ref("scheduled_messages").Field("conversation_id").Unique(),
		edge.From("inbox", Inbox.Type).Ref("scheduled_messages").Field("inbox_id").Unique().Required(),
		edge.From("contact", Contact.Type).Ref("scheduled_messages").Field("contact_id").Unique().Required(),
		edge.To("author", User.Type).Field("author_id").Unique(),
		edge.To("occurrences", ScheduledMessage.Type).
			From("parent").Field("parent_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("attachments", Attachment.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
	}
}

func (ScheduledMessage) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("status", "scheduled_at"),
		index.Fields("parent_id", "occurrence_at").Unique(),
		index.Fields("account_id", "scheduled_at"),
		index.Fields("next_occurrence_at"),
		index.Fields("message_id"),
	}
}

// In GraphQL through the hand-written queries and mutations of
// graph/schema.graphqls, which call the operations (no generated filters
// that would bypass them).
func (ScheduledMessage) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("scheduledMessages"), entgql.MultiOrder()}
}
