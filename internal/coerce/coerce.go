// Package coerce is the one reading of each loosely typed input value.
// REST bodies, form fields and query strings carry numbers, booleans, lists
// and dates as text; GraphQL carries them typed but shares what is left to
// read (times and column mappings). Both transports call these functions,
// so a value means the same thing whichever way it arrives.
package coerce

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/switchboard/switchboard/internal/apperr"
)

// Int reads a decimal integer; surrounding blanks are ignored.
func Int(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%s is not an integer", shown(s))
	}
	return n, nil
}

// Float reads a finite number: NaN and infinities (or a value too large
// to hold) are refused, since no amount or bound is one.
func Float(s string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s is not a number", shown(s))
	}
	return f, nil
}

// Number reads a number left untyped by a decoder (a JSON or GraphQL map
// value): JSON's float64, GraphQL's integers, a json.Number, or text read
// as Float reads it. ok is false for anything else.
func Number(v any) (f float64, ok bool) {
	var err error
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err = Float(x.String())
	case string:
		f, err = Float(x)
	default:
		return 0, false
	}
	return f, err == nil
}

// Bool reads a boolean as strconv.ParseBool spells it (true, false, 1, 0,
// t, f, TRUE, ...); surrounding blanks are ignored, and a blank is false
// (a form's empty field).
func Bool(s string) (bool, error) {
	if strings.TrimSpace(s) == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return false, fmt.Errorf("%s is not a boolean", shown(s))
	}
	return b, nil
}

// List splits "a, b,,c" into its non-blank items, trimmed.
func List(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Time reads an ISO 8601 (RFC 3339) time. Times are kept in UTC: SQLite
// compares stored times as text, so an offset would misorder them.
func Time(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("%s is not an ISO 8601 time", shown(s))
	}
	return t.UTC(), nil
}

// Day reads YYYY-MM-DD (midnight UTC) or an ISO 8601 time (in UTC).
func Day(s string) (time.Time, error) {
	if t, err := Time(s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("%s is not a date (use YYYY-MM-DD or ISO 8601)", shown(s))
	}
	return t, nil
}

// StringMap reads an object whose values name things (a CSV import's
// column → card field mapping): each value is a string, null is "". An
// empty object is nil, as if nothing was sent. field names the input in
// errors.
func StringMap(m map[string]any, field string) (map[string]string, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok && v != nil {
			return nil, apperr.Invalidf(field, "%s must map names to strings: the value of %s is not a string", apperr.Humanize(field), shown(k))
		}
		out[k] = s
	}
	return out, nil
}

// shown is s quoted for an error message, cut to 40 bytes (on a rune) so
// that a huge value does not come back whole.
func shown(s string) string {
	if len(s) > 40 {
		s = strings.ToValidUTF8(s[:40], "") + "…"
	}
	return strconv.Quote(s)
}
