package visitors

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// ConversationsPerList bounds a visitor's conversation list (the newest
// first); each conversation carries its last MessagesPerPage messages.
const ConversationsPerList = 20

// ownConversation is the visitor's conversation with the display id, or
// 404: read as the visitor, another visitor's conversation is not found
// (the privacy rules decide which are theirs).
func (s *Service) ownConversation(ctx context.Context, displayID int) (*ent.Conversation, error) {
	cv, err := s.Client(ctx).Conversation.Query().
		Where(conversation.DisplayID(displayID)).WithContact().Only(ctx)
	return cv, core.ApperrOrNil(core.NotFound(err, "Conversation"))
}

// Thread is a conversation with its last messages, as a visitor sees it.
type Thread struct {
	Conversation *ent.Conversation
	Page         *MessagePage
}

// Conversations lists the visitor's conversations, newest first.
func (s *Service) Conversations(ctx context.Context, _ *Visitor) ([]Thread, error) {
	cvs, err := s.Client(ctx).Conversation.Query().WithContact().
		Order(ent.Desc(conversation.FieldID)).Limit(ConversationsPerList).All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.threads(ctx, cvs)
}

// threads gives each conversation its newest messages, in three
// statements whatever the number of conversations: the messages, their
// files, the agents who sent them.
func (s *Service) threads(ctx context.Context, cvs []*ent.Conversation) ([]Thread, error) {
	ids := make([]int, len(cvs))
	for i, cv := range cvs {
		ids[i] = cv.ID
	}
	q := s.Client(ctx).Message.Query().Where(message.ConversationIDIn(ids...)).WithAttachments()
	q.Modify(newestPerConversation(MessagesPerPage)) // kept on q; its Select is not needed
	msgs, err := q.All(ctx)
	if err != nil {
		return nil, apperr.From(err)
	}
	slices.SortFunc(msgs, func(a, b *ent.Message) int { return cmp.Compare(a.ID, b.ID) })
	agents, err := s.agents(ctx, msgs)
	if err != nil {
		return nil, err
	}
	byConversation := make(map[int][]*ent.Message, len(cvs))
	for _, m := range msgs {
		byConversation[m.ConversationID] = append(byConversation[m.ConversationID], m)
	}
	out := make([]Thread, 0, len(cvs))
	for _, cv := range cvs {
		out = append(out, Thread{Conversation: cv,
			Page: &MessagePage{Conversation: cv, Messages: byConversation[cv.ID], Agents: agents}})
	}
	return out, nil
}

// newestPerConversation keeps the newest n rows of each conversation
// among those the query selects: the query, privacy filters included,
// becomes a subquery numbering its rows per conversation, newest first.
// Filtering before numbering matters: a private note must not take the
// place of a message the visitor may read.
func newestPerConversation(n int) func(*sql.Selector) {
	return func(s *sql.Selector) {
		numbered := s.Clone()
		numbered.AppendSelectExprAs(sql.Expr(fmt.Sprintf("ROW_NUMBER() OVER (PARTITION BY %s ORDER BY %s DESC)",
			s.C(message.FieldConversationID), s.C(message.FieldID))), "row_in_conversation")
		s.SetP(nil).From(numbered.As(message.Table))
		s.Where(sql.LTE(s.C("row_in_conversation"), n))
	}
}

// Conversation is one of the visitor's conversations with its last
// messages.
func (s *Service) Conversation(ctx context.Context, _ *Visitor, displayID int) (*Thread, error) {
	cv, err := s.ownConversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	ts, err := s.threads(ctx, []*ent.Conversation{cv})
	if err != nil {
		return nil, err
	}
	return &ts[0], nil
}

// StartConversation opens a conversation for the visitor (or, when the
// inbox locks contacts to one conversation, answers their open one), with
// the account's defined conversation attributes among custom.
func (s *Service) StartConversation(ctx context.Context, v *Visitor, custom map[string]any) (*Thread, error) {
	var displayID int
	err := s.InTx(asChannel(ctx, v), func(ctx context.Context, c *ent.Client) error {
		cv, err := s.conversations.LockedConversation(ctx, c, v.ContactInbox)
		if err != nil || cv != nil {
			if cv != nil {
				displayID = cv.DisplayID
			}
			return err
		}
		cv, err = s.conversations.NewConversation(ctx, c, v.ContactInbox, conversations.ConversationInput{CustomAttributes: custom})
		if err != nil {
			return err
		}
		displayID = cv.DisplayID
		return s.conversations.EmitConversationEvent(ctx, c, events.ConversationCreated, cv)
	})
	if err != nil {
		return nil, apperr.From(err)
	}
	return s.Conversation(ctx, v, displayID)
}

// Resolve resolves the visitor's conversation (a resolved one stays as it
// is), as the widget's "end conversation" does.
func (s *Service) Resolve(ctx context.Context, v *Visitor, displayID int) (*Thread, error) {
	cv, err := s.ownConversation(ctx, displayID)
	if err != nil {
		return nil, err
	}
	if cv.Status != conversation.StatusResolved {
		resolved := string(conversation.StatusResolved)
		if _, err := s.conversations.ToggleStatus(asChannel(ctx, v), displayID, &resolved, nil); err != nil {
			return nil, err
		}
	}
	return s.Conversation(ctx, v, displayID)
}

// Typing tells the agents' live listeners that the visitor started or
// stopped typing in their conversation. Nothing is stored, and no webhook
// is sent: it matters only while someone watches.
func (s *Service) Typing(ctx context.Context, _ *Visitor, displayID int, on bool) error {
	cv, err := s.ownConversation(ctx, displayID)
	if err != nil {
		return err
	}
	kind := events.ConversationTypingOff
	if on {
		kind = events.ConversationTypingOn
	}
	s.PublishAfterCommit(ctx, events.Event{AccountID: cv.AccountID, Kind: kind,
		ConversationID: cv.ID, InboxID: cv.InboxID, ContactID: cv.ContactID})
	return nil
}

// Seen records that the visitor has seen their conversation up to now:
// contact_last_seen_at, and the agents' messages sent before it become
// read (as Chatwoot's message status job does). The agents' live listeners
// hear conversation_updated; no webhook is sent, as Chatwoot sends none.
func (s *Service) Seen(ctx context.Context, v *Visitor, displayID int) error {
	cv, err := s.ownConversation(ctx, displayID)
	if err != nil {
		return err
	}
	now := s.Now()
	err = s.InTx(asChannel(ctx, v), func(ctx context.Context, c *ent.Client) error {
		if err := c.Conversation.UpdateOneID(cv.ID).SetContactLastSeenAt(now).Exec(ctx); err != nil {
			return err
		}
		_, err := c.Message.Update().Where(message.ConversationID(cv.ID),
			message.MessageTypeIn(message.MessageTypeOutgoing, message.MessageTypeTemplate),
			message.StatusIn(message.StatusSent, message.StatusDelivered), message.CreatedAtLTE(now)).
			SetStatus(message.StatusRead).Save(ctx)
		if err != nil {
			return err
		}
		return s.Notify(ctx, c, core.Change{Event: events.Event{AccountID: cv.AccountID, Kind: events.ConversationUpdated,
			ConversationID: cv.ID, InboxID: cv.InboxID, ContactID: cv.ContactID}})
	})
	return core.ApperrOrNil(err)
}
