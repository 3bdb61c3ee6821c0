package kanban

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/kanbanautomation"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/wire"
)

// announceCard tells the notifier's listeners of a change of card it (see
// notify). extra adds keys to the webhook payload (changes, from/to stage).
func (s *Service) announceCard(ctx context.Context, c *ent.Client, kind events.Kind, it *ent.KanbanItem, extra map[string]any) error {
	return s.Notify(ctx, c, cardChange(kind, it, nil, extra, s.cardPayload(ctx, c, it, extra)))
}

// cardPayload builds a card event's webhook body.
func (s *Service) cardPayload(ctx context.Context, c *ent.Client, it *ent.KanbanItem, extra map[string]any) func() (map[string]any, error) {
	return func() (map[string]any, error) {
		it, err := s.withOutboxConversation(ctx, c, it)
		if err != nil {
			return nil, err
		}
		p := map[string]any{"kanban_item": wire.Card(it), "account": map[string]any{"id": it.AccountID}}
		for k, v := range extra {
			p[k] = v
		}
		return p, nil
	}
}

// cardChange is a change of card it (from: where it was, for a move), with
// the automation trigger it fires: entering a stage (created, or moved to
// another stage) or a new status.
func cardChange(kind events.Kind, it, from *ent.KanbanItem, extra map[string]any, payload func() (map[string]any, error)) core.Change {
	ev := events.Event{AccountID: it.AccountID, Kind: kind, FunnelID: it.FunnelID, KanbanItemID: it.ID}
	ch := core.Change{Event: ev, Payload: payload}
	base := cardEvent{accountID: it.AccountID, cardID: it.ID, funnelID: it.FunnelID}
	switch {
	case kind == events.KanbanItemCreated, kind == events.KanbanItemMoved && from.StageID != it.StageID:
		base.trigger, base.stage = kanbanautomation.TriggerTypeStageEntered, stageSlug(it)
		ch.Trigger = &base
	case kind == events.KanbanItemStatusChanged:
		base.trigger, base.status = kanbanautomation.TriggerTypeStatusChanged, string(it.Status)
		ch.Trigger = &base
	}
	if from != nil && from.FunnelID != it.FunnelID {
		ch.FromFunnelID = from.FunnelID // its old board sees it go
	}
	return ch
}

func stageSlug(it *ent.KanbanItem) string {
	if it.Edges.Stage == nil {
		return ""
	}
	return it.Edges.Stage.Slug
}

// withOutboxConversation gives the webhook payload the card's conversation
// where the acting agent could not see it (its inbox is not theirs): the
// account's integrations receive the whole card whoever moved it. The card
// handed back to the agent is not changed.
func (s *Service) withOutboxConversation(ctx context.Context, c *ent.Client, it *ent.KanbanItem) (*ent.KanbanItem, error) {
	if it.ConversationID == nil || it.Edges.Conversation != nil {
		return it, nil
	}
	cv, err := c.Conversation.Query().Where(conversation.ID(*it.ConversationID)).WithContact().Only(core.AsOutbox(ctx, it.AccountID))
	if ent.IsNotFound(err) {
		return it, nil
	}
	if err != nil {
		return nil, err
	}
	full := *it
	full.Edges.Conversation = cv
	return &full, nil
}

// announceMove announces a card's change of place, naming where it was.
func (s *Service) announceMove(ctx context.Context, c *ent.Client, from, to *ent.KanbanItem) error {
	extra := map[string]any{
		"from_funnel_id": from.FunnelID, "to_funnel_id": to.FunnelID,
		"from_stage": stageSlug(from), "to_stage": stageSlug(to),
		"from_position": from.Position, "to_position": to.Position,
	}
	return s.Notify(ctx, c, cardChange(events.KanbanItemMoved, to, from, extra, s.cardPayload(ctx, c, to, extra)))
}
