package conversations

import (
	"context"
	"sync"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// New customers' first messages are stored together: those that arrive
// while another batch is being stored wait for it and then go in one
// transaction, set-based (contacts.NewSenders, then one INSERT of their
// conversations and one of their messages, their display ids taken in one
// statement). One at a time, a first message cost 13 round trips against
// a known customer's 9, and a burst of new customers (a campaign's
// answers, BenchmarkWhatsAppBurst's first hundred posts) made the p99 of
// the whole burst: 46-58 ms on PostgreSQL against 33-38 ms when every
// sender was known beforehand (docs/performance.md). A sender who turns
// out to be known (a contact by address, a contact inbox whose
// conversations are all resolved) goes the single way, as does everyone in
// a batch that fails. A message waiting for its batch does not give up
// when its request ends: a batch is one transaction, milliseconds long, and
// the one it waits for holds no turn another message needs.

// maxFirstBatch bounds the first messages stored in one transaction.
const maxFirstBatch = 32

// firstMessage is a first message waiting to be stored with others, and
// then what came of it.
type firstMessage struct {
	ctx   context.Context
	in    Inbound
	files []core.StoredFile
	done  chan struct{} // closed once the batch taking it is over
	lead  chan struct{} // closed when it is its turn to store a batch

	m        *ent.Message // the stored message (nil: go the single way)
	reserved int          // the display id taken for it (0: none)
}

// firstMessages is the queue of first messages waiting, one of whose
// senders' goroutines stores a batch at a time.
type firstMessages struct {
	mu      sync.Mutex
	pending []*firstMessage
	leading bool // someone is storing a batch or has been handed the turn
}

// receiveFirst stores in, which most likely starts its new sender's first
// conversation, together with the first messages waiting beside it. nil:
// it was not stored; it goes the single way, with the display id taken for
// it (0: none).
func (s *Service) receiveFirst(ctx context.Context, in Inbound, files []core.StoredFile) (m *ent.Message, reserved int) {
	it := &firstMessage{ctx: ctx, in: in, files: files, done: make(chan struct{}), lead: make(chan struct{})}
	if !s.firsts.enqueue(it) {
		select {
		case <-it.done:
			return it.m, it.reserved
		case <-it.lead:
		}
	}
	batch, followers := s.firsts.take()
	s.storeFirsts(batch)
	for _, f := range followers {
		close(f.done)
	}
	s.firsts.handOff()
	return it.m, it.reserved
}

// enqueue adds it to the queue and says whether its goroutine stores the
// next batch (nobody else is).
func (q *firstMessages) enqueue(it *firstMessage) (leads bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = append(q.pending, it)
	if q.leading {
		return false
	}
	q.leading = true
	return true
}

// take removes the next batch from the queue: the first waiting message
// (the leader's own) and the others to the same inbox, one per sender, at
// most maxFirstBatch; and the followers, messages of those senders beside
// them, which go the single way once the batch has made their sender.
func (q *firstMessages) take() (batch, followers []*firstMessage) {
	q.mu.Lock()
	defer q.mu.Unlock()
	head := q.pending[0]
	batch = []*firstMessage{head}
	senders := map[string]bool{head.in.From.SourceID: true}
	rest := q.pending[:0]
	for _, it := range q.pending[1:] {
		switch {
		case it.in.Inbox.ID != head.in.Inbox.ID:
			rest = append(rest, it)
		case senders[it.in.From.SourceID]:
			followers = append(followers, it)
		case len(batch) < maxFirstBatch:
			senders[it.in.From.SourceID] = true
			batch = append(batch, it)
		default:
			rest = append(rest, it)
		}
	}
	clear(q.pending[len(rest):])
	q.pending = rest
	return batch, followers
}

// handOff gives the turn to the first message still waiting, if any.
func (q *firstMessages) handOff() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) == 0 {
		q.leading = false
		return
	}
	close(q.pending[0].lead)
}

// storeFirsts stores batch in one transaction, with the context of its
// first message (all are to one inbox, so one account). Whatever fails
// leaves every message to the single way, which says why.
func (s *Service) storeFirsts(batch []*firstMessage) {
	defer func() {
		for _, it := range batch {
			close(it.done)
		}
	}()
	ctx := batch[0].ctx
	if s.takesDisplayIDsApart(ctx) {
		first, err := s.reserveDisplayIDs(ctx, len(batch))
		if err != nil {
			return
		}
		for i, it := range batch {
			it.reserved = first + i
		}
	}
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		return s.storeFirstsIn(ctx, c, batch)
	})
	if err != nil {
		for _, it := range batch {
			it.m = nil
		}
	}
}

// storeFirstsIn stores, in c's transaction, the messages of batch whose
// senders are new: their contacts and contact inboxes, conversations and
// messages, each kind with one INSERT, and the events of each (the
// messages' told together).
func (s *Service) storeFirstsIn(ctx context.Context, c *ent.Client, batch []*firstMessage) error {
	from := make([]contacts.Sender, len(batch))
	for i, it := range batch {
		from[i] = it.in.From
	}
	cis, err := s.contacts.NewSenders(ctx, c, batch[0].in.Inbox, from)
	if err != nil {
		return err
	}
	var news []*firstMessage
	var made []*ent.ContactInbox
	for i, ci := range cis {
		if ci != nil {
			news, made = append(news, batch[i]), append(made, ci)
		}
	}
	if len(news) == 0 {
		return nil
	}
	cvs, err := s.startFirsts(ctx, c, news, made)
	if err != nil {
		return err
	}
	creates := make([]*ent.MessageCreate, len(news))
	for i, it := range news {
		creates[i] = inboundMessage(c, cvs[i], it.in)
	}
	ms, err := insertMessages(ctx, c, creates, func(i int) []core.StoredFile { return news[i].files })
	if err != nil {
		return err
	}
	// Told together: one read of the conversations for their payloads and
	// one INSERT of their webhook deliveries, as a batch of schedules.
	if err := s.emitMessageEvents(ctx, c, events.MessageCreated, ms, nil); err != nil {
		return err
	}
	for i, m := range ms {
		news[i].m = m
	}
	return nil
}

// startFirsts starts the conversations of the new contact inboxes cis of
// firsts, numbered as reserved for them (else taken here), with their
// first message's activity, as startInbound starts one.
func (s *Service) startFirsts(ctx context.Context, c *ent.Client, firsts []*firstMessage, cis []*ent.ContactInbox) ([]*ent.Conversation, error) {
	next := 0
	if firsts[0].reserved == 0 {
		var err error
		if next, err = s.nextDisplayIDs(ctx, c, len(firsts)); err != nil {
			return nil, err
		}
	}
	creates := make([]*ent.ConversationCreate, len(firsts))
	for i, it := range firsts {
		displayID := it.reserved
		if next != 0 {
			displayID = next + i
		}
		create, err := s.conversationCreate(ctx, c, cis[i], ConversationInput{incoming: true}, displayID)
		if err != nil {
			return nil, err
		}
		creates[i] = create
	}
	cvs, err := c.Conversation.CreateBulk(creates...).Save(ctx)
	if err != nil {
		return nil, err
	}
	for _, cv := range cvs {
		if err := s.EmitConversationEvent(ctx, c, events.ConversationCreated, cv); err != nil {
			return nil, err
		}
	}
	return cvs, nil
}
