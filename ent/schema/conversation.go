package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/switchboard/switchboard/ent/schema/gql"
)

// Conversation is a thread with a contact in one inbox. Its public id is the
// per-account display id.
type Conversation struct{ ent.Schema }

func (Conversation) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, AccountMixin{LedByAccount: true}}
}

func (Conversation) Fields() []ent.Field {
	return []ent.Field{
		field.Int("display_id").Immutable().
			Comment("The conversation's number in the account (1, 2, 3...): the id of the REST API's conversation routes and of the console's URLs. Never changes."),
		field.String("uuid").Immutable().
			Comment("A random UUID (RFC 4122, lower-case) naming the conversation outside the account: it is in the Message-ID of the emails sent from it, so replies thread back to it; the public client API uses it too."),
		field.Int("inbox_id").Immutable().
			Comment("The global id of the Inbox the conversation is in; never changes."),
		field.Int("contact_id").
			Comment("The global id of the Contact; changes only when contacts are merged."),
		field.Int("contact_inbox_id").Optional().Nillable().
			Comment("The global id of the ContactInbox the conversation came through; null for conversations made without one."),
		field.Int("assignee_id").Optional().Nillable().
			Comment("The global id of the assigned User; null when unassigned."),
		field.Int("team_id").Optional().Nillable().
			Comment("The global id of the assigned Team; null when none."),
		field.Enum("status").Values("open", "resolved", "pending", "snoozed").Default("open").
			Comment("Where the conversation stands in its lifecycle (REST status).").
			Annotations(EnumValues{
				"open":     "Waiting for the team: shown in the inbox.",
				"resolved": "Done. The contact's next message starts a new conversation, or reopens this one in an inbox with lockToSingleConversation.",
				"pending":  "Chatwoot's pending: held for a bot before the team takes it.",
				"snoozed":  "Put aside; the contact's next message reopens it. snoozedUntil says until when it was meant to wait.",
			}),
		field.Enum("priority").Values("low", "medium", "high", "urgent").Optional().Nillable().
			Comment("How urgent the conversation is; null when no priority is set.").
			Annotations(EnumValues{
				"low":    "Low priority.",
				"medium": "Medium priority.",
				"high":   "High priority.",
				"urgent": "Needs attention now: listed first by the console.",
			}),
		field.JSON("labels", []string{}).Default([]string{}).
			Comment("The titles of the labels on the conversation (at most 100, lower-case)."),
		field.JSON("additional_attributes", map[string]any{}).Default(map[string]any{}).
			Comment("Free-form details recorded by the channel (browser, referer, email headers...), a JSON object of at most 64 KiB."),
		field.JSON("custom_attributes", map[string]any{}).Default(map[string]any{}).
			Comment("The values of the account's conversation custom attributes, by attribute key (JSON object, at most 64 KiB)."),
		field.Time("snoozed_until").Optional().Nillable().
			Comment("Until when a snoozed conversation was put aside (RFC 3339, UTC); null when not snoozed or snoozed until the next reply. Cleared when the conversation reopens."),
		field.Time("last_activity_at").Default(utcNow).Annotations(gql.OrderField("LAST_ACTIVITY_AT")).
			Comment("When the conversation last had a message or a status change (RFC 3339, UTC); the console's inbox order."),
		// Opens the messaging-app 24-hour window for free-form replies.
		field.Time("last_incoming_at").Optional().Nillable().
			Comment("When the contact last wrote (RFC 3339, UTC); null before that. Opens the messaging apps' 24-hour window for free-form replies (WhatsApp: outside it only templates may be sent)."),
		field.Time("first_reply_created_at").Optional().Nillable().
			Comment("Chatwoot's first_reply_created_at: when the team first replied (RFC 3339, UTC); null when not recorded."),
		field.Time("waiting_since").Optional().Nillable().
			Comment("Chatwoot's waiting_since: since when the contact has been waiting for a reply (RFC 3339, UTC); null when not recorded."),
		field.Time("agent_last_seen_at").Optional().Nillable().
			Comment("When an agent last read the conversation (RFC 3339, UTC); null when not recorded. Messages after it are unread for the team."),
		field.Time("contact_last_seen_at").Optional().Nillable().
			Comment("When the contact last read the conversation (the widget reports it) (RFC 3339, UTC); null when not recorded."),
	}
}

