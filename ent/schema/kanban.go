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

// Funnel is a sales pipeline: ordered stages holding kanban cards.
type Funnel struct{ ent.Schema }

func (Funnel) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (Funnel) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255).
			Comment("The funnel's name (1-255 characters)."),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)).
			Comment("What the funnel tracks; empty when not given."),
		field.Bool("active").Default(true).
			Comment("Whether the funnel is in use (default true); an inactive funnel keeps its stages and cards."),
		field.JSON("settings", map[string]any{}).Default(map[string]any{}).
			Comment("Board settings kept for the console (JSON object, at most 64 KiB)."),
	}
}

func (Funnel) Edges() []ent.Edge {
	return []ent.Edge{
		// Collected with the funnel (no statement per funnel); a resolver of
		// graph/ puts them in board order.
		edge.To("stages", FunnelStage.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("items", KanbanItem.Type).Annotations(entsql.OnDelete(entsql.Cascade), gql.RelayConnection()).
			Comment("The funnel's cards, one page at a time (first or last is required, at most 100)."),
	}
}

func (Funnel) Policy() ent.Policy { return adminWritesPolicy() }

func (Funnel) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A pipeline board: ordered stages (columns) holding kanban cards. Every member reads funnels; administrators manage them."),
		gql.RelayConnection(),
		gql.QueryField("funnels").
			Description("The account's funnels, one page at a time (first or last is required, at most 100)."),
		gql.MultiOrder(),
	}
}

// FunnelStage is a column of a funnel, referenced by cards through its slug.
type FunnelStage struct{ ent.Schema }

func (FunnelStage) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (FunnelStage) Fields() []ent.Field {
	return []ent.Field{
		field.Int("funnel_id").Immutable().
			Comment("The global id of the Funnel; never changes."),
		field.String("name").NotEmpty().MaxLen(255).
			Comment("The stage's name (1-255 characters)."),
		field.String("slug").Validate(ValidStageSlug).
			Comment("The stage's key in its funnel: a-z, 0-9, '_' and '-', at most 100 characters, unique in the funnel. Cards, automations and imports name stages by it."),
		field.String("color").Optional().Default("").Validate(ValidStageColor).
			Comment("The stage's colour as a CSS hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa); empty for the console's default."),
		field.String("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)).
			Comment("What the stage means; empty when not given."),
		field.Int("position").Default(0).
			Comment("The stage's place on the board, lowest first."),
	}
}

func (FunnelStage) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("funnel", Funnel.Type).Ref("stages").Field("funnel_id").Unique().Required().Immutable().
			Comment("The funnel the stage belongs to."),
		edge.To("items", KanbanItem.Type).Annotations(gql.RelayConnection()).
			Comment("The stage's cards, one page at a time (first or last is required, at most 100)."),
	}
}

func (FunnelStage) Indexes() []ent.Index {
	return []ent.Index{index.Fields("funnel_id", "slug").Unique()}
}

func (FunnelStage) Policy() ent.Policy { return adminWritesPolicy() }

func (FunnelStage) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A stage (column) of a funnel. Cards and automations refer to it by slug; position orders the board."),
	}
}

// KanbanItem is a card in a funnel stage.
type KanbanItem struct{ ent.Schema }

func (KanbanItem) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, AccountMixin{LedByAccount: true}}
}

