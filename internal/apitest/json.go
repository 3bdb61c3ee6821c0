// Package apitest is the scenario harness the REST, GraphQL and console
// tests share: paths into decoded JSON, expectations other than equality,
// and the log of the events a request tells the account's listeners.
package apitest

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Lookup follows a dotted path through decoded JSON: object keys, list
// indexes ("payload.0.id"), "#" for a list's or object's length
// ("payload.#"), and "*" to collect a key over every list element
// ("payload.*.id").
func Lookup(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	head, rest, _ := strings.Cut(path, ".")
	switch x := v.(type) {
	case map[string]any:
		if head == "#" {
			return float64(len(x)), rest == ""
		}
		child, ok := x[head]
		if !ok {
			return nil, false
		}
		return Lookup(child, rest)
	case []any:
		switch head {
		case "#":
			return float64(len(x)), rest == ""
		case "*":
			out := make([]any, 0, len(x))
			for _, el := range x {
				got, ok := Lookup(el, rest)
				if !ok {
					return nil, false
				}
				out = append(out, got)
			}
			return out, true
		}
		i, err := strconv.Atoi(head)
		if err != nil || i < 0 || i >= len(x) {
			return nil, false
		}
		return Lookup(x[i], rest)
	}
	return nil, false
}

// Normalize turns an expected Go value into what decoding JSON would give
// (numbers float64, slices []any, maps map[string]any).
func Normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// NormalizeList is Normalize for a list, empty included.
func NormalizeList(items []any) []any {
	if len(items) == 0 {
		return []any{}
	}
	return Normalize(items).([]any)
}

// Compact is v as one line of JSON.
func Compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
