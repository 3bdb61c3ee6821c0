package conversations

import (
	"context"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/account"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/inbox"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/wire"
)

// Channel delivery of outgoing messages. A message to deliver has its
// next_delivery_at set in the transaction that creates it; the job runner
// claims it when due, sends it through its channel and records the outcome
// here. Delivery runs as the system: no caller is involved any more.

// DeliveryJobs loads what channels need to send messages ids, all read
// together: eager loads cost a statement an edge, whatever the number of
// messages, so a burst's deliveries share them. A message that is gone, or
// whose conversation or inbox is (its inbox went, taking it along), has no
// job: nothing is left to deliver to.
func (s *Service) DeliveryJobs(ctx context.Context, ids []int) (map[int]*delivery.Job, error) {
	ctx = core.AsBackgroundWork(ctx)
	ms, err := s.Client(ctx).Message.Query().Where(message.IDIn(ids...)).
		WithConversation(func(q *ent.ConversationQuery) {
			q.WithInbox().WithContact().WithContactInbox()
		}).WithAttachments().All(ctx)
	if err != nil {
		return nil, err
	}
	accounts, err := s.accountsOf(ctx, ms)
	if err != nil {
		return nil, err
	}
	jobs := make(map[int]*delivery.Job, len(ms))
	for _, m := range ms {
		cv, acc := m.Edges.Conversation, accounts[m.AccountID]
		if cv == nil || cv.Edges.Inbox == nil || acc == nil {
			continue
		}
		job := &delivery.Job{Message: m, Conversation: cv, Inbox: cv.Edges.Inbox, Contact: cv.Edges.Contact}
		if ci := cv.Edges.ContactInbox; ci != nil {
			job.SourceID = ci.SourceID
		}
		job.Payload = wire.MessageEvent(string(events.MessageCreated), m, cv, acc)
		jobs[m.ID] = job
	}
	return jobs, nil
}

// accountsOf reads the accounts of messages ms, by id.
func (s *Service) accountsOf(ctx context.Context, ms []*ent.Message) (map[int]*ent.Account, error) {
	ids := make([]int, len(ms))
	for i, m := range ms {
		ids[i] = m.AccountID
	}
	accs, err := s.Client(ctx).Account.Query().Where(account.IDIn(core.UniqueInts(ids)...)).All(ctx)
	if err != nil {
		return nil, err
	}
	return core.ByID(accs, func(a *ent.Account) int { return a.ID }), nil
}

// MarkDelivered records that the channel accepted message m (as its
// delivery read it), in a transaction of its own: RecordDelivered for one.
func (s *Service) MarkDelivered(ctx context.Context, m *ent.Message, sourceID string) error {
	return s.InTx(core.AsBackgroundWork(ctx), func(ctx context.Context, c *ent.Client) error {
		return s.RecordDelivered(ctx, c, []Delivered{{Message: m, SourceID: sourceID}})
	})
}

// MarkFailed records that message m could not be delivered, with the
// reason in content_attributes.external_error (as Chatwoot).
func (s *Service) MarkFailed(ctx context.Context, m *ent.Message, reason string) error {
	return s.finishDelivery(ctx, m, func(ctx context.Context, c *ent.Client, u *ent.MessageUpdateOne) error {
		// The attributes as they are now, to add the reason to.
		current, err := c.Message.Get(ctx, m.ID)
		if err != nil {
			return err
		}
		u.SetStatus(message.StatusFailed).SetDeliveryError(reason).
			SetContentAttributes(core.MergeAttributes(current.ContentAttributes, map[string]any{"external_error": reason}))
		return nil
	})
}

// finishDelivery ends message m's delivery (asDeliveryRecord) and emits
// message_updated, in one transaction; set adds the outcome to the update.
func (s *Service) finishDelivery(ctx context.Context, m *ent.Message, set func(context.Context, *ent.Client, *ent.MessageUpdateOne) error) error {
	return s.InTx(core.AsBackgroundWork(ctx), func(ctx context.Context, c *ent.Client) error {
		mctx := asDeliveryRecord(ctx, m.AccountID)
		u := c.Message.UpdateOneID(m.ID).ClearNextDeliveryAt().AddDeliveryAttempts(1)
		if err := set(mctx, c, u); err != nil {
			return err
		}
		updated, err := u.Save(mctx)
		if err != nil {
			return err
		}
		return s.deliveriesEnded(ctx, c, []*ent.Message{updated})
	})
}

// deliveriesEnded tells what hears of settled deliveries, and the
// listeners of message_updated, that the deliveries of ms ended.
func (s *Service) deliveriesEnded(ctx context.Context, c *ent.Client, ms []*ent.Message) error {
	for _, settle := range s.settled {
		if err := settle(ctx, c, ms); err != nil {
			return err
		}
	}
	return s.emitMessageEvents(ctx, c, events.MessageUpdated, ms, nil)
}

