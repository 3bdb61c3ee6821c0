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

// Team is a group of agents.
type Team struct{ ent.Schema }

func (Team) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{LedByAccount: true}} }

func (Team) Fields() []ent.Field {
	return []ent.Field{
		// Stored lower-cased, unique per account (as Chatwoot).
		field.String("name").NotEmpty().MaxLen(255).Annotations(gql.OrderField("NAME")).
			Comment("The team's name, stored lower-cased and unique in the account (1-255 characters)."),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)).
			Comment("What the team does; empty when not given."),
		field.Bool("allow_auto_assign").Default(true).
			Comment("In Chatwoot, whether conversations assigned to the team are assigned to one of its members automatically. Stored and returned for the console; Switchboard does not act on it."),
	}
}

func (Team) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("members", TeamMember.Type).Annotations(entsql.OnDelete(entsql.Cascade)).
			Comment("The team's memberships (one per agent)."),
		edge.To("conversations", Conversation.Type).Annotations(gql.Skip(gql.SkipAll)),
	}
}

func (Team) Indexes() []ent.Index {
	return []ent.Index{index.Fields("account_id", "name").Unique()}
}

func (Team) Policy() ent.Policy { return adminWritesPolicy() }

func (Team) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A group of agents conversations can be assigned to. Every member reads teams; administrators manage them. The REST API's team."),
		gql.RelayConnection(),
		gql.QueryField("teams").
			Description("The account's teams, one page at a time (first or last is required, at most 100)."),
		gql.MultiOrder(),
	}
}

// TeamMember puts a user in a team.
type TeamMember struct{ ent.Schema }

func (TeamMember) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (TeamMember) Fields() []ent.Field {
	return []ent.Field{
		field.Int("team_id").Immutable().
			Comment("The global id of the Team."),
		field.Int("user_id").Immutable().
			Comment("The global id of the member User."),
	}
}

func (TeamMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("team", Team.Type).Ref("members").Field("team_id").Unique().Required().Immutable().
			Comment("The team."),
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable().
			Comment("The member."),
	}
}

func (TeamMember) Indexes() []ent.Index {
	return []ent.Index{index.Fields("team_id", "user_id").Unique()}
}

func (TeamMember) Policy() ent.Policy { return adminWritesPolicy() }

func (TeamMember) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("An agent's membership of a team."),
	}
}
