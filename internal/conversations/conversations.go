package conversations

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
	"github.com/switchboard/switchboard/internal/wire"
)

// Conversation returns a conversation by its display id.
func (s *Service) Conversation(ctx context.Context, displayID int) (*ent.Conversation, error) {
	cv, err := s.conversationOf(ctx, displayID)
	if err != nil {
		return nil, err
	}
	if err := s.attachLastMessages(ctx, []*ent.Conversation{cv}); err != nil {
		return nil, err
	}
	return cv, nil
}

// conversationOf is the conversation with display id displayID the viewer
// may see, with its contact and inbox but without its last message (a
// statement more), for operations that answer something else: a message, a
// page of messages, its labels.
func (s *Service) conversationOf(ctx context.Context, displayID int) (*ent.Conversation, error) {
	return oneConversation(ctx, s.Client(ctx).Conversation.Query().WithContact().WithInbox(), displayID)
}

// conversationToWriteIn is conversationOf without the contact and the
// inbox, for posting or deleting a message: neither reads the contact (a
// message's event reads the conversation and its contact again, when
// someone listens), a post takes the inbox from memory (messageCreate), and
// each is a statement more.
func (s *Service) conversationToWriteIn(ctx context.Context, displayID int) (*ent.Conversation, error) {
	return oneConversation(ctx, s.Client(ctx).Conversation.Query(), displayID)
}

func oneConversation(ctx context.Context, q *ent.ConversationQuery, displayID int) (*ent.Conversation, error) {
	cv, err := q.Where(conversation.DisplayID(displayID)).Only(ctx)
	if err != nil {
		return nil, apperr.From(core.NotFound(err, "Conversation"))
	}
	return cv, nil
}

// ConversationInput is the body of a conversation create.
type ConversationInput struct {
	SourceID             *string
	InboxID              *int
	ContactID            *int
	Status               *string
	AssigneeID           *int
	TeamID               *int
	SnoozedUntil         *time.Time
	AdditionalAttributes map[string]any
	CustomAttributes     map[string]any
	Message              *MessageInput
	// incoming: a customer's message starts the conversation (startInbound),
	// so its last incoming message is now too.
	incoming bool
}

// CreateConversation starts a conversation with a contact in an inbox (or,
// when the inbox locks contacts to one conversation, returns the open one),
// and posts the first message when one is given.
func (s *Service) CreateConversation(ctx context.Context, in ConversationInput) (*ent.Conversation, error) {
	var displayID int
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		ci, err := s.resolveContactInbox(ctx, c, in)
		if err != nil {
			return err
		}
		if err := core.PolicyAllows(ctx, conversation.Policy, c.Conversation.Create().SetInboxID(ci.InboxID).Mutation()); err != nil {
			return err
		}
		cv, err := s.LockedConversation(ctx, c, ci)
		if err != nil {
			return err
		}
		if cv == nil {
			if cv, err = s.NewConversation(ctx, c, ci, in); err != nil {
				return err
			}
			if err := s.EmitConversationEvent(ctx, c, events.ConversationCreated, cv); err != nil {
				return err
			}
		}
		displayID = cv.DisplayID
		if in.Message != nil {
			_, err = s.AddMessage(ctx, c, cv, *in.Message, nil)
		}
		return err
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Conversation(ctx, displayID)
}

// resolveContactInbox finds the contact inbox a new conversation runs
// through: by source_id (which must belong to the given contact and inbox),
// or by contact and inbox, linking them when they are not linked yet.
func (s *Service) resolveContactInbox(ctx context.Context, c *ent.Client, in ConversationInput) (*ent.ContactInbox, error) {
	sourceID := strings.TrimSpace(core.Deref(in.SourceID))
	if sourceID == "" {
		var errs core.FieldErrors
		if in.InboxID == nil {
			errs.Add("inbox_id", "Inbox id can't be blank (send source_id, or inbox_id and contact_id)")
		}
		if in.ContactID == nil {
			errs.Add("contact_id", "Contact id can't be blank (send source_id, or inbox_id and contact_id)")
		}
		if err := errs.Err(); err != nil {
			return nil, err
		}
		return s.ContactInboxFor(ctx, c, *in.ContactID, *in.InboxID)
	}
	q := c.ContactInbox.Query().Where(contactinbox.SourceID(sourceID))
	if in.InboxID != nil {
		q = q.Where(contactinbox.InboxID(*in.InboxID))
	}
	cis, err := q.Limit(2).All(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case len(cis) == 0:
		return nil, apperr.Invalidf("source_id", "Source id %q does not belong to a contact of this inbox", sourceID)
	case len(cis) > 1:
		return nil, apperr.Invalid("Source id is used in several inboxes: send inbox_id too", "inbox_id")
	case in.ContactID != nil && cis[0].ContactID != *in.ContactID:
		return nil, apperr.Invalidf("source_id", "Source id %q belongs to another contact", sourceID)
	}
	return cis[0], nil
}

