package graph

import (
	"context"
	"slices"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/viewer"
)

// The account-wide subscriptions: each event names a row by id, and the row
// is loaded through the subscriber's context, so the same privacy rules as a
// query decide whether the subscriber hears of it (a row it may not read
// fails to load, and the event is skipped).

// sequence is an event's number in its account's stream, as clients see it.
func sequence(e events.Event) int { return int(e.Seq) }

// accountOf is the account the subscriber follows.
func accountOf(ctx context.Context) int {
	v, _ := viewer.FromContext(ctx)
	return v.AccountID
}

// visible loads a row named by a subscription's argument as the
// subscriber: one it may not read is not found, as one that does not exist.
func visible[T any](ctx context.Context, typ string, load func(context.Context, int) (T, error), id int) error {
	_, err := load(ctx, id)
	if ent.IsNotFound(err) {
		return apperr.NotFound(typ)
	}
	return err
}

// conversationsOf streams the conversation events of kinds; with
// conversationID (not 0), of that conversation only.
func (r *Resolver) conversationsOf(ctx context.Context, conversationID int, kinds ...events.Kind) (<-chan *model.ConversationEvent, error) {
	if conversationID != 0 {
		if err := visible(ctx, "Conversation", r.client.Conversation.Get, conversationID); err != nil {
			return nil, err
		}
	}
	return stream(ctx, r.events, accountOf(ctx), func(e events.Event) (*model.ConversationEvent, bool) {
		if !slices.Contains(kinds, e.Kind) || conversationID != 0 && e.ConversationID != conversationID {
			return nil, false
		}
		cv, err := r.client.Conversation.Get(ctx, e.ConversationID)
		if err != nil {
			return nil, false
		}
		return &model.ConversationEvent{Sequence: sequence(e), Kind: string(e.Kind), Conversation: cv}, true
	}), nil
}

// messageEventsOf streams the message events of kind; with conversationID
// (not 0), of that conversation's messages only.
func (r *Resolver) messageEventsOf(ctx context.Context, conversationID int, kind events.Kind) (<-chan *model.MessageEvent, error) {
	if conversationID != 0 {
		if err := visible(ctx, "Conversation", r.client.Conversation.Get, conversationID); err != nil {
			return nil, err
		}
	}
	return stream(ctx, r.events, accountOf(ctx), func(e events.Event) (*model.MessageEvent, bool) {
		if e.Kind != kind || conversationID != 0 && e.ConversationID != conversationID {
			return nil, false
		}
		m, err := r.client.Message.Get(ctx, e.MessageID)
		if err != nil {
			return nil, false
		}
		return &model.MessageEvent{Sequence: sequence(e), Kind: string(e.Kind), Message: m}, true
	}), nil
}

// contactsOf streams the contact events of kind; with contactID (not 0),
// of that contact only.
func (r *Resolver) contactsOf(ctx context.Context, contactID int, kind events.Kind) (<-chan *model.ContactEvent, error) {
	if contactID != 0 {
		if err := visible(ctx, "Contact", r.client.Contact.Get, contactID); err != nil {
			return nil, err
		}
	}
	return stream(ctx, r.events, accountOf(ctx), func(e events.Event) (*model.ContactEvent, bool) {
		if e.Kind != kind || contactID != 0 && e.ContactID != contactID {
			return nil, false
		}
		ct, err := r.client.Contact.Get(ctx, e.ContactID)
		if err != nil {
			return nil, false
		}
		return &model.ContactEvent{Sequence: sequence(e), Kind: string(e.Kind), Contact: ct}, true
	}), nil
}

// typingOf streams the visitor's and the agents' typing in a conversation
// the subscriber may read. Nothing about typing is stored, so the
// conversation is loaded again for each event: an agent taken out of its
// inbox stops hearing it.
func (r *Resolver) typingOf(ctx context.Context, conversationID int) (<-chan *model.TypingEvent, error) {
	if err := visible(ctx, "Conversation", r.client.Conversation.Get, conversationID); err != nil {
		return nil, err
	}
	return stream(ctx, r.events, accountOf(ctx), func(e events.Event) (*model.TypingEvent, bool) {
		on := e.Kind == events.ConversationTypingOn
		if !on && e.Kind != events.ConversationTypingOff || e.ConversationID != conversationID {
			return nil, false
		}
		if _, err := r.client.Conversation.Get(ctx, conversationID); err != nil {
			return nil, false
		}
		ev := &model.TypingEvent{Sequence: sequence(e), ConversationID: conversationID, Typing: on}
		if e.UserID != 0 {
			ev.Agent, _ = r.client.User.Get(ctx, e.UserID) // null if it cannot be read
		} else {
			ev.Contact, _ = r.client.Contact.Get(ctx, e.ContactID)
		}
		return ev, true
	}), nil
}
