package graph

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/attachment"
	"github.com/switchboard/switchboard/ent/predicate"
	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/kanban"
	"github.com/switchboard/switchboard/internal/ops"
)

// loaders batch the reads that ent's field collection cannot plan: the
// files of messages and schedules (Attachment is not a GraphQL type, so
// entgql does not eager-load it). A list of n messages then reads its files
// in one statement instead of n. They live for one response (a query's, or
// one subscription event's), run as the request's viewer (the first caller's
// context: every caller in a response is the same viewer), and cache
// nothing past it.
type loaders struct {
	messageFiles  *dataloadgen.Loader[int, []*ent.Attachment]
	scheduleFiles *dataloadgen.Loader[int, []*ent.Attachment]
	inboxes       *dataloadgen.Loader[int, *ent.Inbox]
}

type loadersKey struct{}

func newLoaders(svc *ops.Service, client *ent.Client) *loaders {
	return &loaders{
		messageFiles: dataloadgen.NewLoader(filesBy(client, attachment.MessageIDIn,
			func(a *ent.Attachment) *int { return a.MessageID })),
		scheduleFiles: dataloadgen.NewLoader(filesBy(client, attachment.ScheduledMessageIDIn,
			func(a *ent.Attachment) *int { return a.ScheduledMessageID })),
		inboxes: dataloadgen.NewLoader(inboxesBy(svc, client)),
	}
}

// inboxesBy reads many inboxes (those of a page of conversations or of
// contact inboxes) in one statement, or from the inboxes' memory (what a
// member of the account read); one the viewer may not see is not found.
func inboxesBy(svc *ops.Service, client *ent.Client) func(context.Context, []int) ([]*ent.Inbox, []error) {
	return func(ctx context.Context, ids []int) ([]*ent.Inbox, []error) {
		byID, err := svc.InboxesOf(ctx, client, ids)
		if err != nil {
			return nil, []error{err}
		}
		out, errs := make([]*ent.Inbox, len(ids)), make([]error, len(ids))
		for i, id := range ids {
			if out[i] = byID[id]; out[i] == nil {
				errs[i] = apperr.NotFound("Inbox")
			}
		}
		return out, errs
	}
}

// filesBy reads the files of many owners (messages or schedules) in one
// statement, in id order, as one list per key.
func filesBy(client *ent.Client, ownedBy func(...int) predicate.Attachment, owner func(*ent.Attachment) *int) func(context.Context, []int) ([][]*ent.Attachment, []error) {
	return func(ctx context.Context, keys []int) ([][]*ent.Attachment, []error) {
		atts, err := client.Attachment.Query().Where(ownedBy(keys...)).
			Order(ent.Asc(attachment.FieldID)).All(ctx)
		if err != nil {
			return nil, []error{err}
		}
		byOwner := map[int][]*ent.Attachment{}
		for _, a := range atts {
			if o := owner(a); o != nil {
				byOwner[*o] = append(byOwner[*o], a)
			}
		}
		out := make([][]*ent.Attachment, len(keys))
		for i, k := range keys {
			out[i] = byOwner[k]
		}
		return out, nil
	}
}

// withLoaders gives each response its own loaders, made at the first read
// that needs one (lazyLoaders).
func withLoaders(svc *ops.Service, client *ent.Client) graphql.ResponseMiddleware {
	return func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
		return next(context.WithValue(ctx, loadersKey{}, &lazyLoaders{svc: svc, client: client}))
	}
}

// lazyLoaders are a response's loaders before they are needed: most
// responses (a contact, a card, a mutation's answer) read nothing through
// them, and making all three for every response was 1.6 % of the bytes
// GraphQL's contact allocated (docs/performance.md, fifteenth session).
// Resolvers run concurrently, hence the Once.
type lazyLoaders struct {
	once   sync.Once
	svc    *ops.Service
	client *ent.Client
	made   *loaders
}

// loadersOf is the response's loaders, nil outside one.
func loadersOf(ctx context.Context) *loaders {
	z, _ := ctx.Value(loadersKey{}).(*lazyLoaders)
	if z == nil {
		return nil
	}
	z.once.Do(func() { z.made = newLoaders(z.svc, z.client) })
	return z.made
}

// messageFiles is a message's files: loaded with it (a mutation's answer),
// else batched with the other messages of the response.
func messageFiles(ctx context.Context, m *ent.Message) ([]*ent.Attachment, error) {
	if atts, err := m.Edges.AttachmentsOrErr(); err == nil {
		return atts, nil
	}
	if l := loadersOf(ctx); l != nil {
		return l.messageFiles.Load(ctx, m.ID)
	}
	return m.QueryAttachments().Order(ent.Asc(attachment.FieldID)).All(ctx)
}

// scheduleFiles is messageFiles for a scheduled message.
func scheduleFiles(ctx context.Context, s *ent.ScheduledMessage) ([]*ent.Attachment, error) {
	if atts, err := s.Edges.AttachmentsOrErr(); err == nil {
		return atts, nil
	}
	if l := loadersOf(ctx); l != nil {
		return l.scheduleFiles.Load(ctx, s.ID)
	}
	return s.QueryAttachments().Order(ent.Asc(attachment.FieldID)).All(ctx)
}

// conversationInbox is a conversation's inbox: loaded with it (when the
// query selects it), else batched with the other conversations' of the
// response.
func conversationInbox(ctx context.Context, cv *ent.Conversation) (*ent.Inbox, error) {
	if ib, err := cv.Edges.InboxOrErr(); err == nil {
		return ib, nil
	}
	if l := loadersOf(ctx); l != nil {
		return l.inboxes.Load(ctx, cv.InboxID)
	}
	return cv.QueryInbox().Only(ctx)
}

// contactInboxInbox is a contact inbox's inbox: given with it (a contact
// read by the contacts' operations), else from the inboxes' memory at once,
// else batched with the other inboxes of the response (a batch waits a
// moment for the others).
func contactInboxInbox(ctx context.Context, svc *ops.Service, ci *ent.ContactInbox) (*ent.Inbox, error) {
	if ib, err := ci.Edges.InboxOrErr(); err == nil && ib != nil {
		return ib, nil
	}
	if ib, ok := svc.RememberedInbox(ctx, ci.AccountID, ci.InboxID); ok {
		return ib, nil
	}
	if l := loadersOf(ctx); l != nil {
		return l.inboxes.Load(ctx, ci.InboxID)
	}
	return svc.InboxOf(ctx, svc.Client(ctx), ci.AccountID, ci.InboxID)
}

// boardStages is a funnel's stages in board order. Field collection loads
// them with the funnels of a page (one statement for all of them, however
// deep the selection under them); a funnel from elsewhere reads its own.
func boardStages(ctx context.Context, f *ent.Funnel) ([]*ent.FunnelStage, error) {
	stages, err := f.Stages(ctx)
	if err != nil {
		return nil, err
	}
	return kanban.InBoardOrder(stages), nil
}
