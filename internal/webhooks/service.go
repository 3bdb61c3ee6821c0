// Package webhooks holds the account's webhook subscriptions and their
// outbox: every change with a webhook body is written, inside its own
// transaction, as a delivery for each subscription that wants its kind.
package webhooks

import "github.com/switchboard/switchboard/internal/core"

// Service runs the webhooks' operations.
type Service struct {
	*core.Core
}

// New returns the webhooks' Service.
func New(c *core.Core) *Service { return &Service{Core: c} }