func (KanbanItem) Fields() []ent.Field {
	return []ent.Field{
		field.Int("funnel_id").
			Comment("The global id of the Funnel the card is in."),
		field.Int("stage_id").
			Comment("The global id of the FunnelStage the card is in."),
		// Sort key inside the stage; (stage_id, position) is unique.
		field.Int64("position").Default(0).Annotations(gql.OrderField("POSITION")).
			Comment("The card's place in its stage, lowest first; unique in the stage. Moves renumber it."),
		field.Int("conversation_id").Optional().Nillable().
			Comment("The global id of the linked Conversation; null when none."),
		field.String("title").Default("").Validate(maxRunes(MaxNameRunes)).
			Comment("The card's title; at most 255 characters."),
		field.Text("description").Optional().Default("").Validate(maxRunes(MaxTextRunes)).
			Comment("Details of the card; empty when none. At most 150,000 characters."),
		field.Enum("priority").Values("none", "low", "medium", "high", "urgent").Default("none").
			Comment("How urgent the card is.").
			Annotations(EnumValues{
				"none":   "No priority set.",
				"low":    "Low priority.",
				"medium": "Medium priority.",
				"high":   "High priority.",
				"urgent": "Needs attention now.",
			}),
		field.Float("value").Default(0).Min(0).Annotations(gql.OrderField("VALUE")).
			Comment("The deal's value in the currency's units (a decimal, 0 or more; 0 when not set)."),
		field.JSON("currency", map[string]string{}).Default(map[string]string{}).Annotations(gql.Skip(gql.SkipAll)),
		field.JSON("item_details", map[string]any{}).Default(map[string]any{}).
			Comment("Free-form details of the card (imported columns, integration data), a JSON object of at most 64 KiB."),
		field.Enum("status").Values("open", "won", "lost").Default("open").
			Comment("Whether the deal is still open or was won or lost.").
			Annotations(EnumValues{
				"open": "Still in progress.",
				"won":  "Closed successfully (closedAt set).",
				"lost": "Closed unsuccessfully (closedAt set).",
			}),
		field.Time("stage_entered_at").Default(utcNow).
			Comment("When the card entered its current stage (RFC 3339, UTC); idle automations count from it."),
		field.Time("closed_at").Optional().Nillable().
			Comment("When the card was marked won or lost (RFC 3339, UTC); null while open."),
		field.Int("created_by_id").Optional().Nillable().
			Comment("The database id of the User who made the card; null when made by an import or automation."),
	}
}

func (KanbanItem) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("funnel", Funnel.Type).Ref("items").Field("funnel_id").Unique().Required().
			Comment("The funnel the card is in."),
		edge.From("stage", FunnelStage.Type).Ref("items").Field("stage_id").Unique().Required().
			Comment("The stage the card is in."),
		// No GraphQL filter through it: a where input's edge filter is a SQL
		// subquery the privacy rules do not reach, so an agent could match a
		// card by the text of a conversation in an inbox they are not a member
		// of (TestNoFilterReachesPastInboxVisibility).
		edge.From("conversation", Conversation.Type).Ref("kanban_items").Field("conversation_id").Unique().
			Annotations(gql.Skip(gql.SkipWhereInput)).
			Comment("The linked conversation; null when none (or not visible to the viewer)."),
		edge.To("assigned_agents", User.Type).
			Comment("The users assigned to the card."),
		edge.To("checklist_items", ChecklistItem.Type).Annotations(entsql.OnDelete(entsql.Cascade)).
			Comment("The card's to-dos, in position order; Query.checklistItems pages through all of them."),
		edge.To("notes", CardNote.Type).Annotations(entsql.OnDelete(entsql.Cascade)).
			Comment("Notes written on the card, with their authors; Query.cardNotes pages through all of them."),
		edge.To("stage_history", CardStageHistory.Type).Annotations(entsql.OnDelete(entsql.Cascade), gql.Skip(gql.SkipAll)),
	}
}

func (KanbanItem) Indexes() []ent.Index {
	return []ent.Index{
		// A stage's order (its cards' positions are 0..n-1, kept so by the
		// moves under their funnel's lock, internal/kanban). Not unique: a
		// unique index is checked row by row, so every renumbering had to
		// move its range away and back, two updates of each row.
		index.Fields("stage_id", "position"),
		index.Fields("funnel_id", "stage_id"),
		// The idle automations' minutely question: an account's open cards
		// that entered their stage before a time.
		index.Fields("account_id", "status", "stage_entered_at"),
		// A conversation's cards (the contact page), and the SET NULL when
		// a conversation is deleted.
		index.Fields("conversation_id"),
	}
}

