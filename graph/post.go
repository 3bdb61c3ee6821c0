package graph

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/gofiber/fiber/v2"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/switchboard/switchboard/internal/apperr"
)

// ServeJSONPost answers a query or mutation POSTed as JSON for a JSON answer
// (the way apps ask) inside Fiber. Going through net/http instead (the
// adaptor's request, header maps and response copy, and gqlgen's POST
// transport) cost about a tenth of a contact(id) request. The executor and
// its extensions are the same ones ServeHTTP runs. Anything else (GET,
// multipart, websocket, the explorer, application/graphql-response+json)
// goes on to the next handler: ServeHTTP through the adaptor.
func (h *Handler) ServeJSONPost(c *fiber.Ctx) error {
	if !postsJSONForJSON(c.Get(fiber.HeaderContentType), c.Get(fiber.HeaderAccept)) {
		return c.Next()
	}
	ctx, err := h.authenticated(c.UserContext(), c.IP(), func(name string) string { return c.Get(name) }, c.Query("account_id"))
	if err != nil {
		status, retryAfter := refusal(err)
		if retryAfter != "" {
			c.Set(fiber.HeaderRetryAfter, retryAfter)
		}
		return c.Status(status).JSON(refusalBody(err))
	}
	ctx = graphql.StartOperationTrace(ctx)
	defer func() {
		if p := recover(); p != nil {
			presented, _ := h.exec.PresentRecoveredError(ctx, p).(*gqlerror.Error)
			_ = writeResponse(c.Status(http.StatusInternalServerError), &graphql.Response{Errors: gqlerror.List{presented}})
		}
	}()
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	params := &graphql.RawParams{ReadTime: graphql.TraceTiming{Start: graphql.Now()}}
	if err := decodeParams(c.Body(), params); err != nil {
		c.Status(http.StatusBadRequest)
		return writeResponse(c, h.exec.DispatchError(ctx, gqlerror.List{gqlerror.Errorf("the request body is not a GraphQL request in JSON: %v", err)}))
	}
	params.ReadTime.End = graphql.Now()
	op, opErr := h.exec.CreateOperationContext(ctx, params)
	if opErr != nil {
		if errcode.GetErrorKind(opErr) == errcode.KindProtocol {
			c.Status(http.StatusUnprocessableEntity)
		}
		return writeResponse(c, h.exec.DispatchError(graphql.WithOperationContext(ctx, op), opErr))
	}
	responses, ctx := h.exec.DispatchOperation(ctx, op)
	return writeResponse(c, responses(ctx))
}

// postsJSONForJSON reports whether a POST sends JSON and takes
// application/json back, as gqlgen's POST transport decides it: no Accept,
// or the first media type it knows among */*, application/* and
// application/json (application/graphql-response+json, or none it knows,
// answers with that type and its statuses: gqlgen's transport does that).
func postsJSONForJSON(contentType, accept string) bool {
	if media, _, err := mime.ParseMediaType(contentType); err != nil || media != "application/json" {
		return false
	}
	if accept == "" {
		return true
	}
	for part := range strings.SplitSeq(accept, ",") {
		media, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch media {
		case "*/*", "application/*", "application/json":
			return true
		case "application/graphql-response+json":
			return false
		}
	}
	return false
}

// decodeParams reads a request body as gqlgen's transports do: numbers stay
// json.Number, so an Int variable keeps its digits.
func decodeParams(body []byte, params *graphql.RawParams) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	return dec.Decode(params)
}

// writeResponse writes a GraphQL response. An answer with data and nothing
// else is written as it is: the executor wrote its data as JSON already, and
// encoding/json would only read it through once more.
func writeResponse(c *fiber.Ctx, resp *graphql.Response) error {
	if resp != nil && len(resp.Errors) == 0 && len(resp.Extensions) == 0 && resp.Label == "" &&
		resp.Path == nil && resp.HasNext == nil && len(resp.Data) > 0 {
		w := c.Response().BodyWriter()
		_, _ = w.Write([]byte(`{"data":`))
		_, _ = w.Write(resp.Data)
		_, err := w.Write([]byte(`}`))
		return err
	}
	body, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	return c.Send(body)
}

// serve runs a request over the first of gqlgen's transports that takes it,
// as gqlgen's handler.Server does (which keeps its executor to itself).
func (h *Handler) serve(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			presented, _ := h.exec.PresentRecoveredError(r.Context(), p).(*gqlerror.Error)
			body, _ := json.Marshal(&graphql.Response{Errors: gqlerror.List{presented}})
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write(body)
		}
	}()
	r = r.WithContext(graphql.StartOperationTrace(r.Context()))
	for _, t := range h.transports {
		if t.Supports(r) {
			t.Do(w, r, h.exec)
			return
		}
	}
	writeJSON(w, http.StatusBadRequest, refusalBody(errTransport))
}

// errTransport answers a request none of the transports takes.
var errTransport = apperr.BadRequest("send a GraphQL request over GET, as a POST of JSON (multipart for file uploads), or over a graphql-transport-ws websocket")
