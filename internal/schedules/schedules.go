package schedules

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/attachment"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/scheduledmessage"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/recurrence"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/internal/wire"
)

// Scheduled messages: a message to post at a future time, once or on a
// recurrence. The schedule row is its own clock (next_occurrence_at, see
// FireSchedule); these are the operations callers use to manage it.

// MaxScheduleAttachments is how many files one schedule may carry.
const MaxScheduleAttachments = core.MaxAttachments

// SchedulePageSize is the length of a page of schedules.
const SchedulePageSize = 25

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

// ScheduleListParams filter a list of schedules.
type ScheduleListParams struct {
	Scope  ScheduleScope
	Status string
	Page   int
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
		return s.emitScheduleEvent(ctx, c, events.ScheduledMessageCreated, sm.AccountID, sm.ID)
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
		return s.emitScheduleEvent(ctx, c, events.ScheduledMessageUpdated, sm.AccountID, id)
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
		return s.emitScheduleEvent(ctx, c, events.ScheduledMessageUpdated, sm.AccountID, id)
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

// scheduleDeleted is the deletion of schedule id of series sm: it names
// the inbox and conversation, which listeners can no longer read.
func scheduleDeleted(sm *ent.ScheduledMessage, id int, payload func() (map[string]any, error)) core.Change {
	ev := events.Event{AccountID: sm.AccountID, Kind: events.ScheduledMessageDeleted, ScheduleID: id,
		InboxID: sm.InboxID, ConversationID: conversationIDOf(sm)}
	return core.Change{Event: ev, Payload: payload}
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

// scheduleChange holds a schedule's checked fields, ready to write.
type scheduleChange struct {
	title, content    *string
	scheduledAt       *time.Time
	private           *bool
	templateParams    map[string]any
	contentAttributes map[string]any
	rule              recurrence.Rule
	ruleChanged       bool
	next              time.Time
}

// scheduleFields checks the fields of a create (old nil) or of a PUT over
// old, and computes when the schedule first fires.
func scheduleFields(in ScheduleInput, old *ent.ScheduledMessage, now time.Time) (*scheduleChange, error) {
	var errs core.FieldErrors
	f := &scheduleChange{title: in.Title, content: in.Content, private: in.Private,
		templateParams: in.TemplateParams, contentAttributes: in.ContentAttributes}
	content := in.Content
	if content == nil && old != nil {
		content = &old.Content
	}
	if content == nil || strings.TrimSpace(*content) == "" {
		errs.Add("content", "Content can't be blank")
	}
	start := in.ScheduledAt
	switch {
	case start != nil && !start.After(now):
		errs.Add("scheduled_at", "Scheduled at must be in the future")
	case start == nil && old == nil:
		errs.Add("scheduled_at", "Scheduled at can't be blank (an ISO 8601 time in the future)")
	case start == nil:
		start = &old.ScheduledAt
	}
	if in.ScheduledAt != nil {
		utc := in.ScheduledAt.UTC()
		f.scheduledAt = &utc
	}
	rule, ruleErrs := recurrenceRule(in, old)
	errs.Merge(ruleErrs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	f.ruleChanged = old == nil || in.ScheduledAt != nil || in.RecurrenceType != nil || in.RecurrenceInterval != nil ||
		in.RecurrenceDays != nil || in.RecurrenceEndType != nil || in.RecurrenceEndDate != nil || in.RecurrenceMaxOccurrences != nil
	if f.ruleChanged && !start.After(now) {
		// The series restarts from scheduled_at, which must not lie behind us.
		return nil, apperr.Invalid("Changing the recurrence restarts the series: send a scheduled_at in the future", "scheduled_at")
	}
	if rule.EndType == recurrence.OnDate && !rule.EndDate.After(*start) {
		return nil, apperr.Invalid("Recurrence end date must be after scheduled_at", "recurrence_end_date")
	}
	f.rule = rule
	first, ok := rule.Occurrence(start.UTC(), 0)
	if !ok {
		return nil, apperr.Invalid("The recurrence ends before its first occurrence", "recurrence_end_date")
	}
	f.next = first
	return f, nil
}

// recurrenceRule reads the recurrence fields sent, over old's for a PUT.
func recurrenceRule(in ScheduleInput, old *ent.ScheduledMessage) (recurrence.Rule, core.FieldErrors) {
	var errs core.FieldErrors
	r := recurrence.Rule{Type: recurrence.None, Interval: 1, EndType: recurrence.Never}
	if old != nil {
		r = ruleOf(old)
	}
	if in.RecurrenceType != nil {
		r.Type = recurrence.Type(*in.RecurrenceType)
		if scheduledmessage.RecurrenceTypeValidator(scheduledmessage.RecurrenceType(r.Type)) != nil {
			errs.Add("recurrence_type", "Recurrence type must be none, daily, weekly, monthly or yearly")
		}
	}
	if in.RecurrenceInterval != nil {
		r.Interval = *in.RecurrenceInterval
	}
	if r.Interval < 1 {
		errs.Add("recurrence_interval", "Recurrence interval must be 1 or more")
	}
	if in.RecurrenceDays != nil {
		r.Days = *in.RecurrenceDays
	}
	if r.Type != recurrence.Weekly && len(r.Days) > 0 {
		if in.RecurrenceDays != nil {
			errs.Add("recurrence_days", "Recurrence days are allowed with a weekly recurrence only")
		} else {
			r.Days = nil // a PUT away from weekly drops the days
		}
	}
	for _, d := range r.Days {
		if d < 0 || d > 6 {
			errs.Add("recurrence_days", "Recurrence days must be integers from 0 (Sunday) to 6 (Saturday)")
			break
		}
	}
	if in.RecurrenceEndType != nil {
		r.EndType = recurrence.EndType(*in.RecurrenceEndType)
		if scheduledmessage.RecurrenceEndTypeValidator(scheduledmessage.RecurrenceEndType(r.EndType)) != nil {
			errs.Add("recurrence_end_type", "Recurrence end type must be never, on_date or after_occurrences")
		}
	}
	if in.RecurrenceEndDate != nil {
		r.EndDate = in.RecurrenceEndDate.UTC()
	}
	if in.RecurrenceMaxOccurrences != nil {
		r.Max = *in.RecurrenceMaxOccurrences
	}
	switch {
	case r.Type == recurrence.None:
		r.EndType, r.Days = recurrence.Never, nil
	case r.EndType == recurrence.OnDate && r.EndDate.IsZero():
		errs.Add("recurrence_end_date", "Recurrence end date is required when recurrence_end_type is on_date")
	case r.EndType == recurrence.AfterOccurrences && r.Max < 1:
		errs.Add("recurrence_max_occurrences", "Recurrence max occurrences must be 1 or more when recurrence_end_type is after_occurrences")
	}
	return r, errs
}

// ruleOf is a stored schedule's recurrence.
func ruleOf(sm *ent.ScheduledMessage) recurrence.Rule {
	r := recurrence.Rule{
		Type: recurrence.Type(sm.RecurrenceType), Interval: sm.RecurrenceInterval, Days: sm.RecurrenceDays,
		EndType: recurrence.EndType(sm.RecurrenceEndType),
	}
	if sm.RecurrenceEndDate != nil {
		r.EndDate = *sm.RecurrenceEndDate
	}
	if sm.RecurrenceMaxOccurrences != nil {
		r.Max = *sm.RecurrenceMaxOccurrences
	}
	return r
}

func (f *scheduleChange) applyCreate(c *ent.ScheduledMessageCreate) {
	c.SetContent(*f.content).SetNillableTitle(f.title).SetScheduledAt(*f.scheduledAt).
		SetNillablePrivate(f.private).SetNextOccurrenceAt(f.next)
	if f.templateParams != nil {
		c.SetTemplateParams(f.templateParams)
	}
	if f.contentAttributes != nil {
		c.SetContentAttributes(f.contentAttributes)
	}
	f.setRule(c.Mutation())
}

func (f *scheduleChange) applyUpdate(u *ent.ScheduledMessageUpdate) *ent.ScheduledMessageUpdate {
	u.SetNillableContent(f.content).SetNillableTitle(f.title).SetNillableScheduledAt(f.scheduledAt).
		SetNillablePrivate(f.private)
	if f.templateParams != nil {
		u.SetTemplateParams(f.templateParams)
	}
	if f.contentAttributes != nil {
		u.SetContentAttributes(f.contentAttributes)
	}
	if f.ruleChanged {
		f.setRule(u.Mutation())
		u.SetOccurrencesCount(0).SetNextOccurrenceAt(f.next)
	}
	return u
}

func (f *scheduleChange) setRule(m *ent.ScheduledMessageMutation) {
	r := f.rule
	m.SetRecurrenceType(scheduledmessage.RecurrenceType(r.Type))
	m.SetRecurrenceInterval(r.Interval)
	m.SetRecurrenceDays(orEmptyInts(r.Days))
	m.SetRecurrenceEndType(scheduledmessage.RecurrenceEndType(r.EndType))
	if r.EndType == recurrence.OnDate {
		m.SetRecurrenceEndDate(r.EndDate)
	} else {
		m.ClearRecurrenceEndDate()
	}
	if r.EndType == recurrence.AfterOccurrences {
		m.SetRecurrenceMaxOccurrences(r.Max)
	} else {
		m.ClearRecurrenceMaxOccurrences()
	}
}

func orEmptyInts(xs []int) []int {
	if xs == nil {
		return []int{}
	}
	return xs
}

func (s *Service) attachScheduleFiles(ctx context.Context, c *ent.Client, id int, stored []core.StoredFile) error {
	return core.CreateAttachments(ctx, c, stored, func(b *ent.AttachmentCreate) { b.SetScheduledMessageID(id) })
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

// CalendarEntry is a schedule at one instant of a calendar: a one-off, a
// past occurrence of a series, or a future occurrence computed from its rule.
type CalendarEntry struct {
	At       time.Time
	Schedule *ent.ScheduledMessage
	// Upcoming marks an occurrence of a pending series not fired yet.
	Upcoming bool
}

// maxCalendarOccurrences bounds the occurrences one series shows in a range.
const maxCalendarOccurrences = 400

// ScheduleCalendar lists what is scheduled in [from, to), in time order:
// schedules and recorded occurrences there, and the coming occurrences of
// pending series. Agents see their inboxes' schedules only.
func (s *Service) ScheduleCalendar(ctx context.Context, from, to time.Time) ([]CalendarEntry, error) {
	q, err := s.scheduleQuery(ctx, ScheduleScope{})
	if err != nil {
		return nil, err
	}
	rows, err := q.Where(scheduledmessage.Or(
		scheduledmessage.And(scheduledmessage.ScheduledAtGTE(from), scheduledmessage.ScheduledAtLT(to)),
		scheduledmessage.And(scheduledmessage.StatusEQ(scheduledmessage.StatusPending),
			scheduledmessage.RecurrenceTypeNEQ(scheduledmessage.RecurrenceTypeNone), scheduledmessage.ScheduledAtLT(to)),
	)).WithConversation().All(ctx)
	if err != nil {
		return nil, err
	}
	var out []CalendarEntry
	for _, sm := range rows {
		out = append(out, calendarEntries(sm, from, to)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out, nil
}

// calendarEntries places one schedule in [from, to): a series by its coming
// occurrences (its past ones are rows of their own), anything else by its
// scheduled time.
func calendarEntries(sm *ent.ScheduledMessage, from, to time.Time) []CalendarEntry {
	rule := ruleOf(sm)
	if rule.Type == recurrence.None || sm.Status != scheduledmessage.StatusPending {
		if sm.ScheduledAt.Before(from) || !sm.ScheduledAt.Before(to) {
			return nil
		}
		return []CalendarEntry{{At: sm.ScheduledAt, Schedule: sm}}
	}
	var out []CalendarEntry
	// Both bounds keep a long-running series' walk to the range short.
	for k, walked := sm.OccurrencesCount, 0; len(out) < maxCalendarOccurrences && walked < 10*maxCalendarOccurrences; k, walked = k+1, walked+1 {
		at, ok := rule.Occurrence(sm.ScheduledAt, k)
		if !ok || !at.Before(to) {
			break
		}
		if !at.Before(from) {
			out = append(out, CalendarEntry{At: at, Schedule: sm, Upcoming: true})
		}
	}
	return out
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

// emitScheduleEvent tells the listeners of a core.Change of schedule id.
func (s *Service) emitScheduleEvent(ctx context.Context, c *ent.Client, kind events.Kind, accountID, id int) error {
	ev := events.Event{AccountID: accountID, Kind: kind, ScheduleID: id}
	return s.Notify(ctx, c, core.Change{Event: ev, Payload: s.schedulePayload(ctx, c, accountID, id)})
}

// schedulePayload builds a schedule event's webhook body.
func (s *Service) schedulePayload(ctx context.Context, c *ent.Client, accountID, id int) func() (map[string]any, error) {
	return func() (map[string]any, error) {
		sm, err := c.ScheduledMessage.Query().Where(scheduledmessage.ID(id)).WithConversation().Only(core.AsOutbox(ctx, accountID))
		if err != nil {
			return nil, err
		}
		return wire.Schedule(sm, NextOccurrence(sm)), nil
	}
}
