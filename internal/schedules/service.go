// Package schedules holds scheduled messages: one-off and recurring
// schedules, their occurrences, the calendar, and their firing as the job
// runner's work.
package schedules

import (
	"github.com/switchboard/switchboard/internal/conversations"
	"github.com/switchboard/switchboard/internal/core"
)

// Service runs the schedules' operations.
type Service struct {
	*core.Core
	conv *conversations.Service
}

// New returns the schedules' Service; a firing posts through conv, and a
// settled delivery settles the schedule that posted it.
func New(c *core.Core, conv *conversations.Service) *Service {
	s := &Service{Core: c, conv: conv}
	conv.OnDeliverySettled(s.SettleSchedulesOf)
	return s
}
