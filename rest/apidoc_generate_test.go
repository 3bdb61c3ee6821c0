package rest

import (
	"bytes"
	"testing"
)

// TestGeneratedDocsAreCurrent: the documents the server embeds are what the
// route table gives now (run `go generate ./rest` after changing a route).
func TestGeneratedDocsAreCurrent(t *testing.T) {
	openAPI, reference, err := GenerateDocs()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name           string
		embedded, want []byte
	}{
		{"openapi.json.gz", openAPIGzipped, openAPI},
		{"api_reference.json.gz", apiReferenceGzipped, reference},
	} {
		got, err := gunzip(f.embedded)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !bytes.Equal(got, f.want) {
			t.Errorf("%s is not the route table's document: run go generate ./rest", f.name)
		}
	}
}
