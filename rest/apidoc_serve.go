package rest

import (
	"bytes"
	"compress/gzip"
	_ "embed" // the generated documents
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/views"
)

//go:generate go run ./internal/gendocs

// The OpenAPI document and the reference page's model are built from the
// route table by `go generate` (GenerateDocs), not by the server: building,
// encoding, loading back and validating the 1.3 MB document cost every start
// 0.6-0.8 s of CPU, and doing it in the server linked kin-openapi's loader,
// validation and YAML code (about 1 MB of a 60 MB binary). CI's `go generate`
// check and TestGeneratedDocsAreCurrent keep the files in step with the
// routes; the tests check every response against the document as served.
// They are embedded gzipped: as JSON they were 2 MB of the binary, 0.1 MB so.
var (
	//go:embed openapi.json.gz
	openAPIGzipped []byte
	//go:embed api_reference.json.gz
	apiReferenceGzipped []byte
)

// openAPIDocument is the document, unpacked when first asked for.
var openAPIDocument = sync.OnceValues(func() ([]byte, error) { return gunzip(openAPIGzipped) })

// apiReference is the reference page's model, read when first asked for.
var apiReference = sync.OnceValues(func() (views.APIReference, error) {
	var ref views.APIReference
	raw, err := gunzip(apiReferenceGzipped)
	if err == nil {
		err = json.Unmarshal(raw, &ref)
	}
	if err != nil {
		return ref, fmt.Errorf("reading the API reference: %w", err)
	}
	return ref, nil
})

func gunzip(packed []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(packed))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// openAPIJSON serves the document. It is public, as Chatwoot publishes its
// own: it describes the routes, not any account's data.
func (a *API) openAPIJSON(c *fiber.Ctx) error {
	raw, err := openAPIDocument()
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(raw)
}

// apiDocsPage renders the API reference, made from the document: the page
// and openapi.json agree.
func (a *API) apiDocsPage(c *fiber.Ctx) error {
	ref, err := apiReference()
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return views.APIDocs(ref).Render(c.UserContext(), c.Response().BodyWriter())
}
