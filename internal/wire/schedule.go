package wire

import (
	"time"

	"github.com/switchboard/switchboard/ent"
)

// Schedule is a scheduled message as the API shows it (REST body, webhook
// event); next is when it fires next (nil: nothing left to fire).
// conversation_id is the conversation's display id, as everywhere in the
// API; sm needs its conversation edge loaded for it.
func Schedule(sm *ent.ScheduledMessage, next *time.Time) H {
	p := H{
		"id":                         sm.ID,
		"account_id":                 sm.AccountID,
		"inbox_id":                   sm.InboxID,
		"contact_id":                 sm.ContactID,
		"conversation_id":            nil,
		"author_id":                  sm.AuthorID,
		"title":                      sm.Title,
		"content":                    sm.Content,
		"private":                    sm.Private,
		"scheduled_at":               Time(sm.ScheduledAt),
		"status":                     string(sm.Status),
		"failure_reason":             NilIfEmpty(sm.FailureReason),
		"template_params":            sm.TemplateParams,
		"content_attributes":         sm.ContentAttributes,
		"recurrence_type":            string(sm.RecurrenceType),
		"recurrence_interval":        sm.RecurrenceInterval,
		"recurrence_days":            OrEmpty(sm.RecurrenceDays),
		"recurrence_end_type":        string(sm.RecurrenceEndType),
		"recurrence_end_date":        TimePtr(sm.RecurrenceEndDate),
		"recurrence_max_occurrences": sm.RecurrenceMaxOccurrences,
		"occurrences_count":          sm.OccurrencesCount,
		"next_occurrence_at":         TimePtr(next),
		"parent_id":                  sm.ParentID,
		"occurrence_at":              TimePtr(sm.OccurrenceAt),
		"message_id":                 sm.MessageID,
		"sent_at":                    TimePtr(sm.SentAt),
		"created_at":                 Time(sm.CreatedAt),
		"updated_at":                 Time(sm.UpdatedAt),
	}
	if cv := sm.Edges.Conversation; cv != nil {
		p["conversation_id"] = cv.DisplayID
	}
	return p
}
