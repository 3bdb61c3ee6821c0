package core

import (
	"regexp"
	"strings"

	"github.com/switchboard/switchboard/internal/apperr"
)

var (
	// Devise's e-mail format, as Chatwoot uses.
	emailPattern = regexp.MustCompile(`^[^@\s]+@[^@\s]+$`)
	// E.164: a plus and up to 15 digits, not starting with 0.
	phonePattern = regexp.MustCompile(`^\+[1-9]\d{1,14}$`)
)

func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func ValidEmail(s string) bool { return emailPattern.MatchString(s) }

func ValidPhone(s string) bool { return phonePattern.MatchString(s) }

// FieldErrors collects every failing field of a request, so one 422 names
// them all.
type FieldErrors struct {
	messages []string
	fields   []string
}

func (e *FieldErrors) Add(field, message string) {
	e.fields = append(e.fields, field)
	e.messages = append(e.messages, message)
}

func (e *FieldErrors) Err() error {
	if len(e.fields) == 0 {
		return nil
	}
	ae := apperr.Invalid(strings.Join(e.messages, ", "), e.fields...)
	ae.FieldMessages = e.messages
	return ae
}

// Has reports whether field already failed.
func (e *FieldErrors) Has(field string) bool {
	for _, f := range e.fields {
		if f == field {
			return true
		}
	}
	return false
}

// Merge adds other's failures to e's.
func (e *FieldErrors) Merge(other FieldErrors) {
	e.fields = append(e.fields, other.fields...)
	e.messages = append(e.messages, other.messages...)
}
