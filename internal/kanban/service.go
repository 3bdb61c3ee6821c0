// Package kanban holds funnels (boards and their stages) and their cards:
// moves and order, card parts (agents, checklists, notes), bulk changes,
// CSV import and export, reports, the kanban webhook and the automations.
package kanban

import (
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
)

// Service runs the kanban operations.
type Service struct {
	*core.Core
	conv *conversations.Service
}

// New returns the kanban Service; automations post messages through conv.
func New(c *core.Core, conv *conversations.Service) *Service {
	return &Service{Core: c, conv: conv}
}
