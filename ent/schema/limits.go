package schema

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
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
	// MaxJSONDepth caps how deep a JSON value nests: SQLite's JSON
	// functions refuse past 1,000 levels, and one such contact broke every
	// attribute filter of its account.
	MaxJSONDepth = 32
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
// MaxJSONBytes serialized or MaxJSONDepth deep, a JSON list over its cap,
// or a NUL in any text, a JSON field's strings included. ent has no
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

// nulText is the rule for a NUL byte in text, on both engines: PostgreSQL
// cannot store one (apperr answers its refusal the same way) and SQLite
// would, so the same request would succeed on one and fail on the other.
func nulText(name string) error {
	return apperr.Invalidf(name, "%s must not contain NUL bytes (\\u0000)", apperr.Humanize(name))
}

func checkJSONField(name string, v any) error {
	if s, ok := v.(string); ok && strings.IndexByte(s, 0) >= 0 {
		return nulText(name)
	}
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
	depth, nul := scanJSON(b)
	if nul {
		return nulText(name)
	}
	if depth > MaxJSONDepth {
		return apperr.Invalidf(name, "%s nests deeper than %d levels", apperr.Humanize(name), MaxJSONDepth)
	}
	return nil
}

// scanJSON reads valid JSON b: how deep its objects and lists nest (0 for
// a scalar), and whether a string in it holds a NUL (the escape \u0000).
func scanJSON(b []byte) (deepest int, nul bool) {
	depth := 0
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			nul = nul || bytes.HasPrefix(b[i+1:], []byte("u0000"))
			i++ // the escaped character
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest, nul
}
