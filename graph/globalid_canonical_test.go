package graph_test

import (
	"encoding/base64"
	"testing"

	"github.com/switchboard/switchboard/graph"
)

// TestGlobalIDsHaveOneForm: an object has one global id, the one the API
// writes; the same number spelled otherwise ("+1", "0001") names nothing.
func TestGlobalIDsHaveOneForm(t *testing.T) {
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, c := range []struct {
		in     string
		typ    string
		id     int
		refuse bool
	}{
		{in: graph.EncodeGlobalID("Contact", 1), typ: "Contact", id: 1},
		{in: "42", id: 42},
		{in: enc("Contact:+1"), refuse: true},
		{in: enc("Contact:0001"), refuse: true},
		{in: enc("Contact: 1"), refuse: true},
		{in: enc("Contact:0"), refuse: true},
	} {
		typ, id, err := graph.DecodeGlobalID(c.in)
		if c.refuse != (err != nil) || !c.refuse && (typ != c.typ || id != c.id) {
			t.Errorf("DecodeGlobalID(%q) = %q, %d, %v; want %q, %d, refused %v", c.in, typ, id, err, c.typ, c.id, c.refuse)
		}
	}
}