func (s *Service) ContactInboxFor(ctx context.Context, c *ent.Client, contactID, inboxID int) (*ent.ContactInbox, error) {
	ct, err := c.Contact.Get(ctx, contactID)
	if err != nil {
		return nil, NotFoundField(err, "contact_id", "Contact")
	}
	ib, err := c.Inbox.Get(ctx, inboxID)
	if err != nil {
		return nil, NotFoundField(err, "inbox_id", "Inbox")
	}
	ci, err := c.ContactInbox.Query().
		Where(contactinbox.ContactID(contactID), contactinbox.InboxID(inboxID)).
		Order(ent.Asc(contactinbox.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return s.contacts.AttachInbox(ctx, c, ct, ib, nil)
	}
	return ci, err
}

// NotFoundField reports a missing referenced record as a 422 on the field
// that referenced it.
func NotFoundField(err error, field, what string) error {
	if ent.IsNotFound(err) {
		return apperr.Invalidf(field, "%s does not exist in this account", what)
	}
	return err
}

// LockedConversation returns the contact's open conversation when the inbox
// locks each contact to a single conversation.
func (s *Service) LockedConversation(ctx context.Context, c *ent.Client, ci *ent.ContactInbox) (*ent.Conversation, error) {
	ib, err := c.Inbox.Get(ctx, ci.InboxID)
	if err != nil || !ib.LockToSingleConversation {
		return nil, err
	}
	cv, err := c.Conversation.Query().Where(
		conversation.ContactID(ci.ContactID), conversation.InboxID(ci.InboxID),
		conversation.StatusNEQ(conversation.StatusResolved),
	).Order(ent.Desc(conversation.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return cv, err
}

func (s *Service) NewConversation(ctx context.Context, c *ent.Client, ci *ent.ContactInbox, in ConversationInput) (*ent.Conversation, error) {
	return s.newConversation(ctx, c, ci, in, 0)
}

// newConversation starts a conversation numbered displayID, one
// reserveDisplayIDs took, or (0) the account's next one, taken in c's
// transaction.
func (s *Service) newConversation(ctx context.Context, c *ent.Client, ci *ent.ContactInbox, in ConversationInput, displayID int) (*ent.Conversation, error) {
	create, err := s.conversationCreate(ctx, c, ci, in, displayID)
	if err != nil {
		return nil, err
	}
	if displayID == 0 { // taken once the input is known to be good
		if displayID, err = s.nextDisplayIDs(ctx, c, 1); err != nil {
			return nil, err
		}
		create.SetDisplayID(displayID)
	}
	return create.Save(ctx)
}

// conversationCreate checks in and builds the conversation of contact inbox
// ci it starts, numbered displayID (0: not numbered yet).
func (s *Service) conversationCreate(ctx context.Context, c *ent.Client, ci *ent.ContactInbox, in ConversationInput, displayID int) (*ent.ConversationCreate, error) {
	var errs core.FieldErrors
	status := conversation.StatusOpen
	if in.Status != nil && *in.Status != "" {
		status = conversation.Status(*in.Status)
		if conversation.StatusValidator(status) != nil {
			errs.Add("status", "Status must be open, resolved, pending or snoozed")
		}
	}
	errs.Merge(checkAssignment(ctx, c, in.AssigneeID, in.TeamID))
	if err := errs.Err(); err != nil {
		return nil, err
	}
	now := s.Now()
	create := c.Conversation.Create().SetUUID(uuid.NewString()).
		SetInboxID(ci.InboxID).SetContactID(ci.ContactID).SetContactInboxID(ci.ID).
		SetStatus(status).SetNillableAssigneeID(in.AssigneeID).SetNillableTeamID(in.TeamID).
		SetNillableSnoozedUntil(snoozedUntil(status, in.SnoozedUntil)).SetLastActivityAt(now)
	if in.incoming {
		create.SetLastIncomingAt(now)
	}
	if displayID != 0 {
		create.SetDisplayID(displayID)
	}
	if in.AdditionalAttributes != nil {
		create.SetAdditionalAttributes(in.AdditionalAttributes)
	}
	if in.CustomAttributes != nil {
		kept, err := s.contacts.DefinedAttributes(ctx, c, "conversation_attribute", in.CustomAttributes)
		if err != nil {
			return nil, err
		}
		create.SetCustomAttributes(kept)
	}
	return create, nil
}

// nextDisplayIDs takes the account's next n conversation display ids and
// answers the first. The counter row is locked until the transaction ends,
// so ids never repeat. Any member may take them, though only
// administrators may edit the account.
func (s *Service) nextDisplayIDs(ctx context.Context, c *ent.Client, n int) (int, error) {
	v, _ := viewer.FromContext(ctx)
	acc, err := c.Account.UpdateOneID(v.AccountID).AddLastConversationDisplayID(n).
		Save(core.WithDisplayCounter(ctx))
	if err != nil {
		return 0, err
	}
	return acc.LastConversationDisplayID - n + 1, nil
}

// ToggleStatus sets a conversation's status; without one it toggles between
// open and resolved, as Chatwoot does.
func (s *Service) ToggleStatus(ctx context.Context, displayID int, status *string, until *time.Time) (*ent.Conversation, error) {
	cv, err := s.Conversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	next := conversation.StatusResolved
	if cv.Status != conversation.StatusOpen {
		next = conversation.StatusOpen
	}
	if status != nil && *status != "" {
		next = conversation.Status(*status)
		if conversation.StatusValidator(next) != nil {
			return nil, apperr.Invalid("Status must be open, resolved, pending or snoozed", "status")
		}
	}
	if next == conversation.StatusSnoozed && until != nil && !until.After(s.Now()) {
		return nil, apperr.Invalid("Snoozed until must be in the future", "snoozed_until")
	}
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		upd := c.Conversation.UpdateOneID(cv.ID).SetStatus(next)
		if next == conversation.StatusSnoozed {
			// Snoozed again without a time keeps the time it had.
			upd.SetNillableSnoozedUntil(until)
		} else {
			// Only a snoozed conversation has a wake-up time.
			upd.ClearSnoozedUntil()
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		if next == cv.Status {
			return nil
		}
		return s.EmitConversationEvent(ctx, c, events.ConversationStatusChanged, cv)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Conversation(ctx, displayID)
}

// snoozedUntil is the snoozed_until a new conversation with status keeps:
// only a snoozed conversation has a wake-up time (ToggleStatus clears it
// likewise), so one sent with any other status is dropped.
func snoozedUntil(status conversation.Status, until *time.Time) *time.Time {
	if status != conversation.StatusSnoozed {
		return nil
	}
	return until
}

// ConversationLabels returns a conversation's labels.
func (s *Service) ConversationLabels(ctx context.Context, displayID int) ([]string, error) {
	cv, err := s.conversationOf(ctx, displayID)
	if err != nil {
		return nil, err
	}
	return cv.Labels, nil
}

// SetConversationLabels replaces a conversation's labels. Listeners hear
// conversation_updated, as Chatwoot sends it for a label change.
func (s *Service) SetConversationLabels(ctx context.Context, displayID int, labels []string) ([]string, error) {
	cv, err := s.Conversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	cleaned, err := contacts.LabelList(labels)
	if err != nil {
		return nil, err
	}
	if slices.Equal(cleaned, cv.Labels) {
		return cv.Labels, nil // nothing changes, and nobody is told of a change
	}
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		cv, err = c.Conversation.UpdateOne(cv).SetLabels(cleaned).Save(ctx)
		if err != nil {
			return err
		}
		return s.EmitConversationEvent(ctx, c, events.ConversationUpdated, cv)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return cv.Labels, nil
}

// EmitConversationEvent tells the listeners of a change of conversation cv.
func (s *Service) EmitConversationEvent(ctx context.Context, c *ent.Client, kind events.Kind, cv *ent.Conversation) error {
	ev := events.Event{AccountID: cv.AccountID, Kind: kind, ConversationID: cv.ID, InboxID: cv.InboxID, ContactID: cv.ContactID}
	return s.Notify(ctx, c, core.Change{Event: ev, Payload: func() (map[string]any, error) {
		cv, err := c.Conversation.Query().Where(conversation.ID(cv.ID)).WithContact().WithInbox().Only(ctx)
		if err != nil {
			return nil, err
		}
		return wire.Fields(wire.Conversation(cv)), nil
	}})
}
