package ops

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/events"
)

// CardPayload is a card as the API and the kanban webhooks show it: the
// forks' item shape (funnel_stage as a slug, item_details holding title,
// priority, value and currency) plus the position they leave out.
func CardPayload(it *ent.KanbanItem) map[string]any {
	details := map[string]any{}
	for k, v := range it.ItemDetails {
		details[k] = v
	}
	currency := map[string]any{}
	for k, v := range it.Currency {
		currency[k] = v
	}
	details["title"] = it.Title
	details["description"] = it.Description
	details["priority"] = string(it.Priority)
	details["value"] = it.Value
	details["currency"] = currency
	details["status"] = string(it.Status)
	p := map[string]any{
		"id":                      it.ID,
		"account_id":              it.AccountID,
		"funnel_id":               it.FunnelID,
		"funnel_stage":            "",
		"stage_id":                it.StageID,
		"position":                it.Position,
		"status":                  string(it.Status),
		"item_details":            details,
		"conversation_display_id": nil,
		"conversation":            nil,
		"assigned_agents":         cardAgents(it.Edges.AssignedAgents),
		"stage_entered_at":        isoTime(it.StageEnteredAt),
		"closed_at":               isoTimePtr(it.ClosedAt),
		"created_by_id":           it.CreatedByID,
		"created_at":              isoTime(it.CreatedAt),
		"updated_at":              isoTime(it.UpdatedAt),
	}
	if st := it.Edges.Stage; st != nil {
		p["funnel_stage"] = st.Slug
		p["stage_name"] = st.Name
	}
	if cv := it.Edges.Conversation; cv != nil {
		p["conversation_display_id"] = cv.DisplayID
		conv := map[string]any{"id": cv.DisplayID, "inbox_id": cv.InboxID, "status": string(cv.Status), "contact": nil}
		if ct := cv.Edges.Contact; ct != nil {
			conv["contact"] = map[string]any{"id": ct.ID, "name": ct.Name, "email": ct.Email, "phone_number": ct.PhoneNumber}
		}
		p["conversation"] = conv
	}
	return p
}

func cardAgents(us []*ent.User) []map[string]any {
	out := make([]map[string]any, 0, len(us))
	for _, u := range us {
		out = append(out, map[string]any{"id": u.ID, "name": u.Name, "email": u.Email, "avatar_url": u.AvatarURL})
	}
	return out
}

// announceCard writes a kanban_item.* event to the webhook outbox (for the
// account's subscriptions and its kanban webhook) in the transaction of the
// change and publishes it to live listeners once that
// commits. extra adds keys to the webhook payload (changes, from/to stage).
func (s *Service) announceCard(ctx context.Context, c *ent.Client, event string, it *ent.KanbanItem, extra map[string]any) error {
	it, err := s.withOutboxConversation(ctx, c, it)
	if err != nil {
		return err
	}
	p := map[string]any{"kanban_item": CardPayload(it), "account": map[string]any{"id": it.AccountID}}
	for k, v := range extra {
		p[k] = v
	}
	if err := s.emit(ctx, c, it.AccountID, event, func() (map[string]any, error) { return p, nil }); err != nil {
		return err
	}
	if err := s.emitToKanbanWebhook(ctx, c, it.AccountID, event, p); err != nil {
		return err
	}
	s.publishAfterCommit(ctx, events.Event{AccountID: it.AccountID, Kind: event, FunnelID: it.FunnelID, KanbanItemID: it.ID})
	return nil
}

// withOutboxConversation gives the webhook payload the card's conversation
// where the acting agent could not see it (its inbox is not theirs): the
// account's integrations receive the whole card whoever moved it. The card
// handed back to the agent is not changed.
func (s *Service) withOutboxConversation(ctx context.Context, c *ent.Client, it *ent.KanbanItem) (*ent.KanbanItem, error) {
	if it.ConversationID == nil || it.Edges.Conversation != nil {
		return it, nil
	}
	cv, err := c.Conversation.Query().Where(conversation.ID(*it.ConversationID)).WithContact().Only(asOutbox(ctx, it.AccountID))
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
	fromStage, toStage := "", ""
	if from.Edges.Stage != nil {
		fromStage = from.Edges.Stage.Slug
	}
	if to.Edges.Stage != nil {
		toStage = to.Edges.Stage.Slug
	}
	err := s.announceCard(ctx, c, "kanban_item.moved", to, map[string]any{
		"from_funnel_id": from.FunnelID, "to_funnel_id": to.FunnelID,
		"from_stage": fromStage, "to_stage": toStage,
		"from_position": from.Position, "to_position": to.Position,
	})
	if err == nil && from.FunnelID != to.FunnelID {
		// Viewers of the board the card left see it go.
		s.publishAfterCommit(ctx, events.Event{AccountID: to.AccountID, Kind: "kanban_item.moved", FunnelID: from.FunnelID, KanbanItemID: to.ID})
	}
	return err
}
