// Package wire holds the shapes Switchboard sends: Chatwoot's JSON objects,
// with every timestamp an ISO 8601 UTC string (the spec's rule) instead of
// Chatwoot's Unix integers. REST responses and webhook payloads are built
// from the same functions, so one object looks the same wherever it goes.
package wire

import "time"

// H is a JSON object.
type H = map[string]any

// timeLayout is the one timestamp format on the wire.
const timeLayout = "2006-01-02T15:04:05.000Z"

// Time is a timestamp as the API sends it.
func Time(t time.Time) string { return t.UTC().Format(timeLayout) }

// TimePtr is an optional timestamp, or null.
func TimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return Time(*t)
}

// StrPtr is an optional string, or null.
func StrPtr(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// IntPtr is an optional number, or null.
func IntPtr(n *int) any {
	if n == nil {
		return nil
	}
	return *n
}

// OrEmpty is xs, or an empty list for nil (never null).
func OrEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// OrEmptyMap is m, or an empty object for nil.
func OrEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// NilIfEmpty is s, or null for an empty string.
func NilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// EnumPtr is an optional enum value, or null.
func EnumPtr[T ~string](v *T) any {
	if v == nil {
		return nil
	}
	return string(*v)
}