func (Conversation) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("inbox", Inbox.Type).Ref("conversations").Field("inbox_id").Unique().Required().Immutable().
			Comment("The inbox the conversation is in."),
		edge.From("contact", Contact.Type).Ref("conversations").Field("contact_id").Unique().Required().
			Comment("The contact the conversation is with."),
		edge.To("contact_inbox", ContactInbox.Type).Field("contact_inbox_id").Unique().
			Comment("The contact's presence in the inbox the conversation came through; null when none."),
		edge.To("assignee", User.Type).Field("assignee_id").Unique().
			Comment("The assigned user; null when unassigned."),
		edge.From("team", Team.Type).Ref("conversations").Field("team_id").Unique().
			Comment("The assigned team; null when none."),
		edge.To("messages", Message.Type).Annotations(entsql.OnDelete(entsql.Cascade), gql.RelayConnection()).
			Comment("The conversation's messages, one page at a time (first or last is required, at most 100), oldest first unless orderBy says otherwise. Agents see private notes; a visitor never does."),
		edge.To("scheduled_messages", ScheduledMessage.Type).Annotations(entsql.OnDelete(entsql.Cascade)).
			Comment("Messages scheduled for the conversation (pending, sent, failed or cancelled)."),
		edge.To("kanban_items", KanbanItem.Type).
			Comment("The kanban cards linked to the conversation."),
	}
}

func (Conversation) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("account_id", "display_id").Unique(),
		index.Fields("account_id", "status", "last_activity_at"),
		index.Fields("contact_id"),
		// A customer's e-mail reply finds its conversation by the uuid in
		// our Message-ID (internal/conversations/email_threads.go); deleting
		// an inbox cascades here.
		index.Fields("inbox_id", "uuid"),
		// Deleting a contact's contact inboxes (a contact deleted or
		// merged) sets this to NULL in its conversations.
		index.Fields("contact_inbox_id"),
		// The job runner reopens, once a minute across accounts, the
		// snoozed conversations whose time has come (WakeSnoozed); only
		// snoozed ones have a time.
		index.Fields("snoozed_until").Annotations(entsql.IndexWhere("snoozed_until IS NOT NULL")),
	}
}

func (Conversation) Policy() ent.Policy { return conversationPolicy() }

func (Conversation) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A thread of messages between a contact and the team, in one inbox. Agents see the conversations of the inboxes they are members of, administrators every one. displayID is the number the REST API and the console use in URLs (per account); databaseId is the internal row id."),
		gql.RelayConnection(),
		gql.QueryField("conversations").
			Description("The conversations the viewer may see, one page at a time (first or last is required, at most 100), filtered by where and ordered by orderBy (lastActivityAt descending is the console's inbox order)."),
		gql.MultiOrder(),
	}
}

// Message is one message or private note of a conversation.
type Message struct{ ent.Schema }

func (Message) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, AccountMixin{ReachedThroughParent: true}}
}

