package rest

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/viewer"
)

// Field readers for the kanban bodies, whose nested item_details and mixed
// stage lists do not fit one request struct. Each accepts what the lenient
// binding elsewhere accepts (numbers as strings, booleans as "true") and
// answers a wrong type with a 422 naming field.

// unwrap returns m[wrapper] when the body is wrapped, else m.
func unwrap(m map[string]any, wrapper string) map[string]any {
	if inner, ok := m[wrapper].(map[string]any); ok {
		return inner
	}
	return m
}

func optString(m map[string]any, key, field string) (*string, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, nil
	}
	switch x := v.(type) {
	case string:
		return &x, nil
	case json.Number:
		s := x.String()
		return &s, nil
	}
	return nil, invalidField(field, humanField(field)+" must be a string")
}

func optBool(m map[string]any, key, field string) (*bool, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, nil
	}
	switch x := v.(type) {
	case bool:
		return &x, nil
	case string:
		if b, err := strconv.ParseBool(strings.TrimSpace(x)); err == nil {
			return &b, nil
		}
	}
	return nil, invalidField(field, humanField(field)+" must be true or false")
}

func optInt(m map[string]any, key, field string) (*int, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, nil
	}
	n, ok := toInt(v)
	if !ok {
		return nil, invalidField(field, humanField(field)+" must be an integer")
	}
	return &n, nil
}

func toInt(v any) (int, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = strings.TrimSpace(x)
	case float64:
		if x != math.Trunc(x) {
			return 0, false
		}
		return int(x), true
	default:
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

func optFloat(m map[string]any, key, field string) (*float64, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, nil
	}
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = strings.TrimSpace(x)
	case float64:
		return &x, nil
	default:
		return nil, invalidField(field, humanField(field)+" must be a number")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, invalidField(field, humanField(field)+" must be a number")
	}
	return &f, nil
}

// optInts reads a list of integer ids (or "1,2").
func optInts(m map[string]any, key, field string) (*[]int, error) {
	v, ok := m[key]
	if !ok {
		return nil, nil
	}
	var list []any
	switch x := v.(type) {
	case nil:
		return &[]int{}, nil
	case []any:
		list = x
	case []string:
		for _, s := range x {
			list = append(list, s)
		}
	case string:
		for _, s := range splitList(x) {
			list = append(list, s)
		}
	default:
		list = []any{x}
	}
	out := make([]int, 0, len(list))
	for _, el := range list {
		if obj, ok := el.(map[string]any); ok { // [{id: 1}] as clients echo agents back
			el = obj["id"]
		}
		n, ok := toInt(el)
		if !ok {
			return nil, invalidField(field, humanField(field)+" must be a list of integer ids")
		}
		out = append(out, n)
	}
	return &out, nil
}

func humanField(field string) string {
	if i := strings.LastIndexByte(field, '.'); i >= 0 {
		field = field[i+1:]
	}
	s := strings.ReplaceAll(field, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func viewerOf(c *fiber.Ctx) viewer.Viewer {
	v, _ := viewer.FromContext(c.UserContext())
	return v
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func sortStable[T any](xs []T, less func(a, b T) bool) {
	sort.SliceStable(xs, func(i, j int) bool { return less(xs[i], xs[j]) })
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
