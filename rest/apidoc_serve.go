package rest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"
)

// apiDocs is the document as served, and as loaded back (references
// resolved) for the reference page.
type apiDocs struct {
	json []byte
	doc  *openapi3.T
}

// newAPIDocs builds the document, and loads and validates it as a client
// would, so that a description error fails at start rather than in a
// client's hands.
func newAPIDocs(book *routeBook) (*apiDocs, error) {
	t, err := buildOpenAPI(book)
	if err != nil {
		return nil, err
	}
	raw, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the OpenAPI document: %w", err)
	}
	loaded, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("loading the OpenAPI document: %w", err)
	}
	if err := loaded.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("the OpenAPI document is invalid: %w", err)
	}
	return &apiDocs{json: raw, doc: loaded}, nil
}

// openAPIJSON serves the document. It is public, as Chatwoot publishes its
// own: it describes the routes, not any account's data.
func (a *API) openAPIJSON(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(a.docs.json)
}
