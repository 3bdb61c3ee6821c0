package visitors

import (
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// MessagesPerPage is a page of a visitor's history (Chatwoot's).
const MessagesPerPage = 20

// Limits of what a visitor may send.
const (
	maxEchoID          = 255
	maxSubmittedValues = 50
	maxSubmittedRunes  = 1000
)

// MessagePage is messages of a conversation, oldest first, with the agents
// who sent them (by id) and the visitor's contact.
type MessagePage struct {
	Conversation *ent.Conversation
	Messages     []*ent.Message
	Agents       map[int]*ent.User
}

// Messages is a page of the visitor's conversation: the newest
// MessagesPerPage, or with before those older than that message id. Read
// as the visitor, it holds no private note and no activity line.
func (s *Service) Messages(ctx context.Context, _ *Visitor, displayID int, before *int) (*MessagePage, error) {
	cv, err := s.ownConversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	return s.page(ctx, cv, before)
}

func (s *Service) page(ctx context.Context, cv *ent.Conversation, before *int) (*MessagePage, error) {
	q := s.Client(ctx).Message.Query().Where(message.ConversationID(cv.ID)).WithAttachments()
	if before != nil {
		q = q.Where(message.IDLT(*before))
	}
	msgs, err := q.Order(ent.Desc(message.FieldID)).Limit(MessagesPerPage).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	slices.Reverse(msgs)
	agents, err := s.agents(ctx, msgs)
	if err != nil {
		return nil, err
	}
	return &MessagePage{Conversation: cv, Messages: msgs, Agents: agents}, nil
}

// agents loads the users who sent msgs, in one query.
func (s *Service) agents(ctx context.Context, msgs []*ent.Message) (map[int]*ent.User, error) {
	var ids []int
	for _, m := range msgs {
		if m.SenderType != nil && *m.SenderType == message.SenderTypeUser && m.SenderID != nil {
			ids = append(ids, *m.SenderID)
		}
	}
	return core.UsersByID(ctx, s.Client(ctx), ids)
}

// MessageInput is a visitor's message.
type MessageInput struct {
	Content string
	EchoID  string
	Files   []core.Upload
}

// Send stores the visitor's message in their conversation as an incoming
// message of the inbox's channel, as every channel's customer messages are
// stored (a resolved conversation reopens), and answers it as a one-message
// page.
func (s *Service) Send(ctx context.Context, v *Visitor, displayID int, in MessageInput) (*MessagePage, error) {
	cv, err := s.ownConversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	if len(in.EchoID) > maxEchoID {
		return nil, apperr.Invalidf("echo_id", "Echo id is too long (at most %d characters)", maxEchoID)
	}
	ci := v.ContactInbox
	m, _, err := s.conversations.Receive(asChannel(ctx, v), conversations.Inbound{
		Inbox: v.Inbox, From: contacts.Sender{SourceID: ci.SourceID}, SourceID: uuid.NewString(),
		Content: in.Content, Files: in.Files, EchoID: in.EchoID, ConversationDisplayID: displayID,
	})
	if err != nil {
		return nil, err
	}
	return s.pageOf(ctx, cv, m.ID)
}

// SubmittedValue is one answer of a visitor to an input_select or form
// message.
type SubmittedValue struct {
	Name  string `json:"name,omitempty"`
	Title string `json:"title,omitempty"`
	Value string `json:"value,omitempty"`
}

// Submit records the visitor's answers to a message that asks for them
// (content_attributes.submitted_values), as Chatwoot's widget does for
// input_select and form messages, and tells the listeners
// (message_updated).
func (s *Service) Submit(ctx context.Context, v *Visitor, displayID, messageID int, values []SubmittedValue) (*MessagePage, error) {
	cv, err := s.ownConversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	if err := checkSubmitted(values); err != nil {
		return nil, err
	}
	// Read as the visitor: a private note is not found.
	asked, err := s.DB.Message.Query().Where(message.ID(messageID), message.ConversationID(cv.ID)).Only(ctx)
	if err != nil {
		return nil, core.ApperrOrNil(core.NotFound(err, "Message"))
	}
	if !asksForAnswers(asked) {
		return nil, apperr.Invalid("This message asks no question: only the agents' input and form messages take submitted values", "submitted_values")
	}
	var out *ent.Message
	err = s.InTx(asChannel(ctx, v), func(ctx context.Context, c *ent.Client) error {
		m, err := c.Message.Get(ctx, messageID)
		if err != nil {
			return err
		}
		attrs := core.MergeAttributes(m.ContentAttributes, map[string]any{"submitted_values": submittedAttr(values)})
		if out, err = m.Update().SetContentAttributes(attrs).Save(ctx); err != nil {
			return err
		}
		return s.conversations.EmitMessageEvent(ctx, c, events.MessageUpdated, out)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.pageOf(ctx, cv, out.ID)
}

// pageOf is the one-message page of message id.
func (s *Service) pageOf(ctx context.Context, cv *ent.Conversation, id int) (*MessagePage, error) {
	m, err := s.Client(ctx).Message.Query().Where(message.ID(id)).WithAttachments().Only(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	agents, err := s.agents(ctx, []*ent.Message{m})
	if err != nil {
		return nil, err
	}
	return &MessagePage{Conversation: cv, Messages: []*ent.Message{m}, Agents: agents}, nil
}

// asksForAnswers reports whether m is a question put to the contact: an
// agent's (or a template's) input or form message. Any other message, the
// visitor's own among them, keeps the content it was sent with.
func asksForAnswers(m *ent.Message) bool {
	if m.MessageType != message.MessageTypeOutgoing && m.MessageType != message.MessageTypeTemplate {
		return false
	}
	switch m.ContentType {
	case message.ContentTypeInputText, message.ContentTypeInputTextarea, message.ContentTypeInputEmail,
		message.ContentTypeInputSelect, message.ContentTypeForm:
		return true
	}
	return false
}

func checkSubmitted(values []SubmittedValue) error {
	if len(values) == 0 {
		return apperr.Invalid("Submitted values can't be blank", "submitted_values")
	}
	if err := core.CheckListLen("submitted_values", len(values), maxSubmittedValues); err != nil {
		return err
	}
	for _, v := range values {
		if len([]rune(v.Name+v.Title+v.Value)) > maxSubmittedRunes {
			return apperr.Invalidf("submitted_values", "A submitted value is too long (at most %d characters)", maxSubmittedRunes)
		}
		if strings.TrimSpace(v.Name+v.Title+v.Value) == "" {
			return apperr.Invalid("A submitted value needs a name, a title or a value", "submitted_values")
		}
	}
	return nil
}

func submittedAttr(values []SubmittedValue) []any {
	out := make([]any, 0, len(values))
	for _, v := range values {
		h := map[string]any{}
		for k, s := range map[string]string{"name": v.Name, "title": v.Title, "value": v.Value} {
			if s != "" {
				h[k] = s
			}
		}
		out = append(out, h)
	}
	return out
}
