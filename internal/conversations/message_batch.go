package conversations

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contact"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// MessageDraft is one message of a batch: its conversation (with its inbox,
// as AddMessage takes it), what to post and its stored files.
type MessageDraft struct {
	Conversation *ent.Conversation
	Input        MessageInput
	Files        []core.StoredFile
}

// AddMessages posts drafts in c's transaction as AddMessage would post each
// in turn, with the same checks and hooks, but set-based: one INSERT for the
// messages, one UPDATE for their conversations and one for their contacts
// (every row gets the same time, as if posted in the same instant), and
// one read of the conversations for the events' payloads. A burst of
// schedules fires through it: statement by statement, it cost a firing
// seven. Any draft refused refuses the batch. It answers the messages in
// the order of drafts.
func (s *Service) AddMessages(ctx context.Context, c *ent.Client, drafts []MessageDraft) ([]*ent.Message, error) {
	creates := make([]*ent.MessageCreate, len(drafts))
	for i, d := range drafts {
		create, err := s.messageCreate(ctx, c, d.Conversation, d.Input)
		if err != nil {
			return nil, err
		}
		creates[i] = create
	}
	ms, err := c.Message.CreateBulk(creates...).Save(ctx)
	if err != nil {
		return nil, err
	}
	for i, m := range ms {
		if len(drafts[i].Files) == 0 {
			continue
		}
		if m.Edges.Attachments, err = core.CreateAttachments(ctx, c, drafts[i].Files, func(b *ent.AttachmentCreate) { b.SetMessageID(m.ID) }); err != nil {
			return nil, err
		}
	}
	if err := s.recordActivity(ctx, c, drafts, ms); err != nil {
		return nil, err
	}
	return ms, s.emitMessageEvents(ctx, c, events.MessageCreated, ms)
}

// recordActivity records messages ms, posted from drafts, on their
// conversations and contacts, as saveMessage does for one: the last
// activity, and for incoming messages the reply window.
func (s *Service) recordActivity(ctx context.Context, c *ent.Client, drafts []MessageDraft, ms []*ent.Message) error {
	now := s.Now()
	var convIDs, incomingIDs, contactIDs []int
	for i, m := range ms {
		convIDs = append(convIDs, m.ConversationID)
		contactIDs = append(contactIDs, drafts[i].Conversation.ContactID)
		if m.MessageType == message.MessageTypeIncoming {
			incomingIDs = append(incomingIDs, m.ConversationID)
		}
	}
	if err := c.Conversation.Update().Where(conversation.IDIn(core.UniqueInts(convIDs)...)).
		SetLastActivityAt(now).Exec(ctx); err != nil {
		return apperr.From(err)
	}
	if len(incomingIDs) > 0 {
		if err := c.Conversation.Update().Where(conversation.IDIn(core.UniqueInts(incomingIDs)...)).
			SetLastIncomingAt(now).Exec(ctx); err != nil {
			return apperr.From(err)
		}
	}
	return c.Contact.Update().Where(contact.IDIn(core.UniqueInts(contactIDs)...)).SetLastActivityAt(now).Exec(ctx)
}

// emitMessageEvents tells the listeners of kind on every message of ms at
// once (NotifyAll), their payloads built from one read of the conversations
// (and contacts), made when the first is built: after the caller recorded
// all of them.
func (s *Service) emitMessageEvents(ctx context.Context, c *ent.Client, kind events.Kind, ms []*ent.Message) error {
	var read map[int]*ent.Conversation
	conversationOf := func(id int) func() (*ent.Conversation, error) {
		return func() (*ent.Conversation, error) {
			if read == nil {
				var err error
				if read, err = s.conversationsWithContacts(ctx, c, ms); err != nil {
					return nil, err
				}
			}
			if cv, ok := read[id]; ok {
				return cv, nil
			}
			// Not visible to the batch's read: as EmitMessageEvent would.
			return c.Conversation.Query().Where(conversation.ID(id)).WithContact().Only(ctx)
		}
	}
	changes := make([]core.Change, len(ms))
	for i, m := range ms {
		changes[i] = s.messageChange(ctx, c, kind, m, conversationOf(m.ConversationID))
	}
	return s.NotifyAll(ctx, c, changes)
}

// conversationsWithContacts reads the conversations of ms with their
// contacts, by id.
func (s *Service) conversationsWithContacts(ctx context.Context, c *ent.Client, ms []*ent.Message) (map[int]*ent.Conversation, error) {
	ids := make([]int, len(ms))
	for i, m := range ms {
		ids[i] = m.ConversationID
	}
	cvs, err := c.Conversation.Query().Where(conversation.IDIn(core.UniqueInts(ids)...)).WithContact().All(ctx)
	if err != nil {
		return nil, err
	}
	return core.ByID(cvs, func(cv *ent.Conversation) int { return cv.ID }), nil
}