func (KanbanItem) Policy() ent.Policy { return adminDeletesPolicy() }

func (KanbanItem) Hooks() []ent.Hook { return []ent.Hook{currencyFormatHook(), cardAgentsCapHook()} }

func (KanbanItem) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A card on a kanban board: a deal or task in a funnel stage, optionally linked to a conversation, with assignees, a checklist and notes. Every member reads and moves cards; only administrators delete them."),
		gql.RelayConnection(),
		gql.QueryField("kanbanItems").
			Description("The account's kanban cards, one page at a time (first or last is required, at most 100); filter by funnelID or stageID with where."),
		gql.MultiOrder(),
	}
}

// ChecklistItem is a to-do on a card.
type ChecklistItem struct{ ent.Schema }

func (ChecklistItem) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (ChecklistItem) Fields() []ent.Field {
	return []ent.Field{
		field.Int("kanban_item_id").Immutable().
			Comment("The global id of the KanbanItem; never changes."),
		field.String("text").NotEmpty().Validate(maxRunes(MaxTextRunes)).
			Comment("What is to be done (1 to 150,000 characters)."),
		field.Bool("completed").Default(false).
			Comment("Whether it is done."),
		field.Time("due_date").Optional().Nillable().
			Comment("When it is due (RFC 3339, UTC); null when no date is set."),
		field.Int("agent_id").Optional().Nillable().
			Comment("The database id of the User responsible; null when none."),
		field.Int("position").Default(0).Annotations(gql.OrderField("POSITION")).
			Comment("Its place in the checklist, lowest first."),
	}
}

func (ChecklistItem) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("kanban_item", KanbanItem.Type).Ref("checklist_items").Field("kanban_item_id").Unique().Required().Immutable().
			Comment("The card the to-do is on."),
	}
}

// A card's checklist in its order, for the card and for every board's
// progress counts; and the cascade when a card is deleted.
func (ChecklistItem) Indexes() []ent.Index {
	return []ent.Index{index.Fields("kanban_item_id", "position")}
}

func (ChecklistItem) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A to-do on a kanban card."),
		// A card holds up to MaxCardParts to-dos and its checklistItems
		// field returns 100: the rest are paged here.
		gql.RelayConnection(),
		gql.QueryField("checklistItems").
			Description("The to-dos of the cards the viewer sees, one page at a time (first or last is required, at most 100); a card's with where: {kanbanItemID}, in its order with orderBy: {field: POSITION}."),
	}
}

// CardNote is a note on a card, with its author.
type CardNote struct{ ent.Schema }

func (CardNote) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (CardNote) Policy() ent.Policy { return cardNotePolicy() }

func (CardNote) Fields() []ent.Field {
	return []ent.Field{
		field.Int("kanban_item_id").Immutable().
			Comment("The global id of the KanbanItem; never changes."),
		field.Int("author_id").Optional().Nillable().
			Comment("The database id of the User who wrote it; null when the author was removed or an automation wrote it."),
		field.Text("content").NotEmpty().Validate(maxRunes(MaxTextRunes)).
			Comment("The note's text (1 to 150,000 characters)."),
	}
}

func (CardNote) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("kanban_item", KanbanItem.Type).Ref("notes").Field("kanban_item_id").Unique().Required().Immutable().
			Comment("The card the note is on."),
	}
}

// A card's notes in order, and the cascade when a card is deleted.
func (CardNote) Indexes() []ent.Index {
	return []ent.Index{index.Fields("kanban_item_id", "id")}
}

func (CardNote) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A note written on a kanban card. Every member reads the notes of the cards it sees; only the author or an administrator changes or deletes one."),
		// A card holds up to MaxCardParts notes and its notes field returns
		// 100: the rest are paged here.
		gql.RelayConnection(),
		gql.QueryField("cardNotes").
			Description("The notes of the cards the viewer sees, one page at a time (first or last is required, at most 100), oldest first; a card's with where: {kanbanItemID}."),
	}
}

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

