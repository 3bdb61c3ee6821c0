package graph

import (
	"context"
	"io"
	"log/slog"

	"github.com/99designs/gqlgen/graphql"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/ops"
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
