package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/switchboard/switchboard/ent/schema/gql"

	"github.com/switchboard/switchboard/internal/recurrence"
)

// ScheduledMessage is a message to send at a future time, once or on a
// recurrence. Each occurrence of a recurring schedule is its own row pointing
// at its parent; (parent_id, occurrence_at) is unique, so one occurrence can
// never produce two rows.
type ScheduledMessage struct{ ent.Schema }

func (ScheduledMessage) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, AccountMixin{LedByAccount: true}}
}

func (ScheduledMessage) Policy() ent.Policy { return scheduledMessagePolicy() }

func (ScheduledMessage) Fields() []ent.Field {
	return []ent.Field{
		field.Int("inbox_id").
			Comment("The global id of the Inbox the message is sent through."),
		field.Int("contact_id").
			Comment("The global id of the Contact it is sent to."),
		field.Int("conversation_id").Optional().Nillable().
			Comment("The global id of the Conversation it is sent in; null until a send makes or finds one."),
		field.Int("author_id").Optional().Nillable().
			Comment("The global id of the User who scheduled it; null when made by the system."),
		field.String("title").Optional().Default("").Validate(maxRunes(MaxNameRunes)).
			Comment("A name for the schedule, shown in lists; empty when not given. At most 255 characters."),
		field.Text("content").Default("").Validate(maxRunes(MaxTextRunes)).
			Comment("The text to send (at most 150,000 characters); may be empty when templateParams or attachments carry the message."),
		field.Time("scheduled_at").Annotations(gql.OrderField("SCHEDULED_AT")).
			Comment("When to send (the first send of a recurring schedule) (RFC 3339, UTC)."),
		field.Enum("status").Values("pending", "sent", "failed", "cancelled").Default("pending").
			Comment("Where the schedule stands.").
			Annotations(EnumValues{
				"pending":   "Waiting for its time (a recurring parent stays pending while occurrences remain).",
				"sent":      "Sent; messageID and sentAt are set.",
				"failed":    "The send failed; failureReason says why.",
				"cancelled": "Cancelled before it was sent.",
			}),
		field.String("failure_reason").Optional().Default("").
			Comment("Why the last send failed; empty unless status is failed."),
		field.JSON("template_params", map[string]any{}).Optional().
			Comment("For a WhatsApp template: the template's name, language and parameters; null for a free-form message."),
		field.JSON("content_attributes", map[string]any{}).Default(map[string]any{}).
			Comment("Structured content sent with the message, as Message.contentAttributes (JSON object, at most 64 KiB)."),
		field.Bool("private").Default(false).
			Comment("Whether it is stored as a private note instead of being sent to the contact."),
		field.Enum("recurrence_type").Values("none", "daily", "weekly", "monthly", "yearly").Default("none").
			Comment("How the schedule repeats.").
			Annotations(EnumValues{
				"none":    "Sent once.",
				"daily":   "Every recurrenceInterval days.",
				"weekly":  "Every recurrenceInterval weeks, on recurrenceDays.",
				"monthly": "Every recurrenceInterval months, on scheduledAt's day of month.",
				"yearly":  "Every recurrenceInterval years, on scheduledAt's date.",
			}),
		field.Int("recurrence_interval").Default(1).Range(1, recurrence.MaxInterval).
			Comment("Repeat every N days, weeks, months or years (1 to 1000)."),
		field.JSON("recurrence_days", []int{}).Default([]int{}).
			Comment("For weekly schedules: the weekdays to send on, 0 (Sunday) to 6 (Saturday); empty otherwise."),
		field.Enum("recurrence_end_type").Values("never", "on_date", "after_occurrences").Default("never").
			Comment("When a recurring schedule stops.").
			Annotations(EnumValues{
				"never":             "Repeats until cancelled.",
				"on_date":           "Stops after recurrenceEndDate.",
				"after_occurrences": "Stops after recurrenceMaxOccurrences sends.",
			}),
		field.Time("recurrence_end_date").Optional().Nillable().
			Comment("The last day a recurrence may send (RFC 3339, UTC); set when recurrenceEndType is on_date, null otherwise."),
		field.Int("recurrence_max_occurrences").Optional().Nillable().Range(1, recurrence.MaxOccurrences).
			Comment("How many sends a recurrence makes in all (1 to 10000); set when recurrenceEndType is after_occurrences, null otherwise."),
		field.Int("occurrences_count").Default(0).
			Comment("How many occurrences the recurrence has sent so far."),
		// When the job runner next acts on the row: the time of a pending
		// one-off, the next occurrence of a recurring parent (while a runner
		// holds the row, the end of its lease). Nil when nothing is left to
		// fire.
		field.Time("next_occurrence_at").Optional().Nillable().Annotations(gql.Skip(gql.SkipAll)),
		field.Int("parent_id").Optional().Nillable().
			Comment("On an occurrence: the global id of its recurring parent; null on a one-off or a parent."),
		// On an occurrence: the instant it stands for.
		field.Time("occurrence_at").Optional().Nillable().
			Comment("On an occurrence: the instant of the recurrence it stands for (RFC 3339, UTC); null otherwise."),
		field.Int("message_id").Optional().Nillable().
			Comment("The database id of the Message the send made; null until sent."),
		field.Time("sent_at").Optional().Nillable().
			Comment("When it was sent (RFC 3339, UTC); null until then."),
	}
}

