package core

import (
	"unicode/utf8"

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
	// MaxSearchText caps, in characters, a text searched for or filtered
	// by: far above any name, e-mail or phrase, and far below the longest
	// LIKE pattern SQLite takes (50,000 bytes; past it the statement fails).
	MaxSearchText = 1000
)

// CheckListLen answers a list over max with a 422 naming field.
func CheckListLen(field string, n, max int) error {
	if n > max {
		return apperr.Invalidf(field, "%s takes at most %d entries, got %d", apperr.Humanize(field), max, n)
	}
	return nil
}

// CheckSearchText answers a search or filter text over MaxSearchText
// characters with a 422 naming field.
func CheckSearchText(field, text string) error {
	if n := utf8.RuneCountInString(text); n > MaxSearchText {
		return apperr.Invalidf(field, "%s takes at most %d characters, got %d", apperr.Humanize(field), MaxSearchText, n)
	}
	return nil
}
