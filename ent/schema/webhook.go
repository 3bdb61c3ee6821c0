package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// WebhookSubscription sends the account's events it subscribes to to a URL,
// signed with its secret (Standard Webhooks).
type WebhookSubscription struct{ ent.Schema }

func (WebhookSubscription) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (WebhookSubscription) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Optional().Default("").Validate(maxRunes(MaxNameRunes)),
		field.String("url").NotEmpty().MaxLen(2048),
		field.JSON("subscriptions", []string{}).Default([]string{}),
		field.String("secret").Sensitive().Immutable(),
		field.Int("inbox_id").Optional().Nillable(),
	}
}

func (WebhookSubscription) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("deliveries", WebhookDelivery.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Subscriptions and their deliveries hold URLs and secrets: administrators
// only; events are written to the outbox by the account's system.
func (WebhookSubscription) Policy() ent.Policy { return adminOnlyPolicy() }

func (WebhookSubscription) Annotations() []schema.Annotation { return skipGraphQL() }

// WebhookDelivery is one event bound for one receiver: written to this outbox
// in the transaction of the change, then sent (and retried) by a job. Its
// delivery_id is the stable webhook-id receivers dedupe on.
type WebhookDelivery struct{ ent.Schema }

func (WebhookDelivery) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (WebhookDelivery) Fields() []ent.Field {
	return []ent.Field{
		field.String("delivery_id").Unique().Immutable(),
		field.Int("subscription_id").Optional().Nillable(),
		// Set when the receiver is the kanban config's URL instead of a subscription.
		field.Bool("kanban_target").Default(false),
		field.String("url").Immutable(),
		field.String("event").Immutable(),
		field.Text("payload").Immutable(),
		field.Enum("status").Values("pending", "delivered", "failed").Default("pending"),
		field.Int("attempts").Default(0),
		// A manual retry restarts attempts (the retry budget); the attempts
		// made before it are kept here, so the attempt log numbers on.
		field.Int("attempt_offset").Default(0).NonNegative(),
		field.Time("next_attempt_at").Optional().Nillable(),
		field.Int("response_status").Optional().Nillable(),
		field.Text("last_error").Optional().Default(""),
		field.Time("delivered_at").Optional().Nillable(),
	}
}

func (WebhookDelivery) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("subscription", WebhookSubscription.Type).Ref("deliveries").Field("subscription_id").Unique(),
		edge.To("attempt_log", WebhookDeliveryAttempt.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (WebhookDelivery) Indexes() []ent.Index {
	return []ent.Index{
		// Only deliveries with an attempt ahead are due (pending ones: a
		// delivered or failed one clears its next_attempt_at), so the
		// claims' index holds those only, as the messages' does: the done
		// ones, kept for the log's retention, are not in it, and the write
		// that settles a delivery adds no entry to it.
		index.Fields("next_attempt_at").Annotations(entsql.IndexWhere("next_attempt_at IS NOT NULL")),
		// A subscription's log, newest first, and its deletion's cascade:
		// without it both read every delivery of the installation.
		index.Fields("subscription_id", "id"),
	}
}

func (WebhookDelivery) Policy() ent.Policy { return adminOnlyPolicy() }

func (WebhookDelivery) Annotations() []schema.Annotation { return skipGraphQL() }
