package schema

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"unicode/utf8"

	"entgo.io/ent"

	"github.com/switchboard/switchboard/internal/apperr"
)

// Size caps of stored data. They live here, as validators and one hook, so
// that REST, GraphQL, the console and jobs all meet them; a value over a cap
// is a 422 (BAD_USER_INPUT) naming the field, and nothing is stored.
const (
	// MaxNameRunes caps names and titles.
	MaxNameRunes = 255
	// MaxTextRunes caps free text: message content (Chatwoot's limit),
	// notes, descriptions.
	MaxTextRunes = 150_000
	// MaxURLRunes caps stored URLs.
	MaxURLRunes = 2048
	// MaxJSONBytes caps a JSON attribute object or list, serialized.
	MaxJSONBytes = 64 << 10
	// MaxLabels caps the labels of one conversation or contact.
	MaxLabels = 100
	// MaxListItems caps any other stored JSON list.
	MaxListItems = 1000
)

// listCaps are the JSON lists whose cap is lower than MaxListItems.
var listCaps = map[string]int{
	"labels":          MaxLabels,
	"recurrence_days": 7,
}

// uncappedJSON are JSON fields the hook leaves to their own rules: an
// inbox's channel carries provider-synced message templates.
var uncappedJSON = map[string]bool{"channel": true}

// maxRunes is a string validator: at most n characters (not bytes).
func maxRunes(n int) func(string) error {
	return func(s string) error {
		if len(s) > n && utf8.RuneCountInString(s) > n {
			return fmt.Errorf("is longer than %d characters", n)
		}
		return nil
	}
}

// dataLimitsHook refuses a create or update that sets a JSON field over
// MaxJSONBytes serialized, or a JSON list over its cap. ent has no
// validators for JSON fields, so this hook is their validator.
func dataLimitsHook() ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if !m.Op().Is(ent.OpDelete | ent.OpDeleteOne) {
				for _, name := range m.Fields() {
					v, _ := m.Field(name)
					if err := checkJSONField(name, v); err != nil {
						return nil, err
					}
				}
			}
			return next.Mutate(ctx, m)
		})
	}
}

func checkJSONField(name string, v any) error {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || uncappedJSON[name] {
		return nil
	}
	switch rv.Kind() {
	case reflect.Map:
	case reflect.Slice:
		max, ok := listCaps[name]
		if !ok {
			max = MaxListItems
		}
		if rv.Len() > max {
			return apperr.Invalidf(name, "%s takes at most %d entries, got %d", apperr.Humanize(name), max, rv.Len())
		}
	default:
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return apperr.Invalidf(name, "%s cannot be stored as JSON", apperr.Humanize(name))
	}
	if len(b) > MaxJSONBytes {
		return apperr.Invalidf(name, "%s is %d bytes serialized; the limit is %d bytes (64 KiB)", apperr.Humanize(name), len(b), MaxJSONBytes)
	}
	return nil
}
