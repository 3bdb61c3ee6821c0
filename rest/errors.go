package rest

import (
	"errors"
	"log/slog"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/throttle"
)

// RetryAfterSeconds is the Retry-After of a 503 while the database is
// unreachable: long enough not to hammer it, short enough to notice it back.
const RetryAfterSeconds = "5"

// errorBody is every error response: error is a sentence; validation
// failures add Chatwoot's message and attributes (the failing fields).
type errorBody struct {
	Error      string   `json:"error"`
	Message    string   `json:"message,omitempty"`
	Attributes []string `json:"attributes,omitempty"`
}

// handleError is the one place errors become responses.
func handleError(c *fiber.Ctx, err error) error {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		if c.Path() == GraphQLPath {
			return graphQLError(c, fe.Code, fe.Message, apperr.KindOfStatus(fe.Code))
		}
		return c.Status(fe.Code).JSON(errorBody{Error: fe.Message})
	}
	ae := apperr.From(err)
	status := ae.Kind.HTTPStatus()
	if ae.Kind == apperr.KindInternal {
		cause := err
		if ae.Err != nil {
			cause = ae.Err // the operator needs the cause, not the client's sentence
		}
		slog.Error("request failed", "method", c.Method(), "path", c.Path(), "err", cause)
	}
	if ae.Kind == apperr.KindTooManyRequests {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(throttle.Seconds(ae.RetryAfter)))
	}
	if ae.Kind == apperr.KindUnavailable {
		slog.Warn("database unreachable", "method", c.Method(), "path", c.Path(), "err", err)
		c.Set(fiber.HeaderRetryAfter, RetryAfterSeconds)
	}
	if c.Path() == GraphQLPath {
		return graphQLError(c, status, ae.Message, ae.Kind)
	}
	body := errorBody{Error: ae.Message}
	if ae.Kind == apperr.KindInvalid {
		body.Message = ae.Message
		body.Attributes = ae.Fields
		if body.Attributes == nil {
			body.Attributes = []string{}
		}
	}
	return c.Status(status).JSON(body)
}

// GraphQLPath is where the GraphQL endpoint is served. What the app
// refuses there before GraphQL runs (a body too large, a NUL, too many
// requests) is answered as GraphQL answers, with extensions.code.
const GraphQLPath = "/graphql"

func graphQLError(c *fiber.Ctx, status int, message string, kind apperr.Kind) error {
	return c.Status(status).JSON(fiber.Map{"errors": []fiber.Map{{
		"message": message, "extensions": fiber.Map{"code": kind.GraphQLCode()},
	}}})
}

// notFoundRoute answers any route we do not serve.
func notFoundRoute(c *fiber.Ctx) error {
	return c.Status(fiber.StatusNotFound).JSON(errorBody{Error: "No route matches " + c.Method() + " " + c.Path()})
}

func invalidField(field, message string) error { return apperr.Invalid(message, field) }

func invalidFields(message string, fields ...string) error { return apperr.Invalid(message, fields...) }

// emptyOK answers 200 with no body, as Chatwoot answers deletes. (Fiber's
// SendStatus would put "OK" in the body.)
func emptyOK(c *fiber.Ctx) error {
	c.Status(fiber.StatusOK)
	return nil
}
