package rest

import (
	"encoding/json"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"
)

// GenerateDocs builds, from the route table, the OpenAPI document and the
// reference page's model that the server serves (openapi.json,
// api_reference.json; written by internal/gendocs). Only `go generate` and the
// tests call it, so the server does not link what it needs of kin-openapi.
func GenerateDocs() (openAPI, reference []byte, err error) {
	book := &routeBook{}
	(&API{}).routes(fiber.New(), book)
	t, err := buildOpenAPI(book)
	if err != nil {
		return nil, nil, err
	}
	if openAPI, err = json.MarshalIndent(t, "", "  "); err != nil {
		return nil, nil, fmt.Errorf("encoding the OpenAPI document: %w", err)
	}
	// The page is made from the document as a client loads it, references
	// resolved.
	doc, err := openapi3.NewLoader().LoadFromData(openAPI)
	if err != nil {
		return nil, nil, fmt.Errorf("loading the OpenAPI document: %w", err)
	}
	if reference, err = json.MarshalIndent(pageOf(doc), "", " "); err != nil {
		return nil, nil, fmt.Errorf("encoding the API reference: %w", err)
	}
	return append(openAPI, '\n'), append(reference, '\n'), nil
}