// RetryDelivery records a failed attempt at message m (reason) and
// schedules another at wait from now; it returns the number of attempts
// made so far.
func (s *Service) RetryDelivery(ctx context.Context, m *ent.Message, wait time.Duration, reason string) (int, error) {
	ctx = asDeliveryRecord(ctx, m.AccountID)
	updated, err := s.Client(ctx).Message.UpdateOneID(m.ID).AddDeliveryAttempts(1).SetDeliveryError(reason).
		SetNextDeliveryAt(s.Now().Add(wait)).Save(ctx)
	if err != nil {
		return 0, err
	}
	return updated.DeliveryAttempts, nil
}

// asDeliveryRecord is ctx writing a delivery's outcome on a message of
// account: as that account's system, so that the write stays inside the
// account and the caches know it as that account's, which forgets only
// that account's conversation pages (core.Scoped). What the delivery's end
// then settles (the schedules that posted the messages, the events) is
// written as the caller: none of it is on a page, and the account filter
// the rules add to those statements let PostgreSQL's generic plans read
// the schedules through the account's index, 1.75 ms a one-row update
// instead of 0.12 (docs/performance.md).
func asDeliveryRecord(ctx context.Context, account int) context.Context {
	return core.AsAccountSystem(ctx, account, 0)
}

// DeliveryAttempts returns how many attempts a message's delivery has had.
func (s *Service) DeliveryAttempts(ctx context.Context, id int) (int, error) {
	m, err := s.Client(ctx).Message.Get(core.AsBackgroundWork(ctx), id)
	if err != nil {
		return 0, err
	}
	return m.DeliveryAttempts, nil
}

// EmitMessageEvent tells the listeners of kind on m; its payload reads m's
// conversation and contact as they are now.
func (s *Service) EmitMessageEvent(ctx context.Context, c *ent.Client, kind events.Kind, m *ent.Message) error {
	return s.Notify(ctx, c, s.messageChange(ctx, c, kind, m, func() (*ent.Conversation, error) {
		return c.Conversation.Query().Where(conversation.ID(m.ConversationID)).WithContact().Only(ctx)
	}))
}

// messageChange is the change kind of m, its payload built with m's
// conversation (and its contact) from conversationOf, which a batch reads
// once for all its messages.
func (s *Service) messageChange(ctx context.Context, c *ent.Client, kind events.Kind, m *ent.Message, conversationOf func() (*ent.Conversation, error)) core.Change {
	ev := events.Event{AccountID: m.AccountID, Kind: kind, ConversationID: m.ConversationID, MessageID: m.ID, InboxID: m.InboxID}
	return core.Change{Event: ev, Payload: func() (map[string]any, error) {
		cv, err := conversationOf()
		if err != nil {
			return nil, err
		}
		if cv.Edges.Inbox, err = s.payloadInbox(ctx, c, cv.InboxID); err != nil {
			return nil, err
		}
		acc, err := s.payloadAccount(ctx, c, m.AccountID)
		if err != nil {
			return nil, err
		}
		return wire.MessageEvent(string(kind), m, cv, acc), nil
	}}
}

// payloadInbox and payloadAccount are TxMemo keys: a batch (a burst's
// firings, a group of delivery records) builds many message payloads in
// one transaction, each naming the same inbox and account, which no message
// change alters. The conversation and its contact are read each time: a
// new message moves their last activity.
type (
	payloadInboxKey   int
	payloadAccountKey int
)

// payloadInbox is the inbox a message payload names, read once per
// transaction.
func (s *Service) payloadInbox(ctx context.Context, c *ent.Client, id int) (*ent.Inbox, error) {
	v, err := s.TxMemo(ctx, payloadInboxKey(id), func() (any, error) {
		// As an eager load would: an inbox the viewer may not read is no
		// error, the payload leaves it out.
		ibs, err := c.Inbox.Query().Where(inbox.ID(id)).All(ctx)
		if err != nil || len(ibs) == 0 {
			return (*ent.Inbox)(nil), err
		}
		return ibs[0], nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*ent.Inbox), nil
}

// payloadAccount is the account a message payload names, read once per
// transaction.
func (s *Service) payloadAccount(ctx context.Context, c *ent.Client, id int) (*ent.Account, error) {
	v, err := s.TxMemo(ctx, payloadAccountKey(id), func() (any, error) {
		return c.Account.Get(core.AsBackgroundWork(ctx), id)
	})
	if err != nil {
		return nil, err
	}
	return v.(*ent.Account), nil
}
