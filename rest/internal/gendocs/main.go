// Command gendocs writes the REST API's OpenAPI document and its reference
// page's model from the route table (rest.GenerateDocs), gzipped, into the
// current directory, where the server embeds them; `go generate ./rest` runs
// it.
package main

import (
	"bytes"
	"compress/gzip"
	"log"
	"os"

	"github.com/switchboard/switchboard/rest"
)

func main() {
	openAPI, reference, err := rest.GenerateDocs()
	if err != nil {
		log.Fatal(err)
	}
	for name, data := range map[string][]byte{"openapi.json.gz": openAPI, "api_reference.json.gz": reference} {
		if err := os.WriteFile(name, gzipped(data), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// gzipped packs data with no name or time in the header, so the same
// document always packs to the same bytes (CI checks the files are fresh).
func gzipped(data []byte) []byte {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	return buf.Bytes()
}
