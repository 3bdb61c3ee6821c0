// Package wire holds the shapes Switchboard sends: Chatwoot's JSON objects,
// with every timestamp an ISO 8601 UTC string (the spec's rule) instead of
// Chatwoot's Unix integers. REST responses and webhook payloads are built
// from the same functions, so one object looks the same wherever it goes.
package wire

import (
	"reflect"
	"strings"
	"time"
)

// H is a JSON object.
type H = map[string]any

// TimePtr is an optional timestamp, or null.
func TimePtr(t *time.Time) any {
	if s := timeOrNil(t); s != nil {
		return *s
	}
	return nil
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
	if s := enumOrNil(v); s != nil {
		return *s
	}
	return nil
}

// timeOrNil is an optional timestamp for a typed shape: nil is null.
func timeOrNil(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := Time(*t)
	return &s
}

// enumOrNil is an optional enum value for a typed shape: nil is null.
func enumOrNil[T ~string](v *T) *string {
	if v == nil {
		return nil
	}
	s := string(*v)
	return &s
}

// Fields is the top-level members of a typed shape (a struct of this
// package) as a map, for the bodies that add keys beside them (webhook
// payloads); the values keep their types, so it encodes to the same JSON.
func Fields(shape any) H {
	v := reflect.ValueOf(shape)
	t := v.Type()
	h := make(H, t.NumField())
	for i := range t.NumField() {
		name, opts, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		f := v.Field(i)
		if opts == "omitempty" && isEmpty(f) {
			continue
		}
		h[name] = f.Interface()
	}
	return h
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.String, reflect.Array:
		return v.Len() == 0
	}
	return v.IsZero()
}
