package conversations

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// Inbound is a message a customer sent to an inbox through its channel.
type Inbound struct {
	Inbox *ent.Inbox
	From  contacts.Sender
	// SourceID is the channel's id of the message: a redelivery of the
	// same id is stored once.
	SourceID          string
	Content           string
	ContentType       message.ContentType // text (default) or incoming_email
	ContentAttributes map[string]any
	Files             []core.Upload
	// EchoID is the client's own id of the message (the public client
	// API's echo_id), sent back with it so the client can match its
	// optimistic copy.
	EchoID string
	// ConversationDisplayID threads the message into that conversation of
	// the sender when the channel names one (an e-mail's In-Reply-To); 0:
	// the sender's current conversation, or a new one.
	ConversationDisplayID int
}

// Receive stores what a customer sent, as Chatwoot's channels do: the
// sender's contact (found by their address, phone or e-mail, or new), their
// conversation in the inbox (the named one; with lock_to_single_conversation
// their last one; else their last unresolved one; else a new one, reopened
// if it was resolved or snoozed), and the message as incoming, with its
// files. Every change tells its listeners, as when made through the API. It
// answers the message and whether it was stored before (a redelivery).
func (s *Service) Receive(ctx context.Context, in Inbound) (*ent.Message, bool, error) {
	if in.SourceID == "" || in.From.SourceID == "" {
		return nil, false, apperr.Invalid("An inbound message needs its id and its sender", "source_id")
	}
	if strings.TrimSpace(in.Content) == "" && len(in.Files) == 0 {
		return nil, false, apperr.Invalid("Content can't be blank", "content")
	}
	ctx = core.AsChannel(ctx, in.Inbox.AccountID)
	turn, err := s.admitInbound(ctx)
	if err != nil {
		return nil, false, err
	}
	defer turn.release()
	if m, err := s.storedInbound(ctx, s.Client(ctx), in); m != nil || err != nil {
		return m, m != nil, err
	}
	if err := s.CheckUploads(in.Files); err != nil {
		return nil, false, err
	}
	stored, err := s.StoreUploads(in.Inbox.AccountID, in.Files)
	if err != nil {
		return nil, false, err
	}
	reserved := 0 // a display id taken for a new conversation, kept across attempts
	for attempt := 1; ; attempt++ {
		m, err := s.receiveOnce(ctx, in, stored, &reserved, turn, attempt == 1)
		if err == nil {
			return m, false, nil
		}
		// Two deliveries of one message at once: the other stored it.
		if dup, _ := s.storedInbound(ctx, s.Client(ctx), in); dup != nil {
			s.RemoveStored(stored)
			return dup, true, nil
		}
		// Another message of a new sender, stored at the same time, made
		// their contact first (this one then collides with it): once more,
		// now that it can be found.
		if attempt == maxReceiveAttempts {
			s.RemoveStored(stored)
			return nil, false, apperr.From(err)
		}
	}
}

// maxReceiveAttempts bounds how often Receive tries again after a collision
// with a concurrent message of the same sender.
const maxReceiveAttempts = 3

// storedInbound is the message of the inbox with in's source id, when it
// was stored before (nil otherwise).
func (s *Service) storedInbound(ctx context.Context, c *ent.Client, in Inbound) (*ent.Message, error) {
	m, err := c.Message.Query().Where(message.InboxID(in.Inbox.ID), message.SourceID(in.SourceID)).
		WithAttachments().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return m, err
}

// receiveOnce stores an inbound message: a known sender writing on in an
// open conversation the short way (receiveToCurrent), on the first attempt
// a message that starts a conversation together with other new senders'
// (receiveFirst), anything else the whole way in one transaction
// (receiveIn). When the message starts a conversation, its display id is
// taken before that transaction where the engine gains by it (see
// takesDisplayIDsApart), once: *reserved keeps it for the next attempt.
func (s *Service) receiveOnce(ctx context.Context, in Inbound, files []core.StoredFile, reserved *int, turn *inboundTurn, first bool) (*ent.Message, error) {
	m, startsNew, err := s.receiveToCurrent(ctx, in, files)
	if m != nil || err != nil {
		return m, err
	}
	if startsNew && first && ent.TxFromContext(ctx) == nil {
		// A batch is one transaction, whoever stores it: the turn would
		// only keep others' messages waiting.
		turn.release()
		if m, *reserved = s.receiveFirst(ctx, in, files); m != nil {
			return m, nil
		}
		if err := turn.take(ctx); err != nil {
			return nil, err
		}
	}
	if startsNew && *reserved == 0 && s.takesDisplayIDsApart(ctx) {
		if *reserved, err = s.reserveDisplayIDs(ctx, 1); err != nil {
			return nil, err
		}
	}
	err = s.InTx(ctx, func(ctx context.Context, c *ent.Client) (err error) {
		m, err = s.receiveIn(ctx, c, in, files, *reserved)
		return err
	})
	return m, err
}

