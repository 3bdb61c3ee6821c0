package graph

import (
	"context"
	"errors"
	"log/slog"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/switchboard/switchboard/internal/apperr"
)

// codeOf is the extensions.code of each error kind.
var codeOf = map[apperr.Kind]string{
	apperr.KindBadRequest:      "BAD_REQUEST",
	apperr.KindUnauthenticated: "UNAUTHENTICATED",
	apperr.KindForbidden:       "FORBIDDEN",
	apperr.KindNotFound:        "NOT_FOUND",
	apperr.KindInvalid:         "BAD_USER_INPUT",
	apperr.KindConflict:        "CONFLICT",
	apperr.KindInternal:        "INTERNAL_SERVER_ERROR",
}

// presentError is the one place operation errors become GraphQL errors.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	var gerr *gqlerror.Error
	if errors.As(err, &gerr) && gerr.Err == nil {
		return gerr // already a GraphQL error (parse, validation)
	}
	ae := apperr.From(err)
	if ae.Kind == apperr.KindInternal {
		slog.Error("graphql resolver failed", "err", err)
	}
	out := graphql.DefaultErrorPresenter(ctx, ae)
	out.Message = ae.Message
	out.Extensions = map[string]any{"code": codeOf[ae.Kind]}
	if ae.Kind == apperr.KindInvalid {
		out.Extensions["attributes"] = ae.Fields
	}
	return out
}

// unauthenticatedBody is the response of a request whose credentials fail.
func unauthenticatedBody(err error) map[string]any {
	ae := apperr.From(err)
	return map[string]any{"errors": []map[string]any{{
		"message":    ae.Message,
		"extensions": map[string]any{"code": codeOf[ae.Kind]},
	}}}
}
