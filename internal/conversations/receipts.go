package conversations

import (
	"context"
	"maps"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// statusRank orders the statuses a receipt may move a message through: a
// late "sent" never takes back "read" (receipts arrive out of order).
var statusRank = map[message.Status]int{
	message.StatusSent: 0, message.StatusDelivered: 1, message.StatusRead: 2,
}

// Receipt is what a channel reports of a message it carried: its status,
// and for a failure the channel's reason.
type Receipt struct {
	Inbox *ent.Inbox
	// SourceID is the channel's id of the message (what it answered when
	// the message was sent).
	SourceID string
	Status   message.Status
	Reason   string
}

// RecordReceipt moves the inbox's message with the receipt's source id to
// its status and tells the listeners (message_updated). A status behind the
// message's (a late "sent" after "read") changes nothing; a failure records
// the reason in content_attributes.external_error, as a failed delivery
// does. A receipt for a message the inbox does not know (sent outside
// Switchboard) is ignored: it answers nil.
func (s *Service) RecordReceipt(ctx context.Context, r Receipt) (*ent.Message, error) {
	ctx = core.AsChannel(ctx, r.Inbox.AccountID)
	var out *ent.Message
	err := s.InTx(ctx, func(ctx context.Context, c *ent.Client) error {
		m, err := c.Message.Query().Where(message.InboxID(r.Inbox.ID), message.SourceID(r.SourceID),
			message.MessageTypeNEQ(message.MessageTypeIncoming)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil
		}
		if err != nil || !advances(m.Status, r.Status) {
			return err
		}
		u := m.Update().SetStatus(r.Status)
		switch {
		case r.Status == message.StatusFailed:
			u.SetDeliveryError(r.Reason).
				SetContentAttributes(core.MergeAttributes(m.ContentAttributes, map[string]any{"external_error": r.Reason}))
		case m.Status == message.StatusFailed:
			// Delivered after all: the failure's error no longer stands.
			attrs := maps.Clone(m.ContentAttributes)
			delete(attrs, "external_error")
			u.SetDeliveryError("").SetContentAttributes(attrs)
		}
		if out, err = u.Save(ctx); err != nil {
			return err
		}
		return s.EmitMessageEvent(ctx, c, events.MessageUpdated, out)
	})
	return out, core.ApperrOrNil(err)
}

// advances reports whether a receipt of status next changes a message that
// is at cur: forward through sent, delivered, read; failed unless read.
func advances(cur, next message.Status) bool {
	if next == message.StatusFailed {
		return cur != message.StatusFailed && cur != message.StatusRead
	}
	if cur == message.StatusFailed {
		return true // the channel delivered it after all
	}
	return statusRank[next] > statusRank[cur]
}
