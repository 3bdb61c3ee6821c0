package apperr

import (
	"fmt"
	"testing"

	"github.com/lib/pq"
)

func TestFromMakesUnstorableText422(t *testing.T) {
	err := fmt.Errorf("ent: check existence: %w", &pq.Error{Code: "22021", Message: `invalid byte sequence for encoding "UTF8": 0x00`})
	if got := From(err); got.Kind != KindInvalid || got.Message != unstorableTextMessage {
		t.Errorf("From(NUL in text) = %v %q, want KindInvalid with %q", got.Kind, got.Message, unstorableTextMessage)
	}
}

func TestFromMakesUnstorableJSONText422(t *testing.T) {
	err := fmt.Errorf("saving: %w", &pq.Error{Code: "22P05", Message: "unsupported Unicode escape sequence"})
	if got := From(err); got.Kind != KindInvalid {
		t.Errorf("From(\\u0000 in JSON) = %v, want KindInvalid", got.Kind)
	}
}
