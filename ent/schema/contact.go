package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Contact is the person on the other side of conversations.
type Contact struct{ ent.Schema }

func (Contact) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Contact) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Default("").MaxLen(255).
			Annotations(entgql.OrderField("NAME")),
		// Lower-cased on write; unique in the account.
		field.String("email").Optional().Nillable().MaxLen(255).
			Annotations(entgql.OrderField("EMAIL")),
		field.String("phone_number").Optional().Nillable().MaxLen(32).
			Annotations(entgql.OrderField("PHONE_NUMBER")),
		field.String("identifier").Optional().Nillable().MaxLen(255),
		field.Bool("blocked").Default(false),
		field.String("avatar_url").Optional().Default("").Validate(maxRunes(MaxURLRunes)),
		field.JSON("additional_attributes", map[string]any{}).Default(map[string]any{}),
		field.JSON("custom_attributes", map[string]any{}).Default(map[string]any{}),
		field.JSON("labels", []string{}).Default([]string{}),
		field.Time("last_activity_at").Optional().Nillable().
			Annotations(entgql.OrderField("LAST_ACTIVITY_AT")),
		// Derived by searchTextHook: what contact search matches against.
		field.Text("search_text").Optional().Default("").
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

func (Contact) Hooks() []ent.Hook { return []ent.Hook{searchTextHook()} }

// Deleting a contact is for administrators, as in Chatwoot.
func (Contact) Policy() ent.Policy { return adminDeletesPolicy() }

func (Contact) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("contact_inboxes", ContactInbox.Type).
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("conversations", Conversation.Type).
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
		edge.To("scheduled_messages", ScheduledMessage.Type).
			Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
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
		entgql.RelayConnection(),
		entgql.QueryField(),
		entgql.MultiOrder(),
	}
}

// ContactInbox makes a contact reachable through an inbox under a source id.
type ContactInbox struct{ ent.Schema }

func (ContactInbox) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (ContactInbox) Fields() []ent.Field {
	return []ent.Field{
		field.Int("contact_id"),
		field.Int("inbox_id").Immutable(),
		field.String("source_id").NotEmpty().MaxLen(255).Immutable(),
		field.Bool("hmac_verified").Default(false),
		// The hash of the visitor's pubsub token (the public client API's
		// websocket credential, shown once when the visitor is created): a
		// leaked database does not let anyone listen in.
		field.String("pubsub_token_hash").Optional().Nillable().Sensitive().
			Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

func (ContactInbox) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("contact", Contact.Type).Ref("contact_inboxes").Field("contact_id").Unique().Required(),
		edge.From("inbox", Inbox.Type).Ref("contact_inboxes").Field("inbox_id").Unique().Required().Immutable(),
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
	return []ent.Mixin{TimeMixin{}, AccountMixin{}}
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
