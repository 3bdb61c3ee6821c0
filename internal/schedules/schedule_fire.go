package schedules

import (
	"context"
	"errors"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/accountuser"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/recurrence"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Firing. A schedule row is its own clock: next_occurrence_at is when the
// job runner next acts on it. The runner's workers fire due rows in batches
// that take them locked in the firing's transaction (FireDue); the rows a
// batch leaves, the runner claims (moving the column a lease ahead, so
// another runner skips them) and fires alone with FireSchedule. One firing
// is one transaction that posts the message and records it; a duplicate is
// impossible, not just unlikely: a one-off records its message only while
// it has none, and each occurrence of a series is a row unique on
// (parent_id, occurrence_at).

// DefaultCatchUpWindow is how late an occurrence may still fire (after a
// restart, say); older ones are marked failed as missed instead of sending
// a burst of stale messages.
const DefaultCatchUpWindow = 10 * time.Minute

// MissedReason is the failure reason of an occurrence not fired in time.
const MissedReason = "missed"

// errAlreadyFired rolls back a firing that another runner has done.
var errAlreadyFired = errors.New("schedule already fired")

// FireSchedule fires the due occurrence of a claimed schedule: it posts the
// message in the schedule's conversation (creating the conversation when the
// schedule names none), marks a missed occurrence failed, and moves a series
// on to its next occurrence.
func (s *Service) FireSchedule(ctx context.Context, id int) error {
	sm, err := s.DB.ScheduledMessage.Query().Where(scheduledmessage.ID(id)).
		WithAttachments().Only(core.AsBackgroundWork(ctx))
	if ent.IsNotFound(err) {
		return nil // deleted since it was claimed
	}
	if err != nil {
		return err
	}
	ctx = asScheduleAuthor(ctx, sm)
	if sm.Status != scheduledmessage.StatusPending || sm.ParentID != nil {
		return s.DB.ScheduledMessage.UpdateOne(sm).ClearNextOccurrenceAt().Exec(ctx)
	}
	at, ok := ruleOf(sm).Occurrence(sm.ScheduledAt, sm.OccurrencesCount)
	if !ok {
		return s.InTx(ctx, func(ctx context.Context, c *ent.Client) error { return s.endSeries(ctx, c, sm) })
	}
	if at.After(s.Now()) {
		// Not due yet (claimed early, or moved by an update): sleep again.
		return s.DB.ScheduledMessage.Update().Where(scheduledmessage.ID(sm.ID), scheduledmessage.OccurrencesCount(sm.OccurrencesCount)).
			SetNextOccurrenceAt(at).Exec(ctx)
	}
	if s.Now().Sub(at) > s.catchUpWindow() {
		return s.failOccurrence(ctx, sm, at, MissedReason)
	}
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error { return s.fire(ctx, c, sm, at, nil) })
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errAlreadyFired) || ent.IsConstraintError(err):
		// Another runner recorded this occurrence first, or the row was
		// edited meanwhile: then it is due again as it now reads.
		return s.rearm(ctx, id)
	case isRefusal(err):
		// The message itself was refused (a closed reply window, an inbox
		// gone): the occurrence fails with the reason, the series goes on.
		return s.failOccurrence(ctx, sm, at, err.Error())
	}
	return err
}

// rearm sets a pending, unfired schedule's clock back to its due time (a
// firing that lost to an edit leaves it at the end of its lease).
func (s *Service) rearm(ctx context.Context, id int) error {
	sm, err := s.DB.ScheduledMessage.Get(core.AsBackgroundWork(ctx), id)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil || sm.Status != scheduledmessage.StatusPending || sm.MessageID != nil {
		return err
	}
	at, ok := ruleOf(sm).Occurrence(sm.ScheduledAt, sm.OccurrencesCount)
	if !ok {
		return nil
	}
	return s.DB.ScheduledMessage.Update().Where(unchanged(sm)...).SetNextOccurrenceAt(at).Exec(core.AsBackgroundWork(ctx))
}

func (s *Service) catchUpWindow() time.Duration {
	if s.CatchUp > 0 {
		return s.CatchUp
	}
	return DefaultCatchUpWindow
}

// isRefusal tells a business refusal (invalid, not found, forbidden) from a
// failure worth retrying.
func isRefusal(err error) bool {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.Kind {
	case apperr.KindInvalid, apperr.KindNotFound, apperr.KindForbidden:
		return true
	}
	return false
}

// unchanged matches sm's row only as the firing read it: still pending,
// not fired, and not edited since (a PUT that commits while the firing runs
// wins; the firing rolls back and the row is due again as edited).
func unchanged(sm *ent.ScheduledMessage) []predicate.ScheduledMessage {
	return []predicate.ScheduledMessage{
		scheduledmessage.ID(sm.ID), scheduledmessage.MessageIDIsNil(),
		scheduledmessage.StatusEQ(scheduledmessage.StatusPending),
		scheduledmessage.OccurrencesCount(sm.OccurrencesCount), scheduledmessage.UpdatedAt(sm.UpdatedAt),
	}
}