func (ScheduledMessage) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("conversation", Conversation.Type).Ref("scheduled_messages").Field("conversation_id").Unique().
			Comment("The conversation it is sent in; null until there is one."),
		edge.From("inbox", Inbox.Type).Ref("scheduled_messages").Field("inbox_id").Unique().Required().
			Comment("The inbox it is sent through."),
		edge.From("contact", Contact.Type).Ref("scheduled_messages").Field("contact_id").Unique().Required().
			Comment("The contact it is sent to."),
		edge.To("author", User.Type).Field("author_id").Unique().
			Comment("The user who scheduled it; null when none."),
		edge.To("occurrences", ScheduledMessage.Type).
			Comment("On a recurring parent: the occurrences made so far, one per send.").
			From("parent").Field("parent_id").Unique().
			Annotations(entsql.OnDelete(entsql.Cascade)).
			Comment("On an occurrence: its recurring parent; null otherwise."),
		edge.To("attachments", Attachment.Type).Annotations(entsql.OnDelete(entsql.Cascade), gql.Skip(gql.SkipAll)),
	}
}

func (ScheduledMessage) Indexes() []ent.Index {
	return []ent.Index{
		// A list filtered by status is an account's (the tenancy rule).
		// No index leads with status: the settling of delivered messages
		// asks for their pending schedules by message id, and an index on
		// status alone misled PostgreSQL when its statistics still saw few
		// pending rows (a campaign put thousands in since the last ANALYZE):
		// it read every pending row for each message (docs/performance.md).
		index.Fields("account_id", "status", "scheduled_at"),
		// A series' occurrences only: one-off schedules (most of them) have
		// no parent, and leaving them out saves an index entry at each of
		// their writes (a fired or settled schedule is not a HOT update).
		// NULLs never conflicted, so what is unique is unchanged.
		index.Fields("parent_id", "occurrence_at").Unique().
			Annotations(entsql.IndexWhere("parent_id IS NOT NULL")),
		index.Fields("account_id", "scheduled_at"),
		// Only schedules with an occurrence ahead are due: a sent, failed or
		// cancelled one skips the index.
		index.Fields("next_occurrence_at").Annotations(entsql.IndexWhere("next_occurrence_at IS NOT NULL")),
		// Fired schedules only: the settling finds them by message id.
		// Unfired ones, every schedule of the calendar ahead, have none:
		// with them in it, the firing's guard "message_id IS NULL" led
		// PostgreSQL, whose statistics saw nearly every row fired, to read
		// the whole calendar through this index for each firing by
		// primary key (docs/performance.md, eighteenth session).
		index.Fields("message_id").Annotations(entsql.IndexWhere("message_id IS NOT NULL")),
		// A conversation's and a contact's schedules (their pages and
		// counts), and the cascades when either is deleted.
		index.Fields("conversation_id", "scheduled_at"),
		index.Fields("contact_id", "scheduled_at"),
	}
}

// In GraphQL through the hand-written queries and mutations of
// graph/schema.graphqls, which call the operations (no generated filters
// that would bypass them).
func (ScheduledMessage) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A message to send to a contact through an inbox at scheduledAt, once or on a recurrence. A recurring schedule (the parent) makes one occurrence row per send (parent set, occurrenceAt the instant it stands for). Visible to the members of its inbox; REST: the scheduled messages API."),
		gql.RelayConnection(),
		gql.QueryField("scheduledMessages").
			Description("The scheduled messages the viewer may see, one page at a time (first or last is required, at most 100), ordered by orderBy (e.g. SCHEDULED_AT)."),
		gql.MultiOrder(),
	}
}
