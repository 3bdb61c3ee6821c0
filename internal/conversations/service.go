// Package conversations holds the operations on conversations and their
// messages: creation, status and assignment, the message thread and its
// attachments, templates and the reply window, and the outcome of each
// message's delivery through its channel.
package conversations

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/contacts"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/inboxes"
)

// DeliverySettled hears, inside the transaction that records it, that the
// deliveries of messages ms ended (sent or failed for good): one, or a
// group recorded together.
type DeliverySettled func(ctx context.Context, c *ent.Client, ms []*ent.Message) error

// Service runs the conversations' operations.
type Service struct {
	*core.Core
	contacts *contacts.Service
	inboxes  *inboxes.Service
	settled  []DeliverySettled
	// inbound holds a token per inbound message being stored
	// (inbound_admission.go).
	inbound chan struct{}
	// firsts are new customers' first messages waiting to be stored
	// together (receiveFirst).
	firsts firstMessages
	// lists are the conversation pages given a moment ago (list_cache.go).
	lists *core.Cache[listKey, *ConversationList]
}

// New returns the conversations' Service; contacts attaches the contacts
// a conversation is started with, inboxes reads a message's inbox.
func New(c *core.Core, ct *contacts.Service, ib *inboxes.Service) *Service {
	return &Service{Core: c, contacts: ct, inboxes: ib, inbound: make(chan struct{}, inboundSlots()),
		lists: newListCache(c)}
}

// OnDeliverySettled adds f to what hears of a settled delivery (the
// schedules whose message it was). It is called while the service is wired.
func (s *Service) OnDeliverySettled(f DeliverySettled) { s.settled = append(s.settled, f) }