// fire posts occurrence at of sm, in the transaction of c; reads, when
// not nil, hold what a batch of firings read for all.
func (s *Service) fire(ctx context.Context, c *ent.Client, sm *ent.ScheduledMessage, at time.Time, reads *firingReads) error {
	if err := authorMayPost(ctx, c, sm, reads); err != nil {
		return err
	}
	cv, err := s.scheduleConversation(ctx, c, sm, reads)
	if err != nil {
		return err
	}
	m, err := s.conv.AddMessage(ctx, c, cv, messageOf(sm), core.StoredFilesOf(sm.Edges.Attachments))
	if err != nil {
		return err
	}
	return s.recordFiring(ctx, c, sm, at, cv.ID, m)
}

// messageOf is the message sm posts.
func messageOf(sm *ent.ScheduledMessage) conversations.MessageInput {
	return conversations.MessageInput{
		Content: &sm.Content, Private: sm.Private,
		ContentAttributes: sm.ContentAttributes, TemplateParams: sm.TemplateParams,
	}
}

// recordFiring records that occurrence at of sm posted m in conversation
// conversationID: the schedule's row (or the occurrence's) names it, and is
// sent at once when m has nothing to deliver.
func (s *Service) recordFiring(ctx context.Context, c *ent.Client, sm *ent.ScheduledMessage, at time.Time, conversationID int, m *ent.Message) error {
	firedID, err := s.recordOccurrence(ctx, c, sm, at, conversationID,
		func(u *ent.ScheduledMessageUpdate) { u.SetConversationID(conversationID) },
		func(u *ent.ScheduledMessageUpdate) { u.SetMessageID(m.ID) },
		func(o *ent.ScheduledMessageCreate) { o.SetMessageID(m.ID) })
	if err != nil {
		return err
	}
	if m.NextDeliveryAt == nil {
		// Nothing to deliver (a private note, an inbox without an outbound
		// channel): posting it is sending it.
		return s.settleSchedule(ctx, c, sm, firedID, true, "")
	}
	return s.emitScheduleEvent(ctx, c, events.ScheduledMessageUpdated, sm, firedID)
}

// authorMayPost refuses an occurrence whose author could no longer post it
// (left the account, or, as an agent, the inbox): the schedule speaks in the
// author's name, so it fails rather than outlive the author's rights.
func authorMayPost(ctx context.Context, c *ent.Client, sm *ent.ScheduledMessage, reads *firingReads) error {
	if sm.AuthorID == nil {
		return nil
	}
	m, known := reads.membership(sm.AccountID, *sm.AuthorID)
	var err error
	if !known {
		m, err = c.AccountUser.Query().Where(accountuser.UserID(*sm.AuthorID), accountuser.AccountID(sm.AccountID)).Only(ctx)
	}
	if m == nil && (err == nil || ent.IsNotFound(err)) {
		return apperr.Forbidden("The author of this scheduled message is no longer a member of the account")
	}
	if err != nil {
		return err
	}
	// The inbox rule itself decides, asked as the author would be.
	author := core.AsAuthor(ctx, sm.AccountID, *sm.AuthorID, viewer.Role(m.Role))
	err = core.PolicyAllows(author, message.Policy, c.Message.Create().SetInboxID(sm.InboxID).Mutation())
	if errors.Is(err, viewer.ErrNotInboxMember) {
		return apperr.Forbidden("The author of this scheduled message is no longer a member of its inbox")
	}
	return err
}

// scheduleConversation is the conversation a schedule posts in: its own, or
// the contact's conversation in the inbox (new unless the inbox locks the
// contact to its open one).
func (s *Service) scheduleConversation(ctx context.Context, c *ent.Client, sm *ent.ScheduledMessage, reads *firingReads) (*ent.Conversation, error) {
	if sm.ConversationID != nil {
		if cv := reads.conversation(*sm.ConversationID); cv != nil {
			return cv, nil
		}
		return c.Conversation.Query().Where(conversation.ID(*sm.ConversationID)).WithInbox().Only(ctx)
	}
	ci, err := s.conv.ContactInboxFor(ctx, c, sm.ContactID, sm.InboxID)
	if err != nil {
		return nil, err
	}
	cv, err := s.conv.LockedConversation(ctx, c, ci)
	if err != nil || cv != nil {
		return cv, err
	}
	if cv, err = s.conv.NewConversation(ctx, c, ci, conversations.ConversationInput{}); err != nil {
		return nil, err
	}
	return cv, s.conv.EmitConversationEvent(ctx, c, events.ConversationCreated, cv)
}

