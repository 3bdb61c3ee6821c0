package visitors

import (
	"context"
	"strings"
	"sync"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/contactinbox"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Bounds of the visitors' live sockets, per process.
const (
	MaxSockets           = 10_000
	MaxSocketsPerVisitor = 5
	// ownedMemo bounds what a stream remembers of which conversations are
	// the visitor's.
	ownedMemo = 1024
)

// sockets counts the open visitor sockets.
type sockets struct {
	mu         sync.Mutex
	total      int
	perVisitor map[int]int
}

func (c *sockets) take(contactInboxID int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total >= MaxSockets || c.perVisitor[contactInboxID] >= MaxSocketsPerVisitor {
		return false
	}
	c.total++
	c.perVisitor[contactInboxID]++
	return true
}

func (c *sockets) release(contactInboxID int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total--
	if c.perVisitor[contactInboxID]--; c.perVisitor[contactInboxID] <= 0 {
		delete(c.perVisitor, contactInboxID)
	}
}

// Stream is a visitor's live feed: the account's events, of which Pick
// keeps the visitor's own.
type Stream struct {
	s       *Service
	ctx     context.Context // reading as the visitor
	Visitor *Visitor
	owned   map[int]bool // conversation id → the visitor's
	once    sync.Once
}

// ErrSocketsFull is why a socket is refused when the visitor, or the
// process, has as many as it may.
var ErrSocketsFull = apperr.TooManyRequests("Too many live connections for this visitor: close one first", 0)

// Follow authenticates a visitor's socket by the pubsub token they got
// when they were created, within the sockets' bounds. Close releases it.
func (s *Service) Follow(ctx context.Context, inboxID, token string) (*Stream, error) {
	ib, err := s.PublicInbox(ctx, inboxID)
	if err != nil {
		return nil, err
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return nil, apperr.Unauthenticated("Send the pubsub_token the contact was created with")
	}
	// The token names the visitor: only its contact inbox's source id is
	// read, as the channel; the rest is read as the visitor.
	sourceID, err := s.DB.ContactInbox.Query().Where(contactinbox.InboxID(ib.ID),
		contactinbox.PubsubTokenHash(core.HashToken(token))).
		Select(contactinbox.FieldSourceID).String(core.AsChannel(ctx, ib.AccountID))
	if ent.IsNotFound(err) {
		return nil, apperr.Unauthenticated("Invalid pubsub_token for this inbox")
	}
	if err != nil {
		return nil, apperr.From(err)
	}
	ctx = viewer.VisitorContext(ctx, ib.AccountID, ib.ID, sourceID)
	v, err := s.load(ctx, ib)
	if err != nil {
		return nil, err
	}
	if ib.Channel.HMACMandatory && !v.ContactInbox.HmacVerified {
		return nil, unverified()
	}
	if !s.sockets.take(v.ContactInbox.ID) {
		return nil, ErrSocketsFull
	}
	return &Stream{s: s, ctx: ctx, Visitor: v, owned: map[int]bool{}}, nil
}

// Close releases the stream's place among the sockets.
func (st *Stream) Close() { st.once.Do(func() { st.s.sockets.release(st.Visitor.ContactInbox.ID) }) }

// Update is what one event means to the visitor: a message of theirs
// created or changed (Page holds it, with its sender), or their
// conversation's new status.
type Update struct {
	Kind         events.Kind
	Seq          uint64
	Page         *MessagePage
	Conversation *ent.Conversation
}

// Pick is what e means to the visitor, or false when it is none of
// theirs: private notes and activity lines never reach them.
func (st *Stream) Pick(e events.Event) (*Update, bool) {
	switch e.Kind {
	case events.ConversationStatusChanged, events.MessageCreated, events.MessageUpdated:
	default:
		return nil, false
	}
	if e.InboxID != st.Visitor.Inbox.ID || e.ConversationID == 0 || !st.mine(e.ConversationID) {
		return nil, false
	}
	c := st.s.Client(st.ctx)
	cv, err := c.Conversation.Query().Where(conversation.ID(e.ConversationID)).WithContact().Only(st.ctx)
	if err != nil {
		return nil, false
	}
	if e.Kind == events.ConversationStatusChanged {
		return &Update{Kind: e.Kind, Seq: e.Seq, Conversation: cv}, true
	}
	ok, err := c.Message.Query().Where(message.ID(e.MessageID)).Exist(st.ctx)
	if err != nil || !ok {
		return nil, false
	}
	p, err := st.s.pageOf(st.ctx, cv, e.MessageID)
	if err != nil {
		return nil, false
	}
	return &Update{Kind: e.Kind, Seq: e.Seq, Page: p, Conversation: cv}, true
}

// mine says whether a conversation is the visitor's, remembering the
// answer (a conversation's contact changes only in a merge, after which
// the visitor reconnects).
func (st *Stream) mine(conversationID int) bool {
	if ok, known := st.owned[conversationID]; known {
		return ok
	}
	ok, err := st.s.Client(st.ctx).Conversation.Query().
		Where(conversation.ID(conversationID)).Exist(st.ctx)
	if err != nil {
		return false
	}
	if len(st.owned) >= ownedMemo {
		clear(st.owned)
	}
	st.owned[conversationID] = ok
	return ok
}
