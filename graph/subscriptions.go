package graph

import (
	"context"
	"io"

	"github.com/99designs/gqlgen/graphql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/schedules"
	"github.com/switchboard/switchboard/internal/viewer"
)

// stream sends what pick makes of each event of the account (skipping the
// events it declines) until the subscription's context ends (client gone,
// or shutdown) or events may have been missed (the client fell behind, or
// another instance's events were lost): then the subscription completes,
// and the client refetches and subscribes again. pick reads as the
// subscriber, so its privacy rules still apply to what it loads.
func stream[T any](ctx context.Context, hub *events.Hub, accountID int, pick func(events.Event) (T, bool)) <-chan T {
	sub := hub.Subscribe(accountID)
	out := make(chan T, 1)
	go func() {
		defer close(out)
		defer sub.Cancel()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-sub.Events:
				if !ok || !sub.InOrder(e) {
					return
				}
				v, ok := pick(e)
				if !ok {
					continue
				}
				select {
				case out <- v:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// messagesOf streams the messages created in a conversation the viewer may
// see.
func (r *Resolver) messagesOf(ctx context.Context, displayID int) (<-chan *ent.Message, error) {
	cv, err := r.svc.Conversation(ctx, displayID) // 404 unless the viewer may see it
	if err != nil {
		return nil, err
	}
	return stream(ctx, r.events, cv.AccountID, func(e events.Event) (*ent.Message, bool) {
		if e.Kind != events.MessageCreated || e.ConversationID != cv.ID {
			return nil, false
		}
		m, err := r.client.Message.Query().Where(message.ID(e.MessageID)).Only(ctx)
		return m, err == nil
	}), nil
}

// schedulesOf streams the changes of the account's schedules (or of one
// conversation's, by display id). A deleted schedule comes as its id.
func (r *Resolver) schedulesOf(ctx context.Context, displayID int) (<-chan *model.ScheduledMessageEvent, error) {
	v, _ := viewer.FromContext(ctx)
	conversationID := 0
	if displayID != 0 {
		cv, err := r.svc.Conversation(ctx, displayID) // 404 unless the viewer may see it
		if err != nil {
			return nil, err
		}
		conversationID = cv.ID
	}
	return stream(ctx, r.events, v.AccountID, func(e events.Event) (*model.ScheduledMessageEvent, bool) {
		switch e.Kind {
		case events.ScheduledMessageDeleted:
			if conversationID != 0 && e.ConversationID != conversationID || !r.svc.WorksIn(ctx, e.InboxID) {
				return nil, false
			}
			return &model.ScheduledMessageEvent{Sequence: sequence(e), Kind: "deleted", ID: e.ScheduleID}, true
		case events.ScheduledMessageCreated, events.ScheduledMessageUpdated, events.ScheduledMessageSent, events.ScheduledMessageFailed:
			sm, err := r.svc.ScheduledMessage(ctx, schedules.ScheduleScope{}, e.ScheduleID)
			if err != nil || conversationID != 0 && (sm.ConversationID == nil || *sm.ConversationID != conversationID) {
				return nil, false
			}
			return &model.ScheduledMessageEvent{Sequence: sequence(e), Kind: "updated", ID: sm.ID, ScheduledMessage: sm}, true
		}
		return nil, false
	}), nil
}

// boardOf streams every change of a funnel's cards. A deleted card comes
// without its item.
func (r *Resolver) boardOf(ctx context.Context, funnelID int) (<-chan *model.KanbanBoardEvent, error) {
	f, err := r.svc.Funnel(ctx, funnelID) // 404 unless the viewer may see it
	if err != nil {
		return nil, err
	}
	return stream(ctx, r.events, f.AccountID, func(e events.Event) (*model.KanbanBoardEvent, bool) {
		if !e.OnBoard(funnelID) {
			return nil, false
		}
		ev := &model.KanbanBoardEvent{Sequence: sequence(e), Kind: e.Kind.CardAction(), ItemID: e.KanbanItemID}
		if ev.Kind == "deleted" {
			return ev, true
		}
		item, err := r.svc.Card(ctx, e.KanbanItemID)
		ev.Item = item
		return ev, err == nil // a card gone since: its deletion follows
	}), nil
}

// uploads turns GraphQL uploads into the operation's uploads.
func uploads(in []*graphql.Upload) []core.Upload {
	out := make([]core.Upload, 0, len(in))
	for _, u := range in {
		u := u
		out = append(out, core.Upload{
			Name: u.Filename, ContentType: u.ContentType, Size: u.Size,
			Open: func() (io.ReadCloser, error) { return io.NopCloser(u.File), nil },
		})
	}
	return out
}
