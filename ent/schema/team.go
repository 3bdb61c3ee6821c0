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

// Team is a group of agents.
type Team struct{ ent.Schema }

func (Team) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Team) Fields() []ent.Field {
	return []ent.Field{
		// Stored lower-cased, unique per account (as Chatwoot).
		field.String("name").NotEmpty().MaxLen(255).Annotations(entgql.OrderField("NAME")),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)),
		field.Bool("allow_auto_assign").Default(true),
	}
}

func (Team) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("members", TeamMember.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("conversations", Conversation.Type).Annotations(entgql.Skip(entgql.SkipAll)),
	}
}

func (Team) Indexes() []ent.Index {
	return []ent.Index{index.Fields("account_id", "name").Unique()}
}

func (Team) Policy() ent.Policy { return adminWritesPolicy() }

func (Team) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("teams"), entgql.MultiOrder()}
}

// TeamMember puts a user in a team.
type TeamMember struct{ ent.Schema }

func (TeamMember) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (TeamMember) Fields() []ent.Field {
	return []ent.Field{
		field.Int("team_id").Immutable(),
		field.Int("user_id").Immutable(),
	}
}

func (TeamMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("team", Team.Type).Ref("members").Field("team_id").Unique().Required().Immutable(),
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable(),
	}
}

func (TeamMember) Indexes() []ent.Index {
	return []ent.Index{index.Fields("team_id", "user_id").Unique()}
}

func (TeamMember) Policy() ent.Policy { return adminWritesPolicy() }

func (TeamMember) Annotations() []schema.Annotation { return nil }
