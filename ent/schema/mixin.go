package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"
	"github.com/switchboard/switchboard/ent/schema/gql"
)

// TimeMixin stamps creation and update times (UTC).
type TimeMixin struct{ mixin.Schema }

func (TimeMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created_at").Immutable().Default(utcNow).
			Annotations(gql.OrderField("CREATED_AT")).
			Comment("When the row was created (RFC 3339, UTC); set by the server, never changes."),
		field.Time("updated_at").Default(utcNow).UpdateDefault(utcNow).
			Annotations(gql.OrderField("UPDATED_AT")).
			Comment("When the row last changed (RFC 3339, UTC); set by the server on every update."),
	}
}

func utcNow() time.Time { return time.Now().UTC() }

// AccountMixin scopes an entity to one account. Its policy is the tenancy
// rule: queries only ever see the viewer's account, and mutations can only
// write into it. Every account-scoped entity embeds it.
type AccountMixin struct {
	mixin.Schema
	// LedByAccount is set by an entity with an index of its own that begins
	// with account_id. That index serves every lookup by account, so one of
	// account_id alone would only add to the cost of each write: a fired
	// schedule or a conversation's new activity changes indexed columns, so
	// every index of the row gets an entry.
	LedByAccount bool
	// ReachedThroughParent is set by an entity whose rows are always read
	// through a parent row of their account (a message through its
	// conversation), never by account alone: an index of account_id would
	// only cost each write, and PostgreSQL took it, on a table its
	// statistics did not know yet, to find messages by id (reading an
	// account's thousands of rows for a few dozen).
	ReachedThroughParent bool
}

func (AccountMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Int("account_id").Immutable().
			Annotations(gql.Skip(gql.SkipMutationCreateInput, gql.SkipMutationUpdateInput)).
			Comment("The global id of the account (tenant) the row belongs to: always the viewer's own, as rows of other accounts are never visible. Accounts are not GraphQL types, so node() cannot fetch it."),
	}
}

func (AccountMixin) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("account", Account.Type).Field("account_id").Unique().Required().Immutable().
			Annotations(gql.Skip(gql.SkipAll)),
	}
}

func (m AccountMixin) Indexes() []ent.Index {
	if m.LedByAccount || m.ReachedThroughParent {
		return nil
	}
	return []ent.Index{index.Fields("account_id")}
}

func (AccountMixin) Policy() ent.Policy { return tenantPolicy() }

// Hooks caps the JSON fields of every account-scoped entity (see
// dataLimitsHook): all of them hold what users send.
func (AccountMixin) Hooks() []ent.Hook { return []ent.Hook{dataLimitsHook()} }

// skipGraphQL keeps an entity out of the GraphQL schema until the issue that
// exposes it gives it resolvers.
func skipGraphQL() []schema.Annotation {
	return []schema.Annotation{gql.Skip(gql.SkipAll)}
}
