package schedules

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/attachment"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Scheduled messages: a message to post at a future time, once or on a
// recurrence. The schedule row is its own clock (next_occurrence_at, see
// FireSchedule); these are the operations callers use to manage it.

// MaxScheduleAttachments is how many files one schedule may carry.
const MaxScheduleAttachments = core.MaxAttachments

// ScheduleScope is where a schedule request was made: the account, or one
// conversation (by display id), whose schedules alone it may reach.
type ScheduleScope struct{ ConversationID int }

// ScheduleInput is the body of a create or PUT; nil fields were not sent.
type ScheduleInput struct {
	InboxID, ContactID, ConversationID *int // conversation: display id
	Title, Content                     *string
	ScheduledAt                        *time.Time
	Private                            *bool
	TemplateParams, ContentAttributes  map[string]any
	RecurrenceType                     *string
	RecurrenceInterval                 *int
	RecurrenceDays                     *[]int
	RecurrenceEndType                  *string
	RecurrenceEndDate                  *time.Time
	RecurrenceMaxOccurrences           *int
}

// CreateScheduledMessage schedules a message: in the scope's conversation,
// in a given conversation, or to a contact through an inbox (the
// conversation is then created when it fires).
func (s *Service) CreateScheduledMessage(ctx context.Context, scope ScheduleScope, in ScheduleInput, files []core.Upload) (*ent.ScheduledMessage, error) {
	if scope.ConversationID != 0 {
		in.ConversationID = &scope.ConversationID
	}
	if err := s.checkScheduleUploads(files); err != nil {
		return nil, err
	}
	target, err := s.scheduleTarget(ctx, in)
	if err != nil {
		return nil, err
	}
	f, err := scheduleFields(in, nil, s.Now())
	if err != nil {
		return nil, err
	}
	if err := checkScheduleTemplate(target.inbox, f.templateParams); err != nil {
		return nil, err
	}
	stored, err := s.StoreUploads(target.inbox.AccountID, files)
	if err != nil {
		return nil, err
	}
	var id int
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		create := c.ScheduledMessage.Create().SetInboxID(target.inbox.ID).SetContactID(target.contactID)
		if target.conversation != nil {
			create.SetConversationID(target.conversation.ID)
		}
		if v, _ := viewer.FromContext(ctx); v.UserID != 0 {
			create.SetAuthorID(v.UserID)
		}
		f.applyCreate(create)
		sm, err := create.Save(ctx)
		if err != nil {
			return err
		}
		id = sm.ID
		if err := s.attachScheduleFiles(ctx, c, sm.ID, stored); err != nil {
			return err
		}
		return s.emitScheduleEvent(ctx, c, events.ScheduledMessageCreated, sm, sm.ID)
	})
	if err != nil {
		s.RemoveStored(stored)
		return nil, apperr.From(err)
	}
	return s.ScheduledMessage(ctx, ScheduleScope{}, id)
}

// checkScheduleUploads checks a schedule's files: at most
// MaxScheduleAttachments, each within the per-file limit.
func (s *Service) checkScheduleUploads(files []core.Upload) error {
	if len(files) > MaxScheduleAttachments {
		return apperr.Invalidf("attachments", "A scheduled message takes at most %d attachments, got %d", MaxScheduleAttachments, len(files))
	}
	return s.CheckUploads(files)
}

// scheduleTarget is where a schedule posts: an inbox and a contact, and the
// conversation when one is named.
type scheduleTarget struct {
	inbox        *ent.Inbox
	contactID    int
	conversation *ent.Conversation
}

func (s *Service) scheduleTarget(ctx context.Context, in ScheduleInput) (*scheduleTarget, error) {
	c := s.Client(ctx)
	t := &scheduleTarget{}
	if in.ConversationID != nil {
		cv, err := s.conv.Conversation(ctx, *in.ConversationID)
		if err != nil {
			return nil, err
		}
		t.conversation, t.inbox, t.contactID = cv, cv.Edges.Inbox, cv.ContactID
	} else {
		var errs core.FieldErrors
		if in.InboxID == nil {
			errs.Add("inbox_id", "Inbox id can't be blank (send conversation_id, or inbox_id and contact_id)")
		}
		if in.ContactID == nil {
			errs.Add("contact_id", "Contact id can't be blank (send conversation_id, or inbox_id and contact_id)")
		}
		if err := errs.Err(); err != nil {
			return nil, err
		}
		ib, err := c.Inbox.Get(ctx, *in.InboxID)
		if err != nil {
			return nil, apperr.From(conversations.NotFoundField(err, "inbox_id", "Inbox"))
		}
		if _, err := c.Contact.Get(ctx, *in.ContactID); err != nil {
			return nil, apperr.From(conversations.NotFoundField(err, "contact_id", "Contact"))
		}
		t.inbox, t.contactID = ib, *in.ContactID
	}
	if err := core.PolicyAllows(ctx, scheduledmessage.Policy, c.ScheduledMessage.Create().SetInboxID(t.inbox.ID).Mutation()); err != nil {
		return nil, err
	}
	return t, nil
}

// checkScheduleTemplate checks sent template params against the inbox's
// approved templates, as for a message.
func checkScheduleTemplate(ib *ent.Inbox, params map[string]any) error {
	if len(params) == 0 || ib.ChannelType != inbox.ChannelTypeWhatsapp {
		return nil
	}
	return conversations.CheckTemplateParams(ib, params)
}

