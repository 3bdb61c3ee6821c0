package ops

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/events"
)

// Event payloads, in the shapes Chatwoot's webhooks send, with ISO 8601
// timestamps. The API channel's webhook receives messageEvent too.

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func isoTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return isoTime(*t)
}

func messageEvent(event string, m *ent.Message, cv *ent.Conversation, acc *ent.Account) map[string]any {
	p := map[string]any{
		"event":              event,
		"id":                 m.ID,
		"content":            m.Content,
		"content_type":       string(m.ContentType),
		"content_attributes": m.ContentAttributes,
		"message_type":       string(m.MessageType),
		"private":            m.Private,
		"status":             string(m.Status),
		"source_id":          m.SourceID,
		"created_at":         isoTime(m.CreatedAt),
		"account":            map[string]any{"id": acc.ID, "name": acc.Name},
		"conversation":       conversationEvent(cv),
	}
	if cv.Edges.Inbox != nil {
		p["inbox"] = map[string]any{"id": cv.Edges.Inbox.ID, "name": cv.Edges.Inbox.Name}
	}
	if m.SenderType != nil {
		p["sender"] = map[string]any{"id": m.SenderID, "type": string(*m.SenderType)}
	}
	if len(m.Edges.Attachments) > 0 {
		atts := make([]map[string]any, 0, len(m.Edges.Attachments))
		for _, a := range m.Edges.Attachments {
			atts = append(atts, map[string]any{
				"id": a.ID, "file_type": string(a.FileType), "file_name": a.FileName,
				"content_type": a.ContentType, "file_size": a.FileSize,
			})
		}
		p["attachments"] = atts
	}
	return p
}

func conversationEvent(cv *ent.Conversation) map[string]any {
	p := map[string]any{
		"id":                    cv.DisplayID,
		"inbox_id":              cv.InboxID,
		"status":                string(cv.Status),
		"labels":                cv.Labels,
		"additional_attributes": cv.AdditionalAttributes,
		"custom_attributes":     cv.CustomAttributes,
		"assignee_id":           cv.AssigneeID,
		"team_id":               cv.TeamID,
		"snoozed_until":         isoTimePtr(cv.SnoozedUntil),
		"last_activity_at":      isoTime(cv.LastActivityAt),
		"created_at":            isoTime(cv.CreatedAt),
		"updated_at":            isoTime(cv.UpdatedAt),
	}
	if ct := cv.Edges.Contact; ct != nil {
		p["meta"] = map[string]any{"sender": contactEvent(ct)}
	}
	return p
}

func contactEvent(ct *ent.Contact) map[string]any {
	return map[string]any{
		"id":                    ct.ID,
		"name":                  ct.Name,
		"email":                 ct.Email,
		"phone_number":          ct.PhoneNumber,
		"identifier":            ct.Identifier,
		"blocked":               ct.Blocked,
		"thumbnail":             ct.AvatarURL,
		"additional_attributes": ct.AdditionalAttributes,
		"custom_attributes":     ct.CustomAttributes,
	}
}

func (s *Service) emitContactEvent(ctx context.Context, c *ent.Client, kind events.Kind, ct *ent.Contact) error {
	ev := events.Event{AccountID: ct.AccountID, Kind: kind, ContactID: ct.ID}
	return s.notify(ctx, c, change{Event: ev, payload: func() (map[string]any, error) {
		acc, err := c.Account.Get(asOutbox(ctx, ct.AccountID), ct.AccountID)
		if err != nil {
			return nil, err
		}
		p := contactEvent(ct)
		p["account"] = map[string]any{"id": acc.ID, "name": acc.Name}
		return p, nil
	}})
}

func (s *Service) emitConversationEvent(ctx context.Context, c *ent.Client, kind events.Kind, cv *ent.Conversation) error {
	ev := events.Event{AccountID: cv.AccountID, Kind: kind, ConversationID: cv.ID, InboxID: cv.InboxID, ContactID: cv.ContactID}
	return s.notify(ctx, c, change{Event: ev, payload: func() (map[string]any, error) {
		cv, err := c.Conversation.Query().Where(conversation.ID(cv.ID)).WithContact().Only(ctx)
		if err != nil {
			return nil, err
		}
		return conversationEvent(cv), nil
	}})
}

