package conversations

import (
	"context"
	"strings"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// MessageInput is a message to post in a conversation.
type MessageInput struct {
	Content           *string
	MessageType       string // outgoing (default) or incoming
	ContentType       string // text (default), input_email, cards, input_select, form, article
	Private           bool
	ContentAttributes map[string]any
	TemplateParams    map[string]any
}

var allowedContentTypes = map[string]bool{
	"text": true, "input_email": true, "cards": true, "input_select": true, "form": true, "article": true,
}

// messageFields checks a message's type and content fields.
func messageFields(in MessageInput) (msgFields, error) {
	var errs core.FieldErrors
	if in.Content == nil || strings.TrimSpace(*in.Content) == "" {
		errs.Add("content", "Content can't be blank")
	}
	f := msgFields{mt: message.MessageTypeOutgoing, ct: message.ContentTypeText}
	switch in.MessageType {
	case "", "outgoing":
	case "incoming":
		f.mt = message.MessageTypeIncoming
	default:
		errs.Add("message_type", "Message type must be outgoing or incoming")
	}
	if in.ContentType != "" {
		f.ct = message.ContentType(in.ContentType)
	}
	if !allowedContentTypes[string(f.ct)] {
		errs.Add("content_type", "Content type must be one of text, input_email, cards, input_select, form, article")
	}
	return f, errs.Err()
}

type msgFields struct {
	mt message.MessageType
	ct message.ContentType
}

// AddMessage posts a message in cv, with files already stored, and records
// the activity on the conversation (and, for incoming messages, opens the
// reply window).
func (s *Service) AddMessage(ctx context.Context, c *ent.Client, cv *ent.Conversation, in MessageInput, files []core.StoredFile) (*ent.Message, error) {
	create, err := s.messageCreate(ctx, c, cv, in)
	if err != nil {
		return nil, err
	}
	return s.saveMessage(ctx, c, cv, create, files, saveRule{})
}

// messageCreate checks message in for cv (its fields, the reply window of
// cv's inbox) and returns the builder that saves it.
func (s *Service) messageCreate(ctx context.Context, c *ent.Client, cv *ent.Conversation, in MessageInput) (*ent.MessageCreate, error) {
	f, err := messageFields(in)
	if err != nil {
		return nil, err
	}
	mt, ct := f.mt, f.ct
	ib := cv.Edges.Inbox
	if ib == nil {
		if ib, err = s.inboxes.InboxOf(ctx, c, cv.AccountID, cv.InboxID); err != nil {
			return nil, err
		}
	}
	outgoing := mt == message.MessageTypeOutgoing && !in.Private
	if outgoing {
		if err := checkReplyWindow(ib, cv, in.TemplateParams, s.Now()); err != nil {
			return nil, err
		}
	}
	create := c.Message.Create().SetConversationID(cv.ID).SetInboxID(cv.InboxID).
		SetContent(*in.Content).SetMessageType(mt).SetContentType(ct).
		SetPrivate(in.Private)
	if in.ContentAttributes != nil {
		create.SetContentAttributes(in.ContentAttributes)
	}
	if in.TemplateParams != nil {
		create.SetTemplateParams(in.TemplateParams)
	}
	if mt == message.MessageTypeIncoming {
		create.SetSenderType(message.SenderTypeContact).SetSenderID(cv.ContactID)
	} else if v, ok := viewer.FromContext(ctx); ok && v.UserID != 0 {
		create.SetSenderType(message.SenderTypeUser).SetSenderID(v.UserID)
	}
	if outgoing && delivery.Deliverable(ib) {
		create.SetNextDeliveryAt(s.Now()) // the job runner picks it up after the commit
	}
	return create, nil
}

// saveRule says what saveMessage records besides the message.
type saveRule struct {
	// onlyIf: the conversation must still match it (else
	// errConversationMoved, and the caller rolls the message back).
	onlyIf []predicate.Conversation
	// newSender: the message is a new sender's first, whose contact
	// (contacts.ContactForSender) and conversation (startInbound) were made
	// in this transaction with its activity already on them.
	newSender bool
}

// movesContactActivity: m is the contact's own, so it moves the contact's
// last activity as it moves the conversation's. As Chatwoot
// (Message#update_contact_activity, when the sender is a contact), an
// agent's reply, a note or a scheduled message leaves the contact's alone:
// it is when the customer was last heard from.
func movesContactActivity(m *ent.Message) bool { return m.MessageType == message.MessageTypeIncoming }

// saveMessage saves the message create builds in cv with its files, records
// the activity on the conversation and, for the contact's own messages, on
// the contact (an incoming message opens the reply window) as rule says,
// and tells the listeners once the
// message has its attachments, so that a webhook's message_created carries
// them.
func (s *Service) saveMessage(ctx context.Context, c *ent.Client, cv *ent.Conversation, create *ent.MessageCreate, files []core.StoredFile, rule saveRule) (*ent.Message, error) {
	m, err := create.Save(ctx)
	if err != nil {
		return nil, err
	}
	if m.Edges.Attachments, err = core.CreateAttachments(ctx, c, files, func(b *ent.AttachmentCreate) { b.SetMessageID(m.ID) }); err != nil {
		return nil, err
	}
	if !rule.newSender {
		// Bulk updates by id: an UpdateOne would read each row back, and a
		// burst of messages pays for every statement.
		now := s.Now()
		convUpd := c.Conversation.Update().Where(conversation.ID(cv.ID)).SetLastActivityAt(now)
		if m.MessageType == message.MessageTypeIncoming {
			convUpd.SetLastIncomingAt(now)
		}
		if n, err := convUpd.Where(rule.onlyIf...).Save(ctx); err != nil {
			return nil, apperr.From(err)
		} else if n == 0 && len(rule.onlyIf) > 0 {
			return nil, errConversationMoved
		}
		if movesContactActivity(m) {
			if err := c.Contact.Update().Where(contact.ID(cv.ContactID)).SetLastActivityAt(now).Exec(ctx); err != nil {
				return nil, err
			}
		}
	}
	return m, s.EmitMessageEvent(ctx, c, events.MessageCreated, m)
}
