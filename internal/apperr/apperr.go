// Package apperr is the one error vocabulary of the operations. Each transport
// maps it once: REST to a status and JSON body, GraphQL to extensions.code.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/switchboard/switchboard/ent"
	"github.com/switchboard/switchboard/ent/privacy"
	"github.com/switchboard/switchboard/internal/viewer"
)

// Kind classifies an error for the transports.
type Kind int

const (
	KindInternal Kind = iota
	KindBadRequest
	KindUnauthenticated
	KindForbidden
	KindNotFound
	KindInvalid
	KindConflict
	KindTooManyRequests
	// KindUnavailable: the database cannot be reached; the same request may
	// succeed later (REST 503 with Retry-After).
	KindUnavailable
)

// graphQLCodes are the GraphQL extensions.code of each kind.
var graphQLCodes = map[Kind]string{
	KindBadRequest:      "BAD_REQUEST",
	KindUnauthenticated: "UNAUTHENTICATED",
	KindForbidden:       "FORBIDDEN",
	KindNotFound:        "NOT_FOUND",
	KindInvalid:         "BAD_USER_INPUT",
	KindConflict:        "CONFLICT",
	KindTooManyRequests: "TOO_MANY_REQUESTS",
	KindInternal:        "INTERNAL_SERVER_ERROR",
	KindUnavailable:     "UNAVAILABLE",
}

// GraphQLCode is the extensions.code a GraphQL error of kind k carries.
func (k Kind) GraphQLCode() string { return graphQLCodes[k] }

// httpStatuses are the HTTP status of each kind (REST's answers, the
// console's pages).
var httpStatuses = map[Kind]int{
	KindBadRequest:      http.StatusBadRequest,
	KindUnauthenticated: http.StatusUnauthorized,
	KindForbidden:       http.StatusForbidden,
	KindNotFound:        http.StatusNotFound,
	KindInvalid:         http.StatusUnprocessableEntity,
	KindConflict:        http.StatusConflict,
	KindTooManyRequests: http.StatusTooManyRequests,
	KindInternal:        http.StatusInternalServerError,
	KindUnavailable:     http.StatusServiceUnavailable,
}

// HTTPStatus is the HTTP status an error of kind k is answered with.
func (k Kind) HTTPStatus() int { return httpStatuses[k] }

// KindOfStatus is the kind of an HTTP status: a client error without a kind
// of its own is a bad request, a server error internal.
func KindOfStatus(status int) Kind {
	for k, s := range httpStatuses {
		if s == status {
			return k
		}
	}
	if status >= http.StatusInternalServerError {
		return KindInternal
	}
	return KindBadRequest
}

// Error is an error the caller can act on.
type Error struct {
	Kind    Kind
	Message string
	// Fields names the failing input fields of an invalid request.
	Fields []string
	// FieldMessages, when set, holds one sentence per entry of Fields, for
	// a form that shows each next to its field (Message joins them).
	FieldMessages []string
	// RetryAfter is how long a throttled caller should wait.
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// NotFound says a record does not exist (or belongs to another account: the
// two must look the same).
func NotFound(what string) *Error {
	return &Error{Kind: KindNotFound, Message: what + " could not be found"}
}

// Invalid says the named fields are wrong; message is a human sentence.
func Invalid(message string, fields ...string) *Error {
	return &Error{Kind: KindInvalid, Message: message, Fields: fields}
}

// Invalidf is Invalid for one field with a formatted message.
func Invalidf(field, format string, args ...any) *Error {
	return Invalid(fmt.Sprintf(format, args...), field)
}

// MessageFor is the sentence about field: its own when the error has one
// per field, else the whole message when field failed; "" when it did not.
func (e *Error) MessageFor(field string) string {
	for i, f := range e.Fields {
		if f != field {
			continue
		}
		if i < len(e.FieldMessages) {
			return e.FieldMessages[i]
		}
		return e.Message
	}
	return ""
}

// BadRequest says the request itself could not be read.
func BadRequest(format string, args ...any) *Error {
	return &Error{Kind: KindBadRequest, Message: fmt.Sprintf(format, args...)}
}

// Unauthenticated says the credentials are missing or wrong.
func Unauthenticated(message string) *Error {
	return &Error{Kind: KindUnauthenticated, Message: message}
}

// Forbidden says the caller may not do this.
func Forbidden(message string) *Error { return &Error{Kind: KindForbidden, Message: message} }

// Conflict says the request clashes with the current state.
func Conflict(message string) *Error { return &Error{Kind: KindConflict, Message: message} }

// TooManyRequests says the caller is throttled for retryAfter.
func TooManyRequests(message string, retryAfter time.Duration) *Error {
	return &Error{Kind: KindTooManyRequests, Message: message, RetryAfter: retryAfter}
}

// From classifies any error: ours pass through, ent's are translated, the
// rest are internal.
func From(err error) *Error {
	if err == nil {
		return nil
	}
	var ae *Error
	if errors.As(err, &ae) {
		return ae
	}
	if isOutage(err) {
		return &Error{Kind: KindUnavailable, Message: unavailableMessage, Err: err}
	}
	if unstorableText(err) {
		return &Error{Kind: KindInvalid, Message: unstorableTextMessage, Err: err}
	}
	var nf *ent.NotFoundError
	if errors.As(err, &nf) {
		return &Error{Kind: KindNotFound, Message: "Resource could not be found", Err: err}
	}
	if errors.Is(err, viewer.ErrAdminOnly) {
		return &Error{Kind: KindForbidden, Message: "You are not authorized to do this action: " + viewer.ErrAdminOnly.Error(), Err: err}
	}
	for _, reason := range []error{viewer.ErrNotInboxMember, viewer.ErrNotScheduleAuthor, viewer.ErrNotNoteAuthor} {
		if errors.Is(err, reason) {
			return &Error{Kind: KindForbidden, Message: "You are not authorized to do this action: " + reason.Error(), Err: err}
		}
	}
	if errors.Is(err, privacy.Deny) {
		return &Error{Kind: KindForbidden, Message: "You are not authorized to do this action", Err: err}
	}
	var ve *ent.ValidationError
	if errors.As(err, &ve) {
		return &Error{Kind: KindInvalid, Message: validationMessage(ve), Fields: []string{ve.Name}, Err: err}
	}
	var ce *ent.ConstraintError
	if errors.As(err, &ce) {
		return &Error{Kind: KindInvalid, Message: "A record with these values already exists or a referenced record is missing", Err: err}
	}
	return &Error{Kind: KindInternal, Message: "Internal server error", Err: err}
}

func validationMessage(ve *ent.ValidationError) string {
	msg := ve.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return fmt.Sprintf("%s is invalid (%s)", humanize(ve.Name), msg)
}

// humanize turns a field name into the start of a sentence: "phone_number" → "Phone number".
func humanize(field string) string {
	s := strings.ReplaceAll(field, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Humanize is humanize for messages built elsewhere.
func Humanize(field string) string { return humanize(field) }
