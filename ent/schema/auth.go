package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// ConsoleSession is one sign-in to the console: its own token (only the
// hash is stored), not the user's API token, so signing out or expiring
// ends the console's access without touching API integrations.
type ConsoleSession struct{ ent.Schema }

func (ConsoleSession) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (ConsoleSession) Fields() []ent.Field {
	return []ent.Field{
		field.String("token_hash").NotEmpty().Unique().Immutable().Sensitive(),
		field.Int("user_id").Immutable(),
		// The account signed in to: where the console opens.
		field.Int("account_id").Immutable(),
		// The session ends at expires_at whatever its use (absolute limit),
		// or earlier when unused for the idle limit after last_seen_at.
		field.Time("expires_at").Immutable(),
		field.Time("last_seen_at"),
	}
}

func (ConsoleSession) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("account", Account.Type).Field("account_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (ConsoleSession) Indexes() []ent.Index {
	return []ent.Index{index.Fields("expires_at"), index.Fields("last_seen_at")}
}

func (ConsoleSession) Policy() ent.Policy { return systemOnlyPolicy() }

func (ConsoleSession) Annotations() []schema.Annotation { return skipGraphQL() }

// IdempotencyKey remembers a create request sent with an Idempotency-Key
// header and the response it got, so a retry replays that response instead
// of creating again. The unique index makes concurrent requests with one
// key execute once, across instances. Platform requests have user and
// account 0 (no foreign keys for that reason).
type IdempotencyKey struct{ ent.Schema }

func (IdempotencyKey) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (IdempotencyKey) Fields() []ent.Field {
	return []ent.Field{
		field.Int("account_id").Immutable(),
		field.Int("user_id").Immutable(),
		field.String("key").NotEmpty().MaxLen(255).Immutable(),
		// Method and path the key was first used with, and a hash of the
		// body: the same key on another request is refused.
		field.String("request").Immutable(),
		field.String("body_hash").Immutable(),
		// 0 while the first request runs.
		field.Int("status").Default(0),
		field.String("content_type").Optional(),
		field.Bytes("response_body").Optional(),
	}
}

func (IdempotencyKey) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("account_id", "user_id", "key").Unique(),
		index.Fields("created_at"),
	}
}

func (IdempotencyKey) Policy() ent.Policy { return systemOnlyPolicy() }

func (IdempotencyKey) Annotations() []schema.Annotation { return skipGraphQL() }
