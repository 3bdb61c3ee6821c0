package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// AutomationRun is a durable job: the kanban automations a card change fired,
// still to run. It is written in the transaction of the change, so a change
// that commits always gets its automations run, even when the process dies
// right after, and the job runner runs it outside the request.
type AutomationRun struct{ ent.Schema }

func (AutomationRun) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (AutomationRun) Fields() []ent.Field {
	return []ent.Field{
		field.Int("kanban_item_id").Immutable(),
		field.Int("funnel_id").Immutable(),
		field.Enum("trigger_type").Values("stage_entered", "status_changed").Immutable(),
		// stage is the slug entered, status the one set: what automations match.
		field.String("stage").Optional().Default("").Immutable(),
		field.String("status").Optional().Default("").Immutable(),
		// actor_id is the member whose change fired it (nil: none), whose
		// name the actions carry.
		field.Int("actor_id").Optional().Nillable().Immutable(),
		// depth counts automations fired by automations, to bound chains.
		field.Int("depth").Default(1).Immutable(),
		// run_at is when the run is due; a claim moves it a lease ahead.
		field.Time("run_at"),
		field.Int("attempts").Default(0),
	}
}

func (AutomationRun) Indexes() []ent.Index {
	// kanban_item_id, id: the claim's order rule asks for the card's first
	// pending run.
	return []ent.Index{index.Fields("run_at"), index.Fields("kanban_item_id", "id")}
}

// Only the system touches runs: the notifier writes them, the job runner
// runs them; no user reads them.
func (AutomationRun) Policy() ent.Policy { return systemOnlyPolicy() }

func (AutomationRun) Annotations() []schema.Annotation { return skipGraphQL() }
