package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/lib/pq"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/throttle"
)

// presenter is presentError, with an error of a query past its time limit
// presented as TIMEOUT: one that wraps context.DeadlineExceeded, as the
// statement cache's refusal of a statement past the deadline does.
func presenter(timeout time.Duration) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		var gerr *gqlerror.Error
		alreadyGraphQL := errors.As(err, &gerr) && gerr.Err == nil
		if !alreadyGraphQL && errors.Is(err, context.DeadlineExceeded) {
			out := graphql.DefaultErrorPresenter(ctx, err)
			t := timedOut(timeout)
			out.Message, out.Extensions = t.Message, t.Extensions
			return out
		}
		if errors.Is(ctx.Err(), context.Canceled) {
			// The client went away (or completed its subscription) while
			// this ran: nobody reads the error, and it is no failure of ours.
			return &gqlerror.Error{Message: "the request was cancelled", Extensions: map[string]any{"code": "CANCELLED"}}
		}
		return presentError(ctx, err)
	}
}

// timedOut is the error of an operation past its time limit.
func timedOut(timeout time.Duration) *gqlerror.Error {
	return &gqlerror.Error{Message: fmt.Sprintf("the query ran past the time limit of %s", timeout),
		Extensions: map[string]any{"code": codeTimeout}}
}

// presentError is the one place operation errors become GraphQL errors.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	var gerr *gqlerror.Error
	if errors.As(err, &gerr) && gerr.Err == nil {
		// Already a GraphQL error: parse and validation errors carry their
		// code; entgql's pagination errors may not, and they are the
		// caller's mistake.
		if _, ok := gerr.Extensions["code"]; !ok {
			if gerr.Extensions == nil {
				gerr.Extensions = map[string]any{}
			}
			gerr.Extensions["code"] = apperr.KindInvalid.GraphQLCode()
		}
		return gerr
	}
	ae := apperr.From(err)
	var perr *panicError
	if ae.Kind == apperr.KindInternal && !errors.As(err, &perr) && argumentsUndecoded(ctx) {
		// An argument failed to decode (a bad cursor, time or map): the
		// caller's mistake, not ours. The path ends with the argument.
		out := graphql.DefaultErrorPresenter(ctx, err)
		attrs := lastPathName(out.Path)
		if len(attrs) == 1 && (attrs[0] == "after" || attrs[0] == "before") {
			// Not the decoder's words (msgpack's codes): what to do instead.
			out.Message = attrs[0] + " is not a cursor this API returned: pass one from pageInfo or an edge"
		}
		out.Extensions = map[string]any{"code": apperr.KindInvalid.GraphQLCode(), "attributes": attrs}
		return out
	}
	if arg, ok := unfitCursor(ctx, err); ae.Kind == apperr.KindInternal && ok {
		out := graphql.DefaultErrorPresenter(ctx, err)
		out.Message = arg + " is a cursor this query cannot continue from (it came from another order or filter, or was altered): page again from the start"
		out.Extensions = map[string]any{"code": apperr.KindInvalid.GraphQLCode(), "attributes": []string{arg}}
		return out
	}
	if ae.Kind == apperr.KindInternal {
		slog.Error("graphql resolver failed", "err", err)
	}
	out := graphql.DefaultErrorPresenter(ctx, ae)
	out.Message = ae.Message
	out.Extensions = map[string]any{"code": ae.Kind.GraphQLCode()}
	if ae.Kind == apperr.KindInvalid {
		attrs := ae.Fields
		if attrs == nil {
			attrs = []string{} // as REST's attributes: a list, never null
		}
		out.Extensions["attributes"] = attrs
	}
	return out
}

// refusalBody is the response of a request refused before GraphQL runs:
// credentials that fail, a method or body GraphQL is not served over.
func refusalBody(err error) map[string]any {
	ae := apperr.From(err)
	return map[string]any{"errors": []map[string]any{{
		"message":    ae.Message,
		"extensions": map[string]any{"code": ae.Kind.GraphQLCode()},
	}}}
}

// refusal is the status, and the Retry-After value or "", of a request
// refused before it ran: 400 for a malformed account, 401 for a viewer that
// could not be established, or 503 and 429 (with Retry-After, as REST) when
// the database could not be asked or the address is throttled.
func refusal(err error) (status int, retryAfter string) {
	switch ae := apperr.From(err); ae.Kind {
	case apperr.KindBadRequest:
		return http.StatusBadRequest, ""
	case apperr.KindUnavailable:
		return http.StatusServiceUnavailable, retryAfterSeconds
	case apperr.KindTooManyRequests:
		return http.StatusTooManyRequests, strconv.Itoa(throttle.Seconds(ae.RetryAfter))
	}
	return http.StatusUnauthorized, ""
}

// retryAfterSeconds matches REST's Retry-After during a database outage.
const retryAfterSeconds = "5"

// argumentsUndecoded reports whether the error being presented arose while
// gqlgen decoded the field's arguments: the field takes arguments, but they
// were never set on its context (gqlgen sets them once all decode).
func argumentsUndecoded(ctx context.Context) bool {
	fc := graphql.GetFieldContext(ctx)
	return fc != nil && fc.Field.Field != nil && len(fc.Field.Arguments) > 0 && fc.Args == nil
}

// lastPathName is the last named element of an error path (the argument or
// input field that failed), as a one-element attributes list.
func lastPathName(p ast.Path) []string {
	for i := len(p) - 1; i >= 0; i-- {
		if name, ok := p[i].(ast.PathName); ok {
			return []string{string(name)}
		}
	}
	return []string{}
}

// panicError is a recovered resolver panic.
type panicError struct{ msg string }

func (e *panicError) Error() string { return e.msg }

// recoverPanic turns a resolver panic into an internal error, logged (with
// its stack) by presentError, so it carries extensions.code like every other
// error.
func recoverPanic(_ context.Context, p any) error {
	return &panicError{msg: fmt.Sprintf("panic in resolver: %v\n%s", p, debug.Stack())}
}

// unfitCursor names the cursor argument (after or before) err is the
// database's or entgql's refusal of: a cursor decodes, but its values do not
// fit the query's order (another orderBy, or values altered by hand), and
// the statement built from it fails. That is the caller's input.
func unfitCursor(ctx context.Context, err error) (string, bool) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !cursorRefused(err) {
		return "", false
	}
	for _, name := range []string{"after", "before"} {
		if v, ok := fc.Args[name]; ok && v != nil && !reflect.ValueOf(v).IsZero() {
			return name, true
		}
	}
	return "", false
}

// cursorRefused reports the errors a cursor that does not fit its query
// causes: entgql's count check of its values, database/sql's refusal of a
// value of no SQL type, and PostgreSQL's data exceptions (a text where a time
// is compared, SQLSTATE class 22).
func cursorRefused(err error) bool {
	var pe *pq.Error
	if errors.As(err, &pe) && pe.Code.Class() == "22" {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "cursor values length") || strings.Contains(msg, "sql: converting argument")
}
