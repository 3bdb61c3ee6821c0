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

// Funnel is a sales pipeline: ordered stages holding kanban cards.
type Funnel struct{ ent.Schema }

func (Funnel) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Funnel) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)),
		field.Bool("active").Default(true),
		field.JSON("settings", map[string]any{}).Default(map[string]any{}),
	}
}

func (Funnel) Edges() []ent.Edge {
	return []ent.Edge{
		// Collected with the funnel (no statement per funnel); a resolver of
		// graph/ puts them in board order.
		edge.To("stages", FunnelStage.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("items", KanbanItem.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.RelayConnection()),
	}
}

func (Funnel) Policy() ent.Policy { return adminWritesPolicy() }

func (Funnel) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("funnels"), entgql.MultiOrder()}
}

// FunnelStage is a column of a funnel, referenced by cards through its slug.
type FunnelStage struct{ ent.Schema }

func (FunnelStage) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (FunnelStage) Fields() []ent.Field {
	return []ent.Field{
		field.Int("funnel_id").Immutable(),
		field.String("name").NotEmpty().MaxLen(255),
		field.String("slug").Validate(ValidStageSlug),
		field.String("color").Optional().Default("").Validate(ValidStageColor),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)),
		field.Int("position").Default(0),
	}
}

func (FunnelStage) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("funnel", Funnel.Type).Ref("stages").Field("funnel_id").Unique().Required().Immutable(),
		edge.To("items", KanbanItem.Type).Annotations(entgql.RelayConnection()),
	}
}

func (FunnelStage) Indexes() []ent.Index {
	return []ent.Index{index.Fields("funnel_id", "slug").Unique()}
}

func (FunnelStage) Policy() ent.Policy { return adminWritesPolicy() }

func (FunnelStage) Annotations() []schema.Annotation { return nil }

// KanbanItem is a card in a funnel stage.
type KanbanItem struct{ ent.Schema }

func (KanbanItem) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (KanbanItem) Fields() []ent.Field {
	return []ent.Field{
		field.Int("funnel_id"),
		field.Int("stage_id"),
		// Sort key inside the stage; (stage_id, position) is unique.
		field.Int64("position").Default(0).Annotations(entgql.OrderField("POSITION")),
		field.Int("conversation_id").Optional().Nillable(),
		field.String("title").Default("").Validate(maxRunes(MaxNameRunes)),
		field.Text("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)),
		field.Enum("priority").Values("none", "low", "medium", "high", "urgent").Default("none"),
		field.Float("value").Default(0).Min(0).Annotations(entgql.OrderField("VALUE")),
		field.JSON("currency", map[string]string{}).Default(map[string]string{}).Annotations(entgql.Skip(entgql.SkipAll)),
		field.JSON("item_details", map[string]any{}).Default(map[string]any{}),
		field.Enum("status").Values("open", "won", "lost").Default("open"),
		field.Time("stage_entered_at").Default(utcNow),
		field.Time("closed_at").Optional().Nillable(),
		field.Int("created_by_id").Optional().Nillable(),
	}
}

func (KanbanItem) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("funnel", Funnel.Type).Ref("items").Field("funnel_id").Unique().Required(),
		edge.From("stage", FunnelStage.Type).Ref("items").Field("stage_id").Unique().Required(),
		edge.From("conversation", Conversation.Type).Ref("kanban_items").Field("conversation_id").Unique(),
		edge.To("assigned_agents", User.Type),
		edge.To("checklist_items", ChecklistItem.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("notes", CardNote.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("stage_history", CardStageHistory.Type).Annotations(entsql.OnDelete(entsql.Cascade), entgql.Skip(entgql.SkipAll)),
	}
}

func (KanbanItem) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("stage_id", "position").Unique(),
		index.Fields("funnel_id", "stage_id"),
	}
}

func (KanbanItem) Policy() ent.Policy { return adminDeletesPolicy() }

func (KanbanItem) Hooks() []ent.Hook { return []ent.Hook{currencyFormatHook(), cardAgentsCapHook()} }

func (KanbanItem) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField("kanbanItems"), entgql.MultiOrder()}
}

// ChecklistItem is a to-do on a card.
type ChecklistItem struct{ ent.Schema }

func (ChecklistItem) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (ChecklistItem) Fields() []ent.Field {
	return []ent.Field{
		field.Int("kanban_item_id").Immutable(),
		field.String("text").NotEmpty().Validate(maxRunes(MaxTextRunes)),
		field.Bool("completed").Default(false),
		field.Time("due_date").Optional().Nillable(),
		field.Int("agent_id").Optional().Nillable(),
		field.Int("position").Default(0),
	}
}

