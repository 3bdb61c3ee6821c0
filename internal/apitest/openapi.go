package apitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// OpenAPI checks responses against the service's OpenAPI document, so that
// the document cannot drift from what the routes answer.
type OpenAPI struct {
	Doc    *openapi3.T
	router routers.Router
}

// LoadOpenAPI reads and validates a document.
func LoadOpenAPI(raw []byte) (*OpenAPI, error) {
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("loading the OpenAPI document: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("the OpenAPI document is invalid: %w", err)
	}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("routing the OpenAPI document: %w", err)
	}
	return &OpenAPI{Doc: doc, router: r}, nil
}

// ErrUndescribed is a request the document has no operation for.
var ErrUndescribed = errors.New("the OpenAPI document describes no such operation")

// Describes says whether the document has the operation (path in
// OpenAPI's form, "/contacts/{id}").
func (o *OpenAPI) Describes(method, path string) bool {
	item := o.Doc.Paths.Value(path)
	return item != nil && item.GetOperation(method) != nil
}

// CheckResponse validates a response to method and target (a path with
// its query) against the document: its status must be documented and its
// body must match the schema. ErrUndescribed when no operation matches.
func (o *OpenAPI) CheckResponse(method, target string, status int, header http.Header, body []byte) error {
	// HEAD is the GET without its body (HTTP's rule; Fiber adds it to
	// every GET route): its status is held to the GET's.
	head := method == http.MethodHead
	if head {
		method = http.MethodGet
	}
	req, err := http.NewRequest(method, "http://localhost"+trimSlash(target), nil)
	if err != nil {
		return err
	}
	route, params, err := o.router.FindRoute(req)
	if err != nil {
		return ErrUndescribed
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true, ExcludeResponseBody: head},
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}

// trimSlash drops a trailing slash from the path, which the app ignores.
func trimSlash(target string) string {
	path, query, hasQuery := strings.Cut(target, "?")
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	if hasQuery {
		return path + "?" + query
	}
	return path
}