// recordOccurrence records what became of occurrence at of sm, guarded by
// sm being unchanged since it was read (errAlreadyFired when another runner
// got there first): a one-off's own row takes oneOff, a series gets an
// occurrence row set by occurrence and moves on to its next one; both takes
// what the schedule's row gets either way (nil: nothing). It returns the id of
// the row that stands for the occurrence.
func (s *Service) recordOccurrence(ctx context.Context, c *ent.Client, sm *ent.ScheduledMessage, at time.Time, conversationID int,
	both, oneOff func(*ent.ScheduledMessageUpdate), occurrence func(*ent.ScheduledMessageCreate)) (int, error) {
	record := c.ScheduledMessage.Update().Where(unchanged(sm)...)
	if both != nil {
		both(record)
	}
	id := sm.ID
	if ruleOf(sm).Type == recurrence.None {
		oneOff(record)
		record.ClearNextOccurrenceAt().SetOccurrencesCount(1)
	} else {
		occ, err := s.createOccurrence(ctx, c, sm, at, conversationID, occurrence)
		if err != nil {
			return 0, err
		}
		id = occ.ID
		s.advanceSeries(record, sm)
	}
	n, err := record.Save(ctx)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, errAlreadyFired
	}
	return id, nil
}

// createOccurrence records occurrence at of series sm as its own row.
func (s *Service) createOccurrence(ctx context.Context, c *ent.Client, sm *ent.ScheduledMessage, at time.Time, conversationID int, set func(*ent.ScheduledMessageCreate)) (*ent.ScheduledMessage, error) {
	o := c.ScheduledMessage.Create().SetParentID(sm.ID).SetOccurrenceAt(at).SetScheduledAt(at).
		SetInboxID(sm.InboxID).SetContactID(sm.ContactID).SetNillableAuthorID(sm.AuthorID).
		SetTitle(sm.Title).SetContent(sm.Content).SetPrivate(sm.Private).
		SetContentAttributes(sm.ContentAttributes)
	if conversationID != 0 {
		o.SetConversationID(conversationID)
	}
	if sm.TemplateParams != nil {
		o.SetTemplateParams(sm.TemplateParams)
	}
	set(o)
	return o.Save(ctx)
}

// advanceSeries moves a series past its current occurrence: to the next
// one, or to its end.
func (s *Service) advanceSeries(u *ent.ScheduledMessageUpdate, sm *ent.ScheduledMessage) {
	count := sm.OccurrencesCount + 1
	u.SetOccurrencesCount(count)
	if next, ok := ruleOf(sm).Occurrence(sm.ScheduledAt, count); ok {
		u.SetNextOccurrenceAt(next)
		return
	}
	u.ClearNextOccurrenceAt().SetStatus(scheduledmessage.StatusSent).SetSentAt(s.Now())
}

// endSeries closes a series that has no occurrence left.
func (s *Service) endSeries(ctx context.Context, c *ent.Client, sm *ent.ScheduledMessage) error {
	n, err := c.ScheduledMessage.Update().Where(scheduledmessage.ID(sm.ID), scheduledmessage.StatusEQ(scheduledmessage.StatusPending)).
		ClearNextOccurrenceAt().SetStatus(scheduledmessage.StatusSent).SetSentAt(s.Now()).Save(ctx)
	if err != nil || n == 0 {
		return err
	}
	return s.emitScheduleEvent(ctx, c, events.ScheduledMessageUpdated, sm, sm.ID)
}

// failOccurrence records that occurrence at of sm did not fire, with the
// reason; a series goes on to its next occurrence.
func (s *Service) failOccurrence(ctx context.Context, sm *ent.ScheduledMessage, at time.Time, reason string) error {
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		failedID, err := s.recordOccurrence(ctx, c, sm, at, conversationIDOf(sm), nil,
			func(u *ent.ScheduledMessageUpdate) {
				u.SetStatus(scheduledmessage.StatusFailed).SetFailureReason(reason)
			},
			func(o *ent.ScheduledMessageCreate) {
				o.SetStatus(scheduledmessage.StatusFailed).SetFailureReason(reason)
			})
		if err != nil {
			return err
		}
		if err := s.emitScheduleEvent(ctx, c, events.ScheduledMessageFailed, sm, failedID); err != nil {
			return err
		}
		if failedID != sm.ID {
			return s.emitScheduleEvent(ctx, c, events.ScheduledMessageUpdated, sm, sm.ID)
		}
		return nil
	})
	if errors.Is(err, errAlreadyFired) || ent.IsConstraintError(err) {
		return nil
	}
	return err
}

func conversationIDOf(sm *ent.ScheduledMessage) int {
	if sm.ConversationID == nil {
		return 0
	}
	return *sm.ConversationID
}
