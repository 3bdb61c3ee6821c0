package graph

import (
	"context"
	"io"
	"log/slog"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/ops"
	"github.com/switchboard/switchboard/internal/viewer"
)

// messagesOf streams the messages created in a conversation the viewer may
// see, until the subscription's context ends (client gone, or shutdown).
func (r *Resolver) messagesOf(ctx context.Context, displayID int) (<-chan *ent.Message, error) {
	cv, err := r.svc.Conversation(ctx, displayID) // 404 unless the viewer may see it
	if err != nil {
		return nil, err
	}
	events, cancel := r.events.Subscribe(cv.AccountID)
	out := make(chan *ent.Message, 1)
	go func() {
		defer close(out)
		defer cancel()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-events:
				if !ok {
					return
				}
				if e.Kind != "message_created" || e.ConversationID != cv.ID {
					continue
				}
				// Read as the subscriber: its privacy rules still apply.
				m, err := r.client.Message.Query().Where(message.ID(e.MessageID)).Only(ctx)
				if err != nil {
					if ctx.Err() == nil {
						slog.Warn("subscription could not load message", "id", e.MessageID, "err", err)
					}
					continue
				}
				select {
				case out <- m:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}

// uploads turns GraphQL uploads into the operation's uploads.
func uploads(in []*graphql.Upload) []ops.Upload {
	out := make([]ops.Upload, 0, len(in))
	for _, u := range in {
		u := u
		out = append(out, ops.Upload{
			Name: u.Filename, ContentType: u.ContentType, Size: u.Size,
			Open: func() (io.ReadCloser, error) { return io.NopCloser(u.File), nil },
		})
	}
	return out
}

// schedulesOf streams the schedules of the account (or of one conversation,
// by display id) as they change, until the subscription's context ends.
func (r *Resolver) schedulesOf(ctx context.Context, displayID int) (<-chan *ent.ScheduledMessage, error) {
	v, _ := viewer.FromContext(ctx)
	conversationID := 0
	if displayID != 0 {
		cv, err := r.svc.Conversation(ctx, displayID) // 404 unless the viewer may see it
		if err != nil {
			return nil, err
		}
		conversationID = cv.ID
	}
	events, cancel := r.events.Subscribe(v.AccountID)
	out := make(chan *ent.ScheduledMessage, 1)
	go func() {
		defer close(out)
		defer cancel()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-events:
				if !ok {
					return
				}
				if e.Kind != "scheduled_message_updated" {
					continue
				}
				// Read as the subscriber: schedules it may not see are skipped.
				sm, err := r.svc.ScheduledMessage(ctx, ops.ScheduleScope{}, e.ScheduleID)
				if err != nil || conversationID != 0 && (sm.ConversationID == nil || *sm.ConversationID != conversationID) {
					continue
				}
				select {
				case out <- sm:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}

// boardOf streams every change of a funnel's cards, until the
// subscription's context ends. A deleted card comes without its item.
func (r *Resolver) boardOf(ctx context.Context, funnelID int) (<-chan *model.KanbanBoardEvent, error) {
	f, err := r.svc.Funnel(ctx, funnelID) // 404 unless the viewer may see it
	if err != nil {
		return nil, err
	}
	events, cancel := r.events.Subscribe(f.AccountID)
	out := make(chan *model.KanbanBoardEvent, 1)
	go func() {
		defer close(out)
		defer cancel()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-events:
				if !ok {
					return
				}
				if !strings.HasPrefix(e.Kind, "kanban_item.") || e.FunnelID != funnelID {
					continue
				}
				ev := &model.KanbanBoardEvent{Kind: strings.TrimPrefix(e.Kind, "kanban_item."), ItemID: e.KanbanItemID}
				if ev.Kind != "deleted" {
					item, err := r.svc.Card(ctx, e.KanbanItemID)
					if err != nil {
						continue // gone again since: its deletion follows
					}
					ev.Item = item
				}
				select {
				case out <- ev:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out, nil
}
