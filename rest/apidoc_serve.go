package rest

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"
)

// apiDocs is the document, built when first asked for, and loaded back
// (references resolved) when the reference page is first asked for.
// Building, encoding, loading back and validating its 1.3 MB took 0.6-0.8 s
// of CPU, which every start paid before its first answer. The tests load
// and validate the document as served (apitest.LoadOpenAPI) and check every
// response against it, so a description error still fails the suite.
type apiDocs struct {
	// encoded is the document as served; loaded, as a client reads it.
	encoded func() ([]byte, error)
	loaded  func() (*openapi3.T, error)
}

func newAPIDocs(book *routeBook) *apiDocs {
	encoded := sync.OnceValues(func() ([]byte, error) {
		t, err := buildOpenAPI(book)
		if err != nil {
			return nil, err
		}
		raw, err := json.MarshalIndent(t, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("encoding the OpenAPI document: %w", err)
		}
		return raw, nil
	})
	loaded := sync.OnceValues(func() (*openapi3.T, error) {
		raw, err := encoded()
		if err != nil {
			return nil, err
		}
		doc, err := openapi3.NewLoader().LoadFromData(raw)
		if err != nil {
			return nil, fmt.Errorf("loading the OpenAPI document: %w", err)
		}
		return doc, nil
	})
	return &apiDocs{encoded: encoded, loaded: loaded}
}

// openAPIJSON serves the document. It is public, as Chatwoot publishes its
// own: it describes the routes, not any account's data.
func (a *API) openAPIJSON(c *fiber.Ctx) error {
	raw, err := a.docs.encoded()
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(raw)
}
