package rest

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/switchboard/switchboard/internal/coerce"
)

// The field types of the request structs. Each takes its value as JSON
// carries it and as forms and query strings carry it (text), and reads it
// with the one coercion of its type in internal/coerce, which GraphQL
// shares. A value it refuses is a fieldError, which decode turns into a 422
// naming the field.

type fieldError struct {
	msg string
	// key is the failing key inside the field's own object, for a field
	// type that reads an object itself (item_details' "value").
	key string
}

func (e *fieldError) Error() string { return e.msg }

// scalarText is the text of a JSON string or number; ok is false for
// anything else (booleans, objects, lists, null).
func scalarText(data []byte) (string, bool) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return "", false
	}
	switch c := data[0]; {
	case c == '"':
		var s string
		if json.Unmarshal(data, &s) != nil {
			return "", false
		}
		return s, true
	case c == '-' || c >= '0' && c <= '9':
		return string(data), true
	}
	return "", false
}

func isNull(data []byte) bool { return string(bytes.TrimSpace(data)) == "null" }

// flexString accepts a string or a number (attribute_model may be 0 or 1).
type flexString string

func (s *flexString) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	text, ok := scalarText(data)
	if !ok {
		return &fieldError{msg: "expected a string, got " + truncate(string(data), 40)}
	}
	*s = flexString(text)
	return nil
}

// ptr is the value as the operations take it: nil when it was not sent.
func (s *flexString) ptr() *string { return copyOf((*string)(s)) }

// copyOf is a copy of *p; nil stays nil.
func copyOf[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// readScalar reads a JSON string or number into dst with its type's one
// coercion; null leaves dst as it is.
func readScalar[T any](data []byte, dst *T, read func(string) (T, error), what string) error {
	if isNull(data) {
		return nil
	}
	text, ok := scalarText(data)
	if !ok {
		return &fieldError{msg: truncate(string(data), 40) + " is not " + what}
	}
	v, err := read(text)
	if err != nil {
		return &fieldError{msg: err.Error()}
	}
	*dst = v
	return nil
}

// flexBool accepts true/false and the text forms carry ("true", "0", ...).
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	text := string(bytes.TrimSpace(data))
	if text == "null" {
		return nil
	}
	if s, ok := scalarText(data); ok {
		text = s
	} else if text != "true" && text != "false" {
		return &fieldError{msg: truncate(text, 40) + " is not a boolean"}
	}
	v, err := coerce.Bool(text)
	if err != nil {
		return &fieldError{msg: err.Error()}
	}
	*b = flexBool(v)
	return nil
}

func (b *flexBool) ptr() *bool { return copyOf((*bool)(b)) }

// flexInt accepts an integer or its text.
type flexInt int

func (n *flexInt) UnmarshalJSON(data []byte) error {
	return readScalar(data, (*int)(n), coerce.Int, "an integer")
}

func (n *flexInt) ptr() *int { return copyOf((*int)(n)) }

// flexFloat accepts a finite number or its text.
type flexFloat float64

func (f *flexFloat) UnmarshalJSON(data []byte) error {
	return readScalar(data, (*float64)(f), coerce.Float, "a number")
}

func (f *flexFloat) ptr() *float64 { return copyOf((*float64)(f)) }

// flexDay accepts YYYY-MM-DD or an ISO 8601 time, read in UTC.
type flexDay time.Time

func (d *flexDay) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	var text string
	if json.Unmarshal(data, &text) != nil {
		return &fieldError{msg: "expected a date (YYYY-MM-DD) or an ISO 8601 time"}
	}
	t, err := coerce.Day(text)
	if err != nil {
		return &fieldError{msg: err.Error()}
	}
	*d = flexDay(t)
	return nil
}

// flexObject accepts an object or a string holding a JSON object.
type flexObject map[string]any

func (o *flexObject) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		if strings.TrimSpace(s) == "" {
			*o = flexObject{}
			return nil
		}
		data = []byte(s)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return &fieldError{msg: "expected a JSON object, got " + truncate(string(data), 40)}
	}
	if m == nil {
		m = map[string]any{}
	}
	*o = m
	return nil
}

// flexStrings accepts a list of strings (or numbers), a JSON-encoded list,
// or "a,b".
type flexStrings []string

func (l *flexStrings) UnmarshalJSON(data []byte) error {
	items, err := listItems(data)
	if err != nil {
		return &fieldError{msg: "expected a list of strings"}
	}
	out := make([]string, 0, len(items))
	for _, item := range items {
		var s flexString
		if s.UnmarshalJSON(item) != nil || isNull(item) {
			return &fieldError{msg: "expected a list of strings"}
		}
		out = append(out, string(s))
	}
	*l = out
	return nil
}

// flexInts accepts a list of integer ids, each a number, its text or an
// {"id": n} object as clients echo records back; "1,2"; or one id.
type flexInts []int

func (l *flexInts) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] != '[' && t[0] != '"' {
		data = append(append([]byte{'['}, t...), ']') // one id
	}
	items, err := listItems(data)
	if err != nil {
		return &fieldError{msg: "expected a list of integer ids"}
	}
	out := make([]int, 0, len(items))
	for _, item := range items {
		var ref struct {
			ID *flexInt `json:"id"`
		}
		if t := bytes.TrimSpace(item); len(t) > 0 && t[0] == '{' {
			if json.Unmarshal(t, &ref) != nil || ref.ID == nil {
				return &fieldError{msg: "expected a list of integer ids"}
			}
			out = append(out, int(*ref.ID))
			continue
		}
		var n flexInt
		if n.UnmarshalJSON(item) != nil || isNull(item) {
			return &fieldError{msg: truncate(string(item), 40) + " is not an integer id"}
		}
		out = append(out, int(n))
	}
	*l = out
	return nil
}

// listItems is the one list parser of the request bodies: the JSON items
// of a list, of a string holding a JSON list, or of "a,b" (each a string).
func listItems(data []byte) ([]json.RawMessage, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return nil, err
		}
		if !strings.HasPrefix(strings.TrimSpace(s), "[") {
			var items []json.RawMessage
			for _, p := range coerce.List(s) {
				raw, _ := json.Marshal(p)
				items = append(items, raw)
			}
			return items, nil
		}
		data = []byte(s)
	}
	var items []json.RawMessage
	err := json.Unmarshal(data, &items)
	return items, err
}

// optional is a field whose null clears the stored value (a card's
// conversation, an automation's funnel); absent keeps it.
type optional[T any] struct {
	sent, clear bool
	value       T
}

func (o *optional[T]) UnmarshalJSON(data []byte) error { return o.read(data, false) }

func (o *optional[T]) read(data []byte, blankClears bool) error {
	o.sent = true
	if s := string(bytes.TrimSpace(data)); s == "null" || blankClears && s == `""` {
		o.clear = true
		return nil
	}
	return json.Unmarshal(data, &o.value)
}

// get is the sent value; nil when it was not sent or was cleared.
func (o *optional[T]) get() *T {
	if !o.sent || o.clear {
		return nil
	}
	return &o.value
}

// clearable is an optional field that a blank string clears too, as the
// board's checklist forms send an emptied due date or agent.
type clearable[T any] struct{ optional[T] }

func (o *clearable[T]) UnmarshalJSON(data []byte) error { return o.read(data, true) }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