func (KanbanConfig) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, AccountMixin{LedByAccount: true}}
}

func (KanbanConfig) Fields() []ent.Field {
	return []ent.Field{
		field.String("webhook_url").Optional().Default("").Validate(maxRunes(MaxURLRunes)).
			Comment("The URL kanban events are posted to, signed with the config's secret (Standard Webhooks); empty when none. At most 2048 characters."),
		// Shown to administrators by a resolver of graph/ (the type is
		// theirs only); never through generated filters.
		field.String("webhook_secret").Optional().Default("").Sensitive().Annotations(gql.Skip(gql.SkipAll)),
		field.Bool("enabled").Default(true).
			Comment("Whether kanban events are posted to webhookURL."),
		field.JSON("settings", map[string]any{}).Default(map[string]any{}).
			Comment("Kanban settings kept for the console (JSON object, at most 64 KiB)."),
	}
}

func (KanbanConfig) Indexes() []ent.Index {
	return []ent.Index{index.Fields("account_id").Unique().StorageKey("kanbanconfig_account_unique")}
}

func (KanbanConfig) Policy() ent.Policy { return adminOnlyPolicy() }

func (KanbanConfig) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("The account's kanban settings: whether kanban is on and where kanban events are posted. Administrators only; other viewers get a permission error."),
	}
}

// KanbanAutomation runs an action when a trigger fires on a card.
type KanbanAutomation struct{ ent.Schema }

func (KanbanAutomation) Mixin() []ent.Mixin { return []ent.Mixin{TimeMixin{}, AccountMixin{}} }

func (KanbanAutomation) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(255).
			Comment("The rule's name (1-255 characters)."),
		field.Int("funnel_id").Optional().Nillable().
			Comment("The database id of the Funnel the rule applies to; null for every funnel."),
		field.Enum("trigger_type").Values("stage_entered", "status_changed", "idle").
			Comment("What fires the rule.").
			Annotations(EnumValues{
				"stage_entered":  "A card enters the stage triggerConfig.stage names.",
				"status_changed": "A card's status becomes triggerConfig.status.",
				"idle":           "A card has stayed in its stage (triggerConfig.stage, or any) for triggerConfig.hours hours; checked by the job runner.",
			}),
		field.JSON("trigger_config", map[string]any{}).Default(map[string]any{}).
			Comment("The trigger's parameters (JSON object): stage (a stage slug, with funnelID) for stage_entered; status (open, won or lost; any when left out) for status_changed; hours (more than 0) and optionally stage for idle."),
		field.Enum("action_type").Values("move", "assign", "set_priority", "send_message").
			Comment("What the rule does to the card.").
			Annotations(EnumValues{
				"move":         "Moves the card to the stage actionConfig.funnel_stage.",
				"assign":       "Assigns the agent actionConfig.agent_id.",
				"set_priority": "Sets the card's priority to actionConfig.priority.",
				"send_message": "Sends actionConfig.content in the card's conversation.",
			}),
		field.JSON("action_config", map[string]any{}).Default(map[string]any{}).
			Comment("The action's parameters (JSON object): funnel_stage (a slug) and funnel_id (default: the rule's funnel) for move; agent_id (a database id) for assign; priority for set_priority; content (not blank) for send_message."),
		field.Bool("enabled").Default(true).
			Comment("Whether the rule runs."),
		field.Time("last_run_at").Optional().Nillable().
			Comment("When the rule last ran (RFC 3339, UTC); null when never."),
	}
}

func (KanbanAutomation) Policy() ent.Policy { return adminOnlyPolicy() }

func (KanbanAutomation) Annotations() []schema.Annotation {
	return []schema.Annotation{
		schema.Comment("A rule that runs an action on a card when a trigger fires (a card enters a stage, changes status, or sits idle). Administrators only. Automations run after the change commits, outside the request."),
	}
}