func (ChecklistItem) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("kanban_item", KanbanItem.Type).Ref("checklist_items").Field("kanban_item_id").Unique().Required().Immutable(),
	}
}

func (ChecklistItem) Annotations() []schema.Annotation { return nil }

// CardNote is a note on a card, with its author.
type CardNote struct{ ent.Schema }

func (CardNote) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (CardNote) Policy() ent.Policy { return cardNotePolicy() }

func (CardNote) Fields() []ent.Field {
	return []ent.Field{
		field.Int("kanban_item_id").Immutable(),
		field.Int("author_id").Optional().Nillable(),
		field.Text("content").NotEmpty().Validate(maxRunes(MaxTextRunes)),
	}
}

func (CardNote) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("kanban_item", KanbanItem.Type).Ref("notes").Field("kanban_item_id").Unique().Required().Immutable(),
	}
}

func (CardNote) Annotations() []schema.Annotation { return nil }

// CardStageHistory records each stage or status change of a card; reports
// and time-in-stage figures are computed from it.
type CardStageHistory struct{ ent.Schema }

func (CardStageHistory) Mixin() []ent.Mixin { return []ent.Mixin{AccountMixin{}} }

func (CardStageHistory) Fields() []ent.Field {
	return []ent.Field{
		field.Int("kanban_item_id").Immutable(),
		field.Enum("kind").Values("created", "stage_changed", "status_changed").Immutable(),
		field.Int("from_funnel_id").Optional().Nillable().Immutable(),
		field.Int("to_funnel_id").Optional().Nillable().Immutable(),
		field.Int("from_stage_id").Optional().Nillable().Immutable(),
		field.Int("to_stage_id").Optional().Nillable().Immutable(),
		field.String("from_status").Optional().Default("").Immutable(),
		field.String("to_status").Optional().Default("").Immutable(),
		field.Int("user_id").Optional().Nillable().Immutable(),
		field.Time("created_at").Default(utcNow).Immutable(),
	}
}

func (CardStageHistory) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("kanban_item", KanbanItem.Type).Ref("stage_history").Field("kanban_item_id").Unique().Required().Immutable(),
	}
}

func (CardStageHistory) Indexes() []ent.Index {
	return []ent.Index{index.Fields("kanban_item_id", "created_at")}
}

func (CardStageHistory) Annotations() []schema.Annotation { return skipGraphQL() }

// KanbanConfig is an account's kanban settings: the webhook URL and secret
// kanban events are signed for.
type KanbanConfig struct{ ent.Schema }

func (KanbanConfig) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (KanbanConfig) Fields() []ent.Field {
	return []ent.Field{
		field.String("webhook_url").Optional().Default("").Validate(maxRunes(MaxURLRunes)),
		// Shown to administrators by a resolver of graph/ (the type is
		// theirs only); never through generated filters.
		field.String("webhook_secret").Optional().Default("").Sensitive().Annotations(entgql.Skip(entgql.SkipAll)),
		field.Bool("enabled").Default(true),
		field.JSON("settings", map[string]any{}).Default(map[string]any{}),
	}
}

func (KanbanConfig) Indexes() []ent.Index {
	return []ent.Index{index.Fields("account_id").Unique().StorageKey("kanbanconfig_account_unique")}
}

func (KanbanConfig) Policy() ent.Policy { return adminOnlyPolicy() }

func (KanbanConfig) Annotations() []schema.Annotation { return nil }

// KanbanAutomation runs an action when a trigger fires on a card.
type KanbanAutomation struct{ ent.Schema }

func (KanbanAutomation) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (KanbanAutomation) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255),
		field.Int("funnel_id").Optional().Nillable(),
		field.Enum("trigger_type").Values("stage_entered", "status_changed", "idle"),
		field.JSON("trigger_config", map[string]any{}).Default(map[string]any{}),
		field.Enum("action_type").Values("move", "assign", "set_priority", "send_message"),
		field.JSON("action_config", map[string]any{}).Default(map[string]any{}),
		field.Bool("enabled").Default(true),
		field.Time("last_run_at").Optional().Nillable(),
	}
}

func (KanbanAutomation) Policy() ent.Policy { return adminOnlyPolicy() }

func (KanbanAutomation) Annotations() []schema.Annotation { return nil }
