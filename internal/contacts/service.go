// Package contacts holds the operations on contacts (search, filters,
// merges, contact inboxes), their custom attribute definitions and the
// account's labels.
package contacts

import "github.com/switchboard/switchboard/internal/core"

// Service runs the contacts' operations.
type Service struct {
	*core.Core
}

// New returns the contacts' Service.
func New(c *core.Core) *Service { return &Service{Core: c} }
