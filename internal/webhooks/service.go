// Package webhooks holds the account's webhook subscriptions and their
// outbox: every change with a webhook body is written, inside its own
// transaction, as a delivery for each subscription that wants its kind.
package webhooks

import (
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/internal/core"
	"github.com/switchboard/switchboard/internal/events"
)

// Service runs the webhooks' operations.
type Service struct {
	*core.Core
	// unsubscribed remembers the accounts found without a subscription.
	unsubscribed *core.Cache[int, bool]
}

// New returns the webhooks' Service.
func New(c *core.Core) *Service { return &Service{Core: c, unsubscribed: newUnsubscribedCache(c)} }

// Accounts without a subscription. Every change with a webhook body asks
// for its account's subscriptions inside its transaction: with none, that
// statement was a fifth of a message post's server CPU and its only work
// beyond the message's own statements (docs/performance.md). So an account
// found without one is remembered for a short while, and any write of a
// subscription forgets that everywhere (core.Cache): on this instance at
// once, on the others when its NOTIFY arrives, so a change there within
// those milliseconds (or within the lifetime, while an instance's listening
// connection is down) may miss a subscription made meanwhile. Subscriptions
// that exist are read in the transaction as before: a remembered one could
// have been deleted, and its delivery would then fail the change.
const (
	unsubscribedTTL  = 15 * time.Second
	unsubscribedSize = 10_000
)

func newUnsubscribedCache(c *core.Core) *core.Cache[int, bool] {
	return core.NewCache[int, bool](c, core.CacheOptions{Name: "unsubscribed_accounts", Kind: events.KindWebhooksChanged,
		TTL: unsubscribedTTL, Size: unsubscribedSize,
		Changes: func(m ent.Mutation) bool { return m.Type() == ent.TypeWebhookSubscription }})
}
