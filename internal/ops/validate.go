package ops

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

func normalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func validEmail(s string) bool { return emailPattern.MatchString(s) }

func validPhone(s string) bool { return phonePattern.MatchString(s) }

// fieldErrors collects every failing field of a request, so one 422 names
// them all.
type fieldErrors struct {
	messages []string
	fields   []string
}

func (e *fieldErrors) add(field, message string) {
	e.fields = append(e.fields, field)
	e.messages = append(e.messages, message)
}

func (e *fieldErrors) err() error {
	if len(e.fields) == 0 {
		return nil
	}
	return apperr.Invalid(strings.Join(e.messages, ", "), e.fields...)
}
