package core

import (
	"github.com/switchboard/switchboard/internal/apperr"
)

// Caps on the lists operations take as input (not stored as such, so not
// an ent validator): each is far above what a person or a client sends, and
// low enough that one request cannot hold a transaction, a lock or an SQL
// statement's parameter list hostage. The stored data's caps (lengths,
// attribute sizes, labels) are validators and hooks in ent/schema.
const (
	// MaxAttachments is how many files one message or schedule may carry.
	MaxAttachments = 15
	// MaxIDs caps a list of ids in one request (members, bulk card ids).
	MaxIDs = 1000
	// MaxReorderEntries caps the positions of one reorder request.
	MaxReorderEntries = 1000
	// MaxFilterConditions caps the conditions of one contact filter.
	MaxFilterConditions = 50
	// MaxFilterValues caps the values of one filter condition.
	MaxFilterValues = 100
	// MaxFunnelStages caps the stages of one funnel: a board people read
	// across, and the bound GraphQL prices a funnel's stages by (each stage
	// may show a page of cards).
	MaxFunnelStages = 25
)

// CheckListLen answers a list over max with a 422 naming field.
func CheckListLen(field string, n, max int) error {
	if n > max {
		return apperr.Invalidf(field, "%s takes at most %d entries, got %d", apperr.Humanize(field), max, n)
	}
	return nil
}
