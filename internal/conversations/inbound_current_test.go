package conversations_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/conversation"
	"github.com/switchboard/switchboard/ent/message"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/testdb"
)

// A known sender's message is stored the short way: their conversation is
// read before the transaction, which only writes. When an agent resolves
// that conversation between the read and the write, the message does not
// land in the resolved conversation: it goes the whole way, as if it had
// arrived after the resolution (a new conversation; with
// lock_to_single_conversation the same one reopened), and is stored once.
func TestReceiveAfterTheConversationWasResolvedMeanwhile(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lock      bool
		sameAfter bool
	}{
		{"a new conversation", false, false},
		{"locked to a single conversation: reopened", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
				f := newInbound(t, e, tc.lock)
				first, _ := f.receive(t, "wamid.1", "Hello")
				cv, err := f.svc.DB.Conversation.Get(core.AsBackgroundWork(context.Background()), first.ConversationID)
				if err != nil {
					t.Fatal(err)
				}
				var armed atomic.Bool
				f.svc.DB.Conversation.Intercept(resolveAfterRead(t, f, cv.DisplayID, &armed))
				armed.Store(true)
				next, dup := f.receive(t, "wamid.2", "One more thing")
				if armed.Load() {
					t.Fatal("the message was stored without reading its conversation first")
				}
				if dup {
					t.Error("the message was taken for a redelivery")
				}
				if same := next.ConversationID == first.ConversationID; same != tc.sameAfter {
					t.Errorf("same conversation: %v, want %v", same, tc.sameAfter)
				}
				got, err := f.svc.DB.Conversation.Get(core.AsBackgroundWork(context.Background()), next.ConversationID)
				if err != nil || got.Status != conversation.StatusOpen {
					t.Errorf("the message's conversation is %v (%v), want open", got, err)
				}
				n, err := f.svc.DB.Message.Query().Where(message.SourceID("wamid.2")).Count(core.AsBackgroundWork(context.Background()))
				if err != nil || n != 1 {
					t.Errorf("wamid.2 stored %d times (%v), want once", n, err)
				}
			})
		})
	}
}

// resolveAfterRead resolves conversation displayID as an agent would, right
// after the first read of a conversation outside a transaction once armed.
func resolveAfterRead(t *testing.T, f inboundFixture, displayID int, armed *atomic.Bool) ent.Interceptor {
	return ent.InterceptFunc(func(next ent.Querier) ent.Querier {
		return ent.QuerierFunc(func(ctx context.Context, q ent.Query) (ent.Value, error) {
			v, err := next.Query(ctx, q)
			if err == nil && ent.TxFromContext(ctx) == nil && armed.CompareAndSwap(true, false) {
				if _, rerr := f.svc.ToggleStatus(f.admin, displayID, ptr("resolved"), nil); rerr != nil {
					t.Errorf("resolving: %v", rerr)
				}
			}
			return v, err
		})
	})
}
