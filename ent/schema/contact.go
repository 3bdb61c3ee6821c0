package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/switchboard/switchboard/ent/schema/gql"
)

// Contact is the person on the other side of conversations.
type Contact struct{ ent.Schema }

func (Contact) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Contact) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Default("").MaxLen(255).
			Annotations(gql.OrderField("NAME")).
			Comment("The contact's name; empty when not known. At most 255 characters."),
		// Lower-cased on write; unique in the account.
		field.String("email").Optional().Nillable().MaxLen(255).
			Annotations(gql.OrderField("EMAIL")).
			Comment("The email address, lower-cased; unique in the account. Null when not known."),
		field.String("phone_number").Optional().Nillable().MaxLen(32).
			Annotations(gql.OrderField("PHONE_NUMBER")).
			Comment("The phone number in E.164 form (+ and up to 15 digits, e.g. +14155550123); unique in the account. Null when not known."),
		field.String("identifier").Optional().Nillable().MaxLen(255).
			Comment("The integrator's own id for the contact (Chatwoot's identifier), unique in the account; null when not set."),
		field.Bool("blocked").Default(false).
			Comment("Chatwoot's blocked flag: whether the team marked the contact as blocked. Stored, returned and filterable (filterContacts: blocked)."),
		field.String("avatar_url").Optional().Default("").Validate(maxRunes(MaxURLRunes)).
			Comment("The URL of the contact's picture, empty when none. At most 2048 characters."),
		field.JSON("additional_attributes", map[string]any{}).Default(map[string]any{}).
			Comment("Free-form details the channels and integrations record (company, city, social profiles...), a JSON object of at most 64 KiB."),
		field.JSON("custom_attributes", map[string]any{}).Default(map[string]any{}).
			Comment("The values of the account's contact custom attributes, by attribute key (JSON object, at most 64 KiB); keys not declared as contact attributes are dropped on write."),
		field.JSON("labels", []string{}).Default([]string{}).
			Comment("The titles of the labels on the contact (at most 100, lower-case)."),
		field.Time("last_activity_at").Optional().Nillable().
			Annotations(gql.OrderField("LAST_ACTIVITY_AT")).
			Comment("When the contact last sent or received a message (RFC 3339, UTC); null before the first one."),
		// Derived by searchTextHook: what contact search matches against.
		field.Text("search_text").Optional().Default("").
			Annotations(gql.Skip(gql.SkipAll)),
	}
}

func (Contact) Hooks() []ent.Hook { return []ent.Hook{searchTextHook()} }

// Deleting a contact is for administrators, as in Chatwoot.
func (Contact) Policy() ent.Policy { return adminDeletesPolicy() }

func (Contact) Edges() []ent.Edge {
	return []ent.Edge{
		// Not a where filter: a subquery past the inbox rule, it told an
		// agent which contacts are linked to an inbox it does not work in,
		// and their source ids there letter by letter (graph's
		// TestNoFilterReachesPastInboxVisibility).
		edge.To("contact_inboxes", ContactInbox.Type).
			Annotations(entsql.OnDelete(entsql.Cascade), gql.Skip(gql.SkipWhereInput)).
			Comment("The inboxes the contact is reachable through, each with the contact's source id there."),
		edge.To("conversations", Conversation.Type).
			Annotations(entsql.OnDelete(entsql.Cascade), gql.Skip(gql.SkipAll)),
		edge.To("scheduled_messages", ScheduledMessage.Type).
			Annotations(entsql.OnDelete(entsql.Cascade), gql.Skip(gql.SkipAll)),
	}
}

// trigram marks an index as a pg_trgm GIN index on PostgreSQL (plain B-tree
// elsewhere), so LIKE '%q%' search stays indexed at scale.
func trigram(col string) ent.Index {
	return index.Fields(col).Annotations(
		entsql.IndexTypes(map[string]string{dialect.Postgres: "GIN"}),
		entsql.OpClass("gin_trgm_ops"),
	).StorageKey("contact_" + col + "_trgm")
}

func (Contact) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("account_id", "email").Unique(),
		index.Fields("account_id", "phone_number").Unique(),
		index.Fields("account_id", "identifier").Unique(),
		index.Fields("account_id", "last_activity_at"),
		// One index over the one column search reads: the planner will not
		// combine four trigram indexes for an OR of four ILIKEs.
		trigram("search_text"),
	}
}

