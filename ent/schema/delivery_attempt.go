package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"
	"github.com/switchboard/switchboard/ent/privacy"

	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/predicate"
)

// AttemptMixin is one attempt at a delivery, as the job runner made it:
// when, how long, what came of it. Rows are kept for a bounded time
// (DELIVERY_ATTEMPT_RETENTION) and written by the runner only.
type AttemptMixin struct{ mixin.Schema }

func (AttemptMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Int("attempt").Immutable(),
		field.Time("started_at").Immutable(),
		field.Int("duration_ms").Immutable(),
		// delivered, retrying (another attempt is due) or failed (no more).
		field.Enum("outcome").Values("delivered", "retrying", "failed").Immutable(),
		field.Int("response_status").Optional().Nillable().Immutable(),
		field.Text("error").Optional().Default("").Immutable().Validate(maxRunes(MaxTextRunes)),
	}
}

func (AttemptMixin) Indexes() []ent.Index {
	return []ent.Index{index.Fields("created_at")} // the retention sweep
}

// WebhookDeliveryAttempt is one attempt at a webhook delivery.
type WebhookDeliveryAttempt struct{ ent.Schema }

func (WebhookDeliveryAttempt) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, AccountMixin{}, AttemptMixin{}}
}

func (WebhookDeliveryAttempt) Fields() []ent.Field {
	return []ent.Field{field.Int("delivery_id").Immutable()}
}

func (WebhookDeliveryAttempt) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("delivery", WebhookDelivery.Type).Ref("attempt_log").Field("delivery_id").Unique().Required().Immutable(),
	}
}

func (WebhookDeliveryAttempt) Indexes() []ent.Index {
	return []ent.Index{index.Fields("delivery_id", "id")}
}

// Like the deliveries they log: administrators only.
func (WebhookDeliveryAttempt) Policy() ent.Policy { return adminOnlyPolicy() }

func (WebhookDeliveryAttempt) Annotations() []schema.Annotation { return skipGraphQL() }

// MessageDeliveryAttempt is one attempt at sending a message through its
// inbox's channel.
type MessageDeliveryAttempt struct{ ent.Schema }

func (MessageDeliveryAttempt) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, AccountMixin{}, AttemptMixin{}}
}

func (MessageDeliveryAttempt) Fields() []ent.Field {
	return []ent.Field{field.Int("message_id").Immutable()}
}

func (MessageDeliveryAttempt) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("message", Message.Type).Ref("attempt_log").Field("message_id").Unique().Required().Immutable(),
	}
}

func (MessageDeliveryAttempt) Indexes() []ent.Index {
	return []ent.Index{index.Fields("message_id", "id")}
}

// Agents see the attempts of the messages they see (their inboxes'); only
// the job runner writes them.
func (MessageDeliveryAttempt) Policy() ent.Policy {
	p := inboxPolicy(func(f privacy.Filter, memberInbox predicate.Inbox) bool {
		af, ok := f.(interface {
			WhereHasMessageWith(...predicate.Message)
		})
		if ok {
			af.WhereHasMessageWith(message.HasConversationWith(conversation.HasInboxWith(memberInbox)))
		}
		return ok
	})
	p.Mutation = append(privacy.MutationPolicy{trusted(), privacy.AlwaysDenyRule()}, p.Mutation...)
	return p
}

func (MessageDeliveryAttempt) Annotations() []schema.Annotation {
	return skipGraphQL()
}