// UpdateScheduledMessage changes a pending schedule. Changing its time or
// recurrence restarts the series from the new scheduled_at. Attachments
// sent replace the schedule's files.
func (s *Service) UpdateScheduledMessage(ctx context.Context, scope ScheduleScope, id int, in ScheduleInput, files []core.Upload) (*ent.ScheduledMessage, error) {
	sm, err := s.manageableSchedule(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	if err := editable(sm); err != nil {
		return nil, err
	}
	if err := s.checkScheduleUploads(files); err != nil {
		return nil, err
	}
	f, err := scheduleFields(in, sm, s.Now())
	if err != nil {
		return nil, err
	}
	ib, err := s.Client(ctx).Inbox.Get(ctx, sm.InboxID)
	if err != nil {
		return nil, apperr.From(err)
	}
	if err := checkScheduleTemplate(ib, f.templateParams); err != nil {
		return nil, err
	}
	stored, err := s.StoreUploads(sm.AccountID, files)
	if err != nil {
		return nil, err
	}
	var replaced []string
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		// Only a row still pending and not fired may change: a runner may
		// have fired it since it was read.
		n, err := f.applyUpdate(c.ScheduledMessage.Update().Where(
			scheduledmessage.ID(id), scheduledmessage.StatusEQ(scheduledmessage.StatusPending),
			scheduledmessage.MessageIDIsNil())).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.Invalid("Only a pending scheduled message can be updated", "status")
		}
		if len(files) > 0 {
			if replaced, err = s.detachScheduleFiles(ctx, c, id); err != nil {
				return err
			}
			if err := s.attachScheduleFiles(ctx, c, id, stored); err != nil {
				return err
			}
		}
		return s.emitScheduleEvent(ctx, c, events.ScheduledMessageUpdated, sm, id)
	})
	if err != nil {
		s.RemoveStored(stored)
		return nil, apperr.From(err)
	}
	s.RemoveUnreferenced(ctx, replaced)
	return s.ScheduledMessage(ctx, scope, id)
}

// editable refuses changes to a schedule that is no longer pending or has
// already fired (its message is on its way).
func editable(sm *ent.ScheduledMessage) error {
	if sm.Status != scheduledmessage.StatusPending {
		return apperr.Invalidf("status", "Only a pending scheduled message can be changed; this one is %s", sm.Status)
	}
	if sm.MessageID != nil {
		return apperr.Invalid("This scheduled message has already been sent to its channel", "status")
	}
	return nil
}

// CancelScheduledMessage stops a pending schedule (and a recurring one's
// future occurrences): its status becomes cancelled.
func (s *Service) CancelScheduledMessage(ctx context.Context, scope ScheduleScope, id int) (*ent.ScheduledMessage, error) {
	sm, err := s.manageableSchedule(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	if err := editable(sm); err != nil {
		return nil, err
	}
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		n, err := c.ScheduledMessage.Update().Where(
			scheduledmessage.ID(id), scheduledmessage.StatusEQ(scheduledmessage.StatusPending),
			scheduledmessage.MessageIDIsNil()).
			SetStatus(scheduledmessage.StatusCancelled).ClearNextOccurrenceAt().Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.Invalid("Only a pending scheduled message can be cancelled", "status")
		}
		return s.emitScheduleEvent(ctx, c, events.ScheduledMessageUpdated, sm, id)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.ScheduledMessage(ctx, scope, id)
}

// DeleteScheduledMessage deletes a schedule of any status, with its
// occurrences and files; the messages it already posted stay.
func (s *Service) DeleteScheduledMessage(ctx context.Context, scope ScheduleScope, id int) error {
	sm, err := s.manageableSchedule(ctx, scope, id)
	if err != nil {
		return err
	}
	var keys []string
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		if err := s.Notify(ctx, c, scheduleDeleted(sm, sm.ID, s.schedulePayload(ctx, c, sm.AccountID, sm.ID))); err != nil {
			return err
		}
		if keys, err = s.detachScheduleFiles(ctx, c, sm.ID); err != nil {
			return err
		}
		occurrences, err := c.ScheduledMessage.Query().Where(scheduledmessage.ParentID(sm.ID)).IDs(ctx)
		if err != nil {
			return err
		}
		for _, id := range occurrences {
			// Deleted with their series: its webhook event stands for them.
			if err := s.Notify(ctx, c, scheduleDeleted(sm, id, nil)); err != nil {
				return err
			}
		}
		return c.ScheduledMessage.DeleteOneID(sm.ID).Exec(ctx)
	})
	if err != nil {
		return apperr.From(err)
	}
	s.RemoveUnreferenced(ctx, keys)
	return nil
}

// manageableSchedule loads a schedule the viewer may change: its author or
// an administrator, and an agent only in an inbox it is a member of.
func (s *Service) manageableSchedule(ctx context.Context, scope ScheduleScope, id int) (*ent.ScheduledMessage, error) {
	sm, err := s.ScheduledMessage(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	if err := core.PolicyAllows(ctx, scheduledmessage.Policy, s.Client(ctx).ScheduledMessage.UpdateOneID(sm.ID).Mutation()); err != nil {
		return nil, err
	}
	return sm, nil
}

func (s *Service) attachScheduleFiles(ctx context.Context, c *ent.Client, id int, stored []core.StoredFile) error {
	_, err := core.CreateAttachments(ctx, c, stored, func(b *ent.AttachmentCreate) { b.SetScheduledMessageID(id) })
	return err
}

// detachScheduleFiles deletes a schedule's attachment rows and returns
// their storage keys (whose files go once nothing refers to them).
func (s *Service) detachScheduleFiles(ctx context.Context, c *ent.Client, id int) ([]string, error) {
	atts, err := c.Attachment.Query().Where(attachment.ScheduledMessageID(id)).All(ctx)
	if err != nil || len(atts) == 0 {
		return nil, err
	}
	keys := make([]string, 0, len(atts))
	for _, a := range atts {
		keys = append(keys, a.StorageKey)
	}
	_, err = c.Attachment.Delete().Where(attachment.ScheduledMessageID(id)).Exec(ctx)
	return keys, err
}