func (Contact) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A person on the other side of conversations, reached through one or more inboxes (see contactInboxes). Contacts belong to the account: every member reads them; only administrators delete them. The REST API's contact; databaseId is its REST id."),
		gql.RelayConnection(),
		gql.QueryField().
			Description("The account's contacts, one page at a time (first or last is required, at most 100), filtered by where and ordered by orderBy. For Chatwoot's search and filter semantics use searchContacts and filterContacts."),
		gql.MultiOrder(),
	}
}

// ContactInbox makes a contact reachable through an inbox under a source id.
type ContactInbox struct{ ent.Schema }

func (ContactInbox) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (ContactInbox) Policy() ent.Policy { return contactInboxPolicy() }

func (ContactInbox) Fields() []ent.Field {
	return []ent.Field{
		field.Int("contact_id").
			Comment("The global id of the Contact."),
		field.Int("inbox_id").Immutable().
			Comment("The global id of the Inbox."),
		field.String("source_id").NotEmpty().MaxLen(255).Immutable().
			Comment("The contact's id in the inbox's channel (REST source_id): unique in the inbox, at most 255 characters, never changes."),
		field.Bool("hmac_verified").Default(false).
			Comment("Whether the web widget visitor proved its identity with the inbox's HMAC (identity validation); a verified contact sees its conversations from every device."),
		// The hash of the visitor's pubsub token (the public client API's
		// websocket credential, shown once when the visitor is created): a
		// leaked database does not let anyone listen in.
		field.String("pubsub_token_hash").Optional().Nillable().Sensitive().
			Annotations(gql.Skip(gql.SkipAll)),
	}
}

func (ContactInbox) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("contact", Contact.Type).Ref("contact_inboxes").Field("contact_id").Unique().Required().
			Comment("The contact reached."),
		// In GraphQL by a resolver (graph/loaders.go contactInboxInbox; the
		// field is put back into the schema by ent/entc.go servedEdges), not
		// by field collection: inboxes come from the inboxes' memory, not a
		// statement each read (contacts.attachInboxes).
		edge.From("inbox", Inbox.Type).Ref("contact_inboxes").Field("inbox_id").Unique().Required().Immutable().
			Comment("The inbox it is reached through.").Annotations(gql.Skip(gql.SkipType)),
	}
}

func (ContactInbox) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A contact's presence in one inbox: the source id the inbox's channel knows the contact by (a phone number for WhatsApp, an email address for email, a generated id for the API and web widget). A contact reached through several inboxes has one per inbox."),
	}
}

func (ContactInbox) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("inbox_id", "source_id").Unique(),
		// A contact's inboxes are read with every contact shown or listed
		// (contact_id IN page AND account_id = viewer's), and deleted with
		// the contact. account_id makes it the obvious choice for SQLite's
		// planner, which without statistics prefers the account_id index.
		index.Fields("contact_id", "account_id"),
		index.Fields("pubsub_token_hash").Unique(),
	}
}

// CustomAttributeDefinition declares a custom attribute key of contacts or
// conversations; values under undeclared keys are dropped on write.
type CustomAttributeDefinition struct{ ent.Schema }

func (CustomAttributeDefinition) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, AccountMixin{LedByAccount: true}}
}

func (CustomAttributeDefinition) Fields() []ent.Field {
	return []ent.Field{
		field.String("attribute_display_name").NotEmpty().MaxLen(255),
		field.String("attribute_key").NotEmpty().MaxLen(255).Immutable().Match(attributeKeyPattern),
		field.Enum("attribute_display_type").
			Values("text", "number", "currency", "percent", "link", "date", "list", "checkbox").
			Default("text"),
		field.Enum("attribute_model").Values("contact_attribute", "conversation_attribute"),
		field.String("attribute_description").Optional().Default("").Validate(maxRunes(MaxTextRunes)),
		field.JSON("attribute_values", []string{}).Default([]string{}),
		field.String("regex_pattern").Optional().Default("").Validate(maxRunes(MaxNameRunes)),
		field.String("regex_cue").Optional().Default("").Validate(maxRunes(MaxNameRunes)),
	}
}

func (CustomAttributeDefinition) Indexes() []ent.Index {
	return []ent.Index{index.Fields("account_id", "attribute_model", "attribute_key").Unique()}
}

func (CustomAttributeDefinition) Policy() ent.Policy { return adminWritesPolicy() }

func (CustomAttributeDefinition) Annotations() []schema.Annotation { return skipGraphQL() }