func (Message) Fields() []ent.Field {
	return []ent.Field{
		field.Int("conversation_id").Immutable().
			Comment("The global id of the Conversation; never changes."),
		field.Int("inbox_id").Immutable().
			Comment("The database id of the conversation's Inbox (the REST inbox_id)."),
		field.Text("content").Optional().Nillable().Validate(maxRunes(MaxTextRunes)).
			Comment("The text of the message (at most 150,000 characters); null for a message with only attachments or structured content."),
		field.Enum("message_type").Values("incoming", "outgoing", "activity", "template").Default("outgoing").
			Comment("Who the message is from and how it is shown.").
			Annotations(EnumValues{
				"incoming": "From the contact.",
				"outgoing": "From an agent, a bot or an automation, sent to the contact.",
				"activity": "A line recording a change (status, assignment, labels); never sent to the contact.",
				"template": "An outgoing message sent from a channel template (WhatsApp template, widget form).",
			}),
		field.Enum("content_type").
			Values("text", "input_text", "input_textarea", "input_email", "input_select", "cards", "form", "article", "incoming_email", "input_csat", "sticker").
			Default("text").
			Comment("How content and contentAttributes are to be rendered (Chatwoot's content types).").
			Annotations(EnumValues{
				"text":           "Plain text.",
				"input_text":     "A one-line text question for the contact.",
				"input_textarea": "A multi-line text question for the contact.",
				"input_email":    "A question asking for an email address.",
				"input_select":   "A choice among options (contentAttributes.items).",
				"cards":          "Cards with images and buttons (contentAttributes.items).",
				"form":           "A form (contentAttributes.items) and, once answered, the answers.",
				"article":        "Help-center articles (contentAttributes.items).",
				"incoming_email": "An email received: content is its text, contentAttributes.email its parts.",
				"input_csat":     "The satisfaction survey; the contact's rating lands in contentAttributes.",
				"sticker":        "A messaging app sticker (an attachment).",
			}),
		field.Bool("private").Default(false).
			Comment("Whether this is a private note: seen by the team only, never sent to the contact."),
		field.Enum("status").Values("sent", "delivered", "read", "failed").Default("sent").
			Comment("Where an outgoing message is in its delivery (receipts from the channel move it forward).").
			Annotations(EnumValues{
				"sent":      "Accepted by the service (and for outgoing messages, handed to the channel when it has one).",
				"delivered": "The channel reported delivery to the contact.",
				"read":      "The channel reported the contact read it.",
				"failed":    "The channel refused it; deliveryError says why.",
			}),
		field.JSON("content_attributes", map[string]any{}).Default(map[string]any{}).
			Comment("Structured content for contentType (form fields, cards, a CSAT rating, the email's subject and quoted text, a reply's in_reply_to...), a JSON object of at most 64 KiB."),
		field.JSON("additional_attributes", map[string]any{}).Default(map[string]any{}).
			Comment("Channel details of the message (e.g. email headers, campaign id), a JSON object of at most 64 KiB."),
		field.JSON("template_params", map[string]any{}).Optional().
			Comment("For a WhatsApp template message: the template's name, language and parameters as sent; null otherwise."),
		field.String("source_id").Optional().Nillable().Validate(maxRunes(MaxNameRunes)).
			Comment("The channel's id of the message (e.g. WhatsApp's wamid, an email's Message-ID), unique in the inbox; null until the channel gives one."),
		field.String("echo_id").Optional().Nillable().Validate(maxRunes(MaxNameRunes)).
			Comment("The client's own id sent with the message, returned as is, so an optimistic UI can match the stored message; null when not given."),
		field.Enum("sender_type").Values("user", "contact", "agent_bot").Optional().Nillable().
			Comment("What kind of sender senderID names; null for activity lines and system messages.").
			Annotations(EnumValues{
				"user":      "An agent (senderID is a User).",
				"contact":   "The contact (senderID is a Contact).",
				"agent_bot": "An agent bot (senderID is an AgentBot).",
			}),
		field.Int("sender_id").Optional().Nillable().
			Comment("The database id of the sender (a User, Contact or AgentBot, per senderType); null when the message has no sender."),
		// Durable delivery state: the delivery job claims the row while due.
		// Shown (read-only) so a message retrying says so: its attempts,
		// the last attempt's error and when the next one is due.
		field.Int("delivery_attempts").Default(0).
			Annotations(gql.Skip(gql.SkipMutationCreateInput, gql.SkipMutationUpdateInput, gql.SkipWhereInput, gql.SkipOrderField)).
			Comment("How many times sending the message to the channel has been tried; 0 for incoming messages and before the first try."),
		field.Time("next_delivery_at").Optional().Nillable().
			Annotations(gql.Skip(gql.SkipMutationCreateInput, gql.SkipMutationUpdateInput, gql.SkipWhereInput, gql.SkipOrderField)).
			Comment("When the next delivery attempt is due (RFC 3339, UTC); null when delivery is done or not needed."),
		field.Text("delivery_error").Optional().Default("").
			Annotations(gql.Skip(gql.SkipMutationCreateInput, gql.SkipMutationUpdateInput, gql.SkipWhereInput, gql.SkipOrderField)).
			Comment("The last failed delivery attempt's error; empty when none."),
		// A manual retry restarts delivery_attempts (the retry budget); the
		// attempts made before it are kept here, so that the attempt log
		// numbers on instead of starting again at 1.
		field.Int("delivery_attempt_offset").Default(0).NonNegative().Annotations(gql.Skip(gql.SkipAll)),
	}
}

