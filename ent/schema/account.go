package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/switchboard/switchboard/ent/schema/gql"
)

// Account is a tenant: every account-scoped row belongs to one.
type Account struct{ ent.Schema }

func (Account) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (Account) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255),
		field.String("locale").Default("en").Validate(maxRunes(MaxNameRunes)),
		field.Enum("status").Values("active", "suspended").Default("active"),
		// Per-account counter behind conversations' display ids.
		field.Int("last_conversation_display_id").Default(0),
	}
}

func (Account) Policy() ent.Policy { return accountPolicy() }

func (Account) Annotations() []schema.Annotation { return skipGraphQL() }

// User is a platform user; it joins accounts through AccountUser.
type User struct{ ent.Schema }

func (User) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255).
			Comment("The user's full name (1-255 characters)."),
		field.String("display_name").Optional().Validate(maxRunes(MaxNameRunes)).
			Comment("The name shown to contacts instead of name, when set; empty means name is shown. At most 255 characters."),
		// Stored lower-cased; unique over the installation.
		field.String("email").NotEmpty().Unique().
			Comment("The sign-in email address, lower-cased; unique over the installation."),
		// Only the platform API and bootstrap may set it (see userPolicy).
		field.String("password_hash").Optional().Sensitive().
			Annotations(gql.Skip(gql.SkipAll)),
		field.Bool("confirmed").Default(false).
			Comment("Whether the user has confirmed the email address (Chatwoot's confirmed)."),
		field.String("avatar_url").Optional().Validate(maxRunes(MaxURLRunes)).
			Comment("The URL of the user's picture, empty when none. At most 2048 characters."),
	}
}

func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("memberships", AccountUser.Type).Annotations(gql.Skip(gql.SkipAll)),
		edge.To("access_tokens", AccessToken.Type),
		// The inverse of a card's assigned agents: it makes that edge
		// many-to-many (one join table), so an agent can hold many cards.
		edge.From("kanban_items", KanbanItem.Type).Ref("assigned_agents").
			Annotations(gql.Skip(gql.SkipAll)),
	}
}

func (User) Policy() ent.Policy { return userPolicy() }

func (User) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A person who signs in: the user behind an Agent and the author of notes and schedules. Members of an account see the users of their account; a visitor sees only the agents who sent the messages it reads. One user may be an agent of several accounts (see Agent)."),
	}
}

// AccountUser is a user's membership of an account: the agent record.
type AccountUser struct{ ent.Schema }

func (AccountUser) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, AccountMixin{LedByAccount: true}}
}

func (AccountUser) Fields() []ent.Field {
	return []ent.Field{
		field.Int("user_id").Immutable().
			Comment("The global id of the User: the person, who may be an agent of other accounts too."),
		field.Enum("role").Values("agent", "administrator").Default("agent").
			Comment("What the agent may do in the account.").
			Annotations(EnumValues{
				"agent":         "Works the conversations of the inboxes it is a member of; reads the account's settings.",
				"administrator": "Manages the account (inboxes, teams, labels, agents, kanban settings) and sees every inbox.",
			}),
		field.Enum("availability").Values("online", "busy", "offline").Default("offline").
			Comment("The agent's presence as set by the agent or an administrator (REST availability).").
			Annotations(EnumValues{
				"online":  "Present and available.",
				"busy":    "Present but busy.",
				"offline": "Away (the default for a new agent).",
			}),
		field.Bool("auto_offline").Default(true).
			Comment("Chatwoot's auto_offline setting: whether the agent's availability is meant to switch to offline by itself when the agent leaves. Stored and returned as set."),
	}
}

func (AccountUser) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("memberships").Field("user_id").Unique().Required().Immutable().
			Comment("The person behind the membership: name, email, avatar."),
	}
}

func (AccountUser) Indexes() []ent.Index {
	return []ent.Index{index.Fields("account_id", "user_id").Unique()}
}

func (AccountUser) Policy() ent.Policy { return adminWritesPolicy() }

func (AccountUser) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("An agent: a user's membership of this account, with the role and availability it has here (the REST API's agent). Every member reads the agents of the account; only administrators add, change or remove them."),
		gql.Type("Agent"),
		gql.RelayConnection(),
		gql.QueryField("agents").
			Description("The account's agents, one page at a time (first or last is required, at most 100)."),
		gql.MultiOrder(),
	}
}

// AccessToken authenticates API calls of a user or an agent bot. Only a hash
// of the token is stored; the token itself is shown once, when made.
type AccessToken struct{ ent.Schema }

func (AccessToken) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (AccessToken) Fields() []ent.Field {
	return []ent.Field{
		field.String("token_hash").NotEmpty().Unique().Immutable().Sensitive(),
		field.Int("user_id").Optional().Nillable().Immutable(),
		field.Int("agent_bot_id").Optional().Nillable().Immutable(),
		field.Time("last_used_at").Optional().Nillable(),
	}
}

func (AccessToken) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("access_tokens").Field("user_id").Unique().Immutable(),
		edge.From("agent_bot", AgentBot.Type).Ref("access_tokens").Field("agent_bot_id").Unique().Immutable(),
	}
}

func (AccessToken) Policy() ent.Policy { return systemOnlyPolicy() }

func (AccessToken) Annotations() []schema.Annotation { return skipGraphQL() }

// PlatformToken authenticates the provisioning (platform) API.
type PlatformToken struct{ ent.Schema }

func (PlatformToken) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}} }

func (PlatformToken) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Default("platform"),
		field.String("token_hash").NotEmpty().Unique().Immutable().Sensitive(),
	}
}

func (PlatformToken) Policy() ent.Policy { return systemOnlyPolicy() }

func (PlatformToken) Annotations() []schema.Annotation { return skipGraphQL() }