// SchedulePayload is a scheduled message as the API shows it (REST body,
// webhook event). conversation_id is the conversation's display id, as
// everywhere in the API; sm needs its conversation edge loaded for it.
func SchedulePayload(sm *ent.ScheduledMessage) map[string]any {
	p := map[string]any{
		"id":                         sm.ID,
		"account_id":                 sm.AccountID,
		"inbox_id":                   sm.InboxID,
		"contact_id":                 sm.ContactID,
		"conversation_id":            nil,
		"author_id":                  sm.AuthorID,
		"title":                      sm.Title,
		"content":                    sm.Content,
		"private":                    sm.Private,
		"scheduled_at":               isoTime(sm.ScheduledAt),
		"status":                     string(sm.Status),
		"failure_reason":             nilIfBlank(sm.FailureReason),
		"template_params":            sm.TemplateParams,
		"content_attributes":         sm.ContentAttributes,
		"recurrence_type":            string(sm.RecurrenceType),
		"recurrence_interval":        sm.RecurrenceInterval,
		"recurrence_days":            orEmptyInts(sm.RecurrenceDays),
		"recurrence_end_type":        string(sm.RecurrenceEndType),
		"recurrence_end_date":        isoTimePtr(sm.RecurrenceEndDate),
		"recurrence_max_occurrences": sm.RecurrenceMaxOccurrences,
		"occurrences_count":          sm.OccurrencesCount,
		"next_occurrence_at":         isoTimePtr(NextOccurrence(sm)),
		"parent_id":                  sm.ParentID,
		"occurrence_at":              isoTimePtr(sm.OccurrenceAt),
		"message_id":                 sm.MessageID,
		"sent_at":                    isoTimePtr(sm.SentAt),
		"created_at":                 isoTime(sm.CreatedAt),
		"updated_at":                 isoTime(sm.UpdatedAt),
	}
	if cv := sm.Edges.Conversation; cv != nil {
		p["conversation_id"] = cv.DisplayID
	}
	return p
}

// NextOccurrence is when a pending schedule fires next (nil when nothing is
// left to fire). While a runner holds the row its next_occurrence_at is the
// lease's end, so the time is computed from the rule instead.
func NextOccurrence(sm *ent.ScheduledMessage) *time.Time {
	if sm.Status != scheduledmessage.StatusPending || sm.NextOccurrenceAt == nil {
		return nil
	}
	t, ok := ruleOf(sm).Occurrence(sm.ScheduledAt, sm.OccurrencesCount)
	if !ok {
		return nil
	}
	return &t
}

func nilIfBlank(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// emitScheduleEvent tells the listeners of a change of schedule id.
func (s *Service) emitScheduleEvent(ctx context.Context, c *ent.Client, kind events.Kind, accountID, id int) error {
	ev := events.Event{AccountID: accountID, Kind: kind, ScheduleID: id}
	return s.notify(ctx, c, change{Event: ev, payload: s.schedulePayload(ctx, c, accountID, id)})
}

// schedulePayload builds a schedule event's webhook body.
func (s *Service) schedulePayload(ctx context.Context, c *ent.Client, accountID, id int) func() (map[string]any, error) {
	return func() (map[string]any, error) {
		sm, err := c.ScheduledMessage.Query().Where(scheduledmessage.ID(id)).WithConversation().Only(asOutbox(ctx, accountID))
		if err != nil {
			return nil, err
		}
		return SchedulePayload(sm), nil
	}
}

// senderClassNames is the one map from our stored sender_type to the value
// Chatwoot's message JSON carries in sender_type: the Rails polymorphic class
// name. (The lower-case spelling stays in sender.type, where Chatwoot uses
// it too.) Mapping here rather than renaming the stored enum keeps existing
// databases valid without a data migration.
var senderClassNames = map[message.SenderType]string{
	message.SenderTypeUser:     "User",
	message.SenderTypeContact:  "Contact",
	message.SenderTypeAgentBot: "AgentBot",
}

// SenderClassName is a message's sender_type as Chatwoot sends it, or nil
// when the message has no sender.
func SenderClassName(t *message.SenderType) any {
	if t == nil {
		return nil
	}
	if name, ok := senderClassNames[*t]; ok {
		return name
	}
	return string(*t)
}