func (Message) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("conversation", Conversation.Type).Ref("messages").Field("conversation_id").Unique().Required().Immutable().
			Comment("The conversation the message belongs to."),
		edge.To("attachments", Attachment.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("attempt_log", MessageDeliveryAttempt.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Message) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("conversation_id", "id"),
		// Only messages with a delivery ahead are due: most messages (a
		// customer's, a note, a delivered one) are not, and skip the index.
		index.Fields("next_delivery_at").Annotations(entsql.IndexWhere("next_delivery_at IS NOT NULL")),
		// The delivery claim's order rule asks for the conversation's first
		// pending message; only pending ones are indexed.
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
	return []schema.Annotation{
		schema.Comment("One message of a conversation: from the contact (incoming), from the team or a bot (outgoing, template), an activity line (status changes, assignments) or a private note (private: true, never shown to the contact). Visible where its conversation is; a visitor sees neither private notes nor activity lines."),
		gql.RelayConnection(),
		gql.MultiOrder(),
	}
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

// Indexes: a message's files are read with every page of messages and
// every delivery, a schedule's with its firing, and a file's other
// references before it is removed; and deleting a message or a schedule
// cascades here. Without them each read the whole table.
func (Attachment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("message_id"),
		index.Fields("scheduled_message_id"),
		index.Fields("storage_key"),
	}
}

func (Attachment) Annotations() []schema.Annotation { return skipGraphQL() }

// Label is an account's tag for conversations and contacts.
type Label struct{ ent.Schema }

func (Label) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{LedByAccount: true}} }

func (Label) Fields() []ent.Field {
	return []ent.Field{
		// Stored lower-cased, so the unique index ignores case.
		field.String("title").NotEmpty().MaxLen(255).Match(labelTitlePattern).Annotations(gql.OrderField("TITLE")).
			Comment("The label's title: letters, digits, '-' and '_' (no spaces), at most 255, stored lower-cased and unique in the account. Conversations and contacts refer to labels by it."),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)).
			Comment("What the label is for; empty when not given. At most 150,000 characters."),
		field.String("color").Default("#1f93ff").Match(hexColorPattern).
			Comment("The label's colour as #rrggbb (e.g. #1f93ff, the default)."),
		field.Bool("show_on_sidebar").Default(false).
			Comment("Chatwoot's show_on_sidebar: whether clients list the label in their sidebar as a conversation filter."),
	}
}

func (Label) Indexes() []ent.Index {
	return []ent.Index{index.Fields("account_id", "title").Unique()}
}

func (Label) Policy() ent.Policy { return adminWritesPolicy() }

func (Label) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A tag of the account for conversations and contacts; conversations and contacts carry label titles. Every member reads labels; only administrators manage them. The REST API's label."),
		gql.RelayConnection(),
		gql.QueryField("labels").
			Description("The account's labels, one page at a time (first or last is required, at most 100)."),
		gql.MultiOrder(),
	}
}
