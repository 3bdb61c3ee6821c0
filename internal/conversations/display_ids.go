package conversations

import (
	"context"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
)

// A new conversation's display id comes from a counter on the account row
// (nextDisplayID). Taken inside the transaction that starts the
// conversation, PostgreSQL holds that row's lock until the transaction
// commits, so an account's new conversations start one at a time, each
// waiting for the whole transaction of the one before. In a burst of first
// messages from new customers (BenchmarkWhatsAppBurst, 12 at once) that
// queue made the p99: the first messages' p50 was 25-47 ms and their max
// 157-201 ms, against 8-10 ms for the rest, and sampling pg_stat_activity
// found them waiting on the account row's lock. Taking the id before, in
// one statement that commits at once (core.Core.TakeDisplayID), holds the
// lock only while that statement runs. The ids still never repeat; an id
// taken for a conversation its transaction then does not start (a
// concurrent message of the same customer started it first, or the
// transaction failed for good) is left out, as Chatwoot's per-account
// sequence leaves ids out.

// takesDisplayIDsApart: the display id of a conversation started in ctx is
// taken before its transaction. Only where TakeDisplayID is set (PostgreSQL)
// and never inside a caller's transaction (its ids stay with its commit).
func (s *Service) takesDisplayIDsApart(ctx context.Context) bool {
	return s.TakeDisplayID != nil && ent.TxFromContext(ctx) == nil
}

// reserveDisplayIDs takes the next n conversation display ids of the
// viewer's account, committed at once, and answers the first.
func (s *Service) reserveDisplayIDs(ctx context.Context, n int) (int, error) {
	return core.TakeDisplayIDApart(ctx, s.TakeDisplayID, n, s.Now())
}
