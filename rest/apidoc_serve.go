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
	book *routeBook

	encodeOnce sync.Once
	json       []byte
	encodeErr  error

	loadOnce sync.Once
	doc      *openapi3.T
	loadErr  error
}

func newAPIDocs(book *routeBook) *apiDocs { return &apiDocs{book: book} }

// encoded is the document as served.
func (d *apiDocs) encoded() ([]byte, error) {
	d.encodeOnce.Do(func() {
		t, err := buildOpenAPI(d.book)
		if err != nil {
			d.encodeErr = err
			return
		}
		if d.json, err = json.MarshalIndent(t, "", "  "); err != nil {
			d.encodeErr = fmt.Errorf("encoding the OpenAPI document: %w", err)
		}
	})
	return d.json, d.encodeErr
}

// loaded is the document as a client reads it.
func (d *apiDocs) loaded() (*openapi3.T, error) {
	d.loadOnce.Do(func() {
		raw, err := d.encoded()
		if err != nil {
			d.loadErr = err
			return
		}
		if d.doc, err = openapi3.NewLoader().LoadFromData(raw); err != nil {
			d.loadErr = fmt.Errorf("loading the OpenAPI document: %w", err)
		}
	})
	return d.doc, d.loadErr
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