// receiveIn stores an inbound message in the transaction of c; a new
// conversation gets the display id reserved (0: the next one).
func (s *Service) receiveIn(ctx context.Context, c *ent.Client, in Inbound, files []core.StoredFile, reserved int) (*ent.Message, error) {
	ci, newContact, err := s.contacts.ContactForSender(ctx, c, in.Inbox, in.From)
	if err != nil {
		return nil, err
	}
	if newContact {
		// Nobody else sees a contact made in this transaction: it has no
		// conversation to continue, and none can start meanwhile. The
		// conversation is made with the message's activity on it, as the
		// contact was.
		cv, err := s.startInbound(ctx, c, ci, reserved)
		if err != nil {
			return nil, err
		}
		return s.saveMessage(ctx, c, cv, inboundMessage(c, cv, in), files, saveRule{newSender: true})
	}
	cv, err := s.inboundConversation(ctx, c, in.Inbox, ci, in.ConversationDisplayID, reserved)
	if err != nil {
		return nil, err
	}
	return s.saveMessage(ctx, c, cv, inboundMessage(c, cv, in), files, saveRule{})
}

// inboundMessage builds the incoming message in of the contact of cv.
func inboundMessage(c *ent.Client, cv *ent.Conversation, in Inbound) *ent.MessageCreate {
	contentType := in.ContentType
	if contentType == "" {
		contentType = message.ContentTypeText
	}
	create := c.Message.Create().SetConversationID(cv.ID).SetInboxID(cv.InboxID).
		SetMessageType(message.MessageTypeIncoming).SetContentType(contentType).
		SetSenderType(message.SenderTypeContact).SetSenderID(cv.ContactID).SetSourceID(in.SourceID)
	if strings.TrimSpace(in.Content) != "" {
		create.SetContent(in.Content)
	}
	if in.ContentAttributes != nil {
		create.SetContentAttributes(in.ContentAttributes)
	}
	if in.EchoID != "" {
		create.SetEchoID(in.EchoID)
	}
	return create
}

// inboundConversation is the conversation an inbound message of contact
// inbox ci goes to (see Receive), reopened when it was resolved or snoozed;
// one it starts is numbered reserved (0: the account's next display id).
func (s *Service) inboundConversation(ctx context.Context, c *ent.Client, ib *ent.Inbox, ci *ent.ContactInbox, displayID, reserved int) (*ent.Conversation, error) {
	// One sender's messages choose their conversation one at a time (on
	// PostgreSQL; SQLite has one writer): two first messages at once must
	// not start two conversations.
	if _, err := c.ContactInbox.Query().Where(contactinbox.ID(ci.ID)).Modify(core.ForUpdateOnPostgres).IDs(ctx); err != nil {
		return nil, err
	}
	cv, err := s.currentConversation(ctx, c, ib, ci, displayID)
	if err != nil {
		return nil, err
	}
	if cv == nil {
		return s.startInbound(ctx, c, ci, reserved)
	}
	if cv.Status != conversation.StatusResolved && cv.Status != conversation.StatusSnoozed {
		return cv, nil
	}
	if cv, err = cv.Update().SetStatus(conversation.StatusOpen).ClearSnoozedUntil().Save(ctx); err != nil {
		return nil, err
	}
	return cv, s.EmitConversationEvent(ctx, c, events.ConversationStatusChanged, cv)
}

// startInbound starts the conversation of contact inbox ci that an
// incoming message opens, numbered reserved (0: the account's next display
// id), with the message's activity on it.
func (s *Service) startInbound(ctx context.Context, c *ent.Client, ci *ent.ContactInbox, reserved int) (*ent.Conversation, error) {
	cv, err := s.newConversation(ctx, c, ci, ConversationInput{incoming: true}, reserved)
	if err != nil {
		return nil, err
	}
	return cv, s.EmitConversationEvent(ctx, c, events.ConversationCreated, cv)
}

// currentConversation is the sender's conversation a message continues
// (nil: none, start one).
func (s *Service) currentConversation(ctx context.Context, c *ent.Client, ib *ent.Inbox, ci *ent.ContactInbox, displayID int) (*ent.Conversation, error) {
	return s.conversationFrom(ctx, c, ib, conversation.ContactID(ci.ContactID), displayID)
}

// conversationFrom is currentConversation for the contact who selects (a
// predicate on the conversation's contact).
func (s *Service) conversationFrom(ctx context.Context, c *ent.Client, ib *ent.Inbox, who predicate.Conversation, displayID int) (*ent.Conversation, error) {
	mine := c.Conversation.Query().Where(who, conversation.InboxID(ib.ID))
	if displayID > 0 {
		cv, err := mine.Clone().Where(conversation.DisplayID(displayID)).Only(ctx)
		if err == nil || !ent.IsNotFound(err) {
			return cv, err
		}
	}
	if !ib.LockToSingleConversation {
		mine.Where(conversation.StatusNEQ(conversation.StatusResolved))
	}
	cv, err := mine.Order(ent.Desc(conversation.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return cv, err
}
