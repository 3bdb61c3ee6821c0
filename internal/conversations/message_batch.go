package conversations

import (
	"context"
	"slices"
	"time"

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
// seven. The activity is written last, just before the commit
// (core.BeforeCommit): concurrent batches share conversations, and on
// PostgreSQL each waited for the whole of the one before it while that
// held their rows. Any draft refused refuses the batch. It answers the
// messages in the order of drafts. With a core.Handoff in ctx, the
// messages to deliver are written claimed by it (handOver).
func (s *Service) AddMessages(ctx context.Context, c *ent.Client, drafts []MessageDraft) ([]*ent.Message, error) {
	creates := make([]*ent.MessageCreate, len(drafts))
	for i, d := range drafts {
		create, err := s.messageCreate(ctx, c, d.Conversation, d.Input)
		if err != nil {
			return nil, err
		}
		creates[i] = create
	}
	claimed := handOver(ctx, creates)
	ms, err := insertMessages(ctx, c, creates, func(i int) []core.StoredFile { return drafts[i].Files })
	if err != nil {
		return nil, err
	}
	for _, i := range claimed {
		core.HandoffOf(ctx).Written(ctx, core.HandedRow{Table: message.Table, ID: ms[i].ID,
			Key: ms[i].InboxID, Sequence: ms[i].ConversationID})
	}
	act := s.activityOf(drafts, ms)
	if err := core.BeforeCommit(ctx, func() error { return act.record(ctx, c) }); err != nil {
		return nil, err
	}
	return ms, s.emitMessageEvents(ctx, c, events.MessageCreated, ms, &act)
}

// handOver writes the deliveries among creates claimed by ctx's Handoff
// while it has room, and returns their indexes.
func handOver(ctx context.Context, creates []*ent.MessageCreate) []int {
	h := core.HandoffOf(ctx)
	var claimed []int
	for i, create := range creates {
		if _, due := create.Mutation().NextDeliveryAt(); due && h.Claim(message.Table) {
			create.SetNextDeliveryAt(h.Lease)
			claimed = append(claimed, i)
		}
	}
	return claimed
}

// insertMessages saves the messages creates builds with one INSERT, and
// the files of each (filesOf its index) as its attachments.
func insertMessages(ctx context.Context, c *ent.Client, creates []*ent.MessageCreate, filesOf func(int) []core.StoredFile) ([]*ent.Message, error) {
	ms, err := c.Message.CreateBulk(creates...).Save(ctx)
	if err != nil {
		return nil, err
	}
	for i, m := range ms {
		if m.Edges.Attachments, err = core.CreateAttachments(ctx, c, filesOf(i), func(b *ent.AttachmentCreate) { b.SetMessageID(m.ID) }); err != nil {
			return nil, err
		}
	}
	return ms, nil
}

// activity is what a batch of messages records on their conversations and
// contacts, as saveMessage does for one: the conversations' last activity,
// and for incoming messages the reply window and the contacts' last
// activity (movesContactActivity).
type activity struct {
	at                                time.Time
	conversations, incoming, contacts []int
}

// activityOf is the activity of messages ms, posted from drafts, at the
// service's now (to the microsecond the databases keep, so that a payload
// built from it reads as the committed rows do).
func (s *Service) activityOf(drafts []MessageDraft, ms []*ent.Message) activity {
	a := activity{at: s.Now().Truncate(time.Microsecond)}
	for i, m := range ms {
		a.conversations = append(a.conversations, m.ConversationID)
		if movesContactActivity(m) {
			a.contacts = append(a.contacts, drafts[i].Conversation.ContactID)
		}
		if m.MessageType == message.MessageTypeIncoming {
			a.incoming = append(a.incoming, m.ConversationID)
		}
	}
	a.conversations, a.incoming, a.contacts = core.UniqueInts(a.conversations), core.UniqueInts(a.incoming), core.UniqueInts(a.contacts)
	return a
}

// record writes a: one UPDATE for the conversations (a second for those
// with incoming messages) and one for the contacts, if any.
func (a activity) record(ctx context.Context, c *ent.Client) error {
	if err := c.Conversation.Update().Where(conversation.IDIn(a.conversations...)).
		SetLastActivityAt(a.at).SetUpdatedAt(a.at).Exec(ctx); err != nil {
		return apperr.From(err)
	}
	if len(a.incoming) > 0 {
		if err := c.Conversation.Update().Where(conversation.IDIn(a.incoming...)).
			SetLastIncomingAt(a.at).SetUpdatedAt(a.at).Exec(ctx); err != nil {
			return apperr.From(err)
		}
	}
	if len(a.contacts) == 0 {
		return nil
	}
	return c.Contact.Update().Where(contact.IDIn(a.contacts...)).SetLastActivityAt(a.at).SetUpdatedAt(a.at).Exec(ctx)
}

// applyTo sets on cv (read before a is recorded), and on its contact, what
// recording a writes; a nil a (no activity to record) changes nothing.
func (a *activity) applyTo(cv *ent.Conversation) {
	if a == nil {
		return
	}
	at := a.at
	cv.LastActivityAt, cv.UpdatedAt = at, at
	if slices.Contains(a.incoming, cv.ID) {
		cv.LastIncomingAt = &at
	}
	if ct := cv.Edges.Contact; ct != nil && slices.Contains(a.contacts, ct.ID) {
		ct.LastActivityAt, ct.UpdatedAt = &at, at
	}
}

// emitMessageEvents tells the listeners of kind on every message of ms at
// once (NotifyAll), their payloads built from one read of the conversations
// (and contacts), made when the first is built, with the batch's activity
// act (if any) set on them as it will be recorded.
func (s *Service) emitMessageEvents(ctx context.Context, c *ent.Client, kind events.Kind, ms []*ent.Message, act *activity) error {
	var read map[int]*ent.Conversation
	conversationOf := func(id int) func() (*ent.Conversation, error) {
		return func() (*ent.Conversation, error) {
			if read == nil {
				var err error
				if read, err = s.conversationsWithContacts(ctx, c, ms); err != nil {
					return nil, err
				}
				for _, cv := range read {
					act.applyTo(cv)
				}
			}
			if cv, ok := read[id]; ok {
				return cv, nil
			}
			// Not visible to the batch's read: as EmitMessageEvent would.
			cv, err := c.Conversation.Query().Where(conversation.ID(id)).WithContact().Only(ctx)
			if err == nil {
				act.applyTo(cv)
			}
			return cv, err
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
