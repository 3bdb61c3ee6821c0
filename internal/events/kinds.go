package events

import "strings"

// Kind names a change. The names are the event names of the webhooks, the
// one scheme a change goes by everywhere (webhook outbox, kanban webhook,
// live listeners): Chatwoot's own for its resources (message_created), the
// spec's for scheduled messages (scheduled_message.created), and the
// kanban_item.* family for cards.
type Kind string

// The kinds of change.
const (
	ContactCreated            Kind = "contact_created"
	ContactUpdated            Kind = "contact_updated"
	ConversationCreated       Kind = "conversation_created"
	ConversationUpdated       Kind = "conversation_updated"
	ConversationStatusChanged Kind = "conversation_status_changed"
	MessageCreated            Kind = "message_created"
	MessageUpdated            Kind = "message_updated"
	ScheduledMessageCreated   Kind = "scheduled_message.created"
	ScheduledMessageUpdated   Kind = "scheduled_message.updated"
	ScheduledMessageDeleted   Kind = "scheduled_message.deleted"
	ScheduledMessageSent      Kind = "scheduled_message.sent"
	ScheduledMessageFailed    Kind = "scheduled_message.failed"
	KanbanItemCreated         Kind = "kanban_item.created"
	KanbanItemUpdated         Kind = "kanban_item.updated"
	KanbanItemMoved           Kind = "kanban_item.moved"
	KanbanItemStatusChanged   Kind = "kanban_item.status_changed"
	KanbanItemDeleted         Kind = "kanban_item.deleted"
	KanbanWebhookTest         Kind = "kanban.test"
	kanbanItemPrefix               = "kanban_item."
)

// ConversationTypingOn and ConversationTypingOff: a visitor of the public
// client API (UserID 0) or an agent (UserID) started or stopped typing, as
// Chatwoot's events of those names. Live listeners only: nothing is stored
// and no webhook is sent (they are not in Kinds).
const (
	ConversationTypingOn  Kind = "conversation_typing_on"
	ConversationTypingOff Kind = "conversation_typing_off"
)

// FunnelStagesChanged: a funnel's stages were added, renamed, recoloured,
// reordered or removed. Live listeners only (the boards redraw their
// columns): it is not in Kinds, and no webhook names it.
const FunnelStagesChanged Kind = "funnel.stages_changed"

// Kinds lists every kind a webhook subscription may ask for.
var Kinds = []Kind{
	ContactCreated, ContactUpdated, ConversationCreated, ConversationUpdated, ConversationStatusChanged,
	MessageCreated, MessageUpdated, ScheduledMessageCreated, ScheduledMessageUpdated, ScheduledMessageDeleted,
	ScheduledMessageSent, ScheduledMessageFailed, KanbanItemCreated, KanbanItemUpdated, KanbanItemMoved,
	KanbanItemStatusChanged, KanbanItemDeleted,
}

// IsCard reports whether k is a change of a kanban card.
func (k Kind) IsCard() bool { return strings.HasPrefix(string(k), kanbanItemPrefix) }

// CardAction is a card kind without its family: "moved" for
// kanban_item.moved, as the board's listeners name it.
func (k Kind) CardAction() string { return strings.TrimPrefix(string(k), kanbanItemPrefix) }
