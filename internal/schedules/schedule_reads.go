package schedules

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
)

// The read side of scheduled messages: lists, counts and one schedule, each
// narrowed to the request's scope (the privacy rules narrow agents to their
// inboxes).

// SchedulePageSize is the length of a page of schedules.
const SchedulePageSize = 25

// ScheduleListParams filter a list of schedules.
type ScheduleListParams struct {
	Scope  ScheduleScope
	Status string
	// ContactID, when set, keeps the schedules addressed to that contact.
	ContactID int
	Page      int
}

// ScheduledMessages lists schedules, latest scheduled_at first. Agents see
// the schedules of the inboxes they are members of.
func (s *Service) ScheduledMessages(ctx context.Context, p ScheduleListParams) (*core.Page[*ent.ScheduledMessage], error) {
	q, err := s.scheduleQuery(ctx, p.Scope)
	if err != nil {
		return nil, err
	}
	if p.Status != "" && p.Status != "all" {
		if scheduledmessage.StatusValidator(scheduledmessage.Status(p.Status)) != nil {
			return nil, apperr.Invalid("Status must be pending, sent, failed, cancelled or all", "status")
		}
		q = q.Where(scheduledmessage.StatusEQ(scheduledmessage.Status(p.Status)))
	}
	if p.ContactID != 0 {
		q = q.Where(scheduledmessage.ContactID(p.ContactID))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, err
	}
	items, err := q.Order(ent.Desc(scheduledmessage.FieldScheduledAt), ent.Desc(scheduledmessage.FieldID)).
		Offset(core.PageOffset(p.Page, SchedulePageSize)).Limit(SchedulePageSize).
		WithAttachments().WithConversation().All(ctx)
	if err != nil {
		return nil, err
	}
	page := core.ClampPage(p.Page)
	return &core.Page[*ent.ScheduledMessage]{Items: items, Total: total, Page: page, HasMore: page*SchedulePageSize < total}, nil
}

// CountScheduledMessages counts a conversation's schedules, of one status
// when status is not empty.
func (s *Service) CountScheduledMessages(ctx context.Context, scope ScheduleScope, status string) (int, error) {
	p, err := s.ScheduledMessages(ctx, ScheduleListParams{Scope: scope, Status: status})
	if err != nil {
		return 0, err
	}
	return p.Total, nil
}

// scheduleQuery narrows schedules to the scope and, for agents, to their
// inboxes.
func (s *Service) scheduleQuery(ctx context.Context, scope ScheduleScope) (*ent.ScheduledMessageQuery, error) {
	q := s.Client(ctx).ScheduledMessage.Query()
	if scope.ConversationID != 0 {
		cv, err := s.conv.Conversation(ctx, scope.ConversationID)
		if err != nil {
			return nil, err
		}
		q = q.Where(scheduledmessage.ConversationID(cv.ID))
	}
	return q, nil
}

// ScheduledMessage returns one schedule of the scope (for an agent outside
// its inbox, none: the privacy rule hides it).
func (s *Service) ScheduledMessage(ctx context.Context, scope ScheduleScope, id int) (*ent.ScheduledMessage, error) {
	return s.scheduleInScope(ctx, s.Client(ctx), scope, id)
}

func (s *Service) scheduleInScope(ctx context.Context, c *ent.Client, scope ScheduleScope, id int) (*ent.ScheduledMessage, error) {
	q := c.ScheduledMessage.Query().Where(scheduledmessage.ID(id))
	if scope.ConversationID != 0 {
		q = q.Where(scheduledmessage.HasConversationWith(conversation.DisplayID(scope.ConversationID)))
	}
	sm, err := q.WithAttachments().WithConversation().Only(ctx)
	if err != nil {
		return nil, apperr.From(core.NotFound(err, "Scheduled message"))
	}
	return sm, nil
}
