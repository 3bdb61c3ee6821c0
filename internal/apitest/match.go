package apitest

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Matcher is an expectation other than plain equality; it returns "" when
// got (present says whether the path exists at all) is acceptable.
type Matcher func(got any, present bool) string

// Absent: the path must not exist.
var Absent Matcher = func(got any, present bool) string {
	if present {
		return fmt.Sprintf("want no value, got %#v", got)
	}
	return ""
}

// AbsentOrNull: the path must not exist, or hold null.
var AbsentOrNull Matcher = func(got any, present bool) string {
	if present && got != nil {
		return fmt.Sprintf("want nothing, got %#v", got)
	}
	return ""
}

// Present: any value, null included.
var Present Matcher = func(got any, present bool) string {
	if !present {
		return "want a value, got none"
	}
	return ""
}

// NonEmpty: a string with more than white space.
var NonEmpty Matcher = func(got any, present bool) string {
	if s, ok := got.(string); !ok || strings.TrimSpace(s) == "" {
		return fmt.Sprintf("want a non-empty string, got %#v", got)
	}
	return ""
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// IsUUID: a UUID string.
var IsUUID Matcher = func(got any, present bool) string {
	if s, ok := got.(string); !ok || !uuidPattern.MatchString(s) {
		return fmt.Sprintf("want a UUID, got %#v", got)
	}
	return ""
}

var isoPattern = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$`)

// IsISOTime: an ISO 8601 UTC timestamp string.
var IsISOTime Matcher = func(got any, present bool) string {
	if s, ok := got.(string); !ok || !isoPattern.MatchString(s) {
		return fmt.Sprintf("want an ISO 8601 UTC time, got %#v", got)
	}
	return ""
}

// SameItems: a list holding exactly these items, in any order.
func SameItems(items ...any) Matcher {
	return func(got any, present bool) string {
		list, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("want a list of %v, got %#v", items, got)
		}
		want := NormalizeList(items)
		if !reflect.DeepEqual(sortedJSON(list), sortedJSON(want)) {
			return fmt.Sprintf("want the items %s in any order, got %s", Compact(want), Compact(list))
		}
		return ""
	}
}

// Count: a list of n items.
func Count(n int) Matcher {
	return func(got any, present bool) string {
		if list, ok := got.([]any); !ok || len(list) != n {
			return fmt.Sprintf("want a list of %d items, got %s", n, Compact(got))
		}
		return ""
	}
}

// Contains: a list holding at least these items.
func Contains(items ...any) Matcher {
	return func(got any, present bool) string {
		list, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("want a list containing %v, got %#v", items, got)
		}
		for _, w := range NormalizeList(items) {
			if !slicesContain(list, w) {
				return fmt.Sprintf("want a list containing %s, got %s", Compact(w), Compact(list))
			}
		}
		return ""
	}
}

// Excludes: a list holding none of these items.
func Excludes(items ...any) Matcher {
	return func(got any, present bool) string {
		list, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("want a list, got %#v", got)
		}
		for _, w := range NormalizeList(items) {
			if slicesContain(list, w) {
				return fmt.Sprintf("want a list without %s, got %s", Compact(w), Compact(list))
			}
		}
		return ""
	}
}

func slicesContain(list []any, w any) bool {
	for _, g := range list {
		if reflect.DeepEqual(g, w) {
			return true
		}
	}
	return false
}

func sortedJSON(list []any) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = Compact(v)
	}
	sort.Strings(out)
	return out
}

// Expect checks every path of want (a value, compared as JSON, or a
// Matcher) against body; label names the request in failures.
func Expect(t testing.TB, label string, body any, want map[string]any) {
	t.Helper()
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		got, ok := Lookup(body, p)
		switch w := want[p].(type) {
		case Matcher:
			if msg := w(got, ok); msg != "" {
				t.Errorf("%s: at %q: %s", label, p, msg)
			}
		default:
			nw := Normalize(w)
			if !ok {
				t.Errorf("%s: at %q: want %s, got no value", label, p, Compact(nw))
			} else if !reflect.DeepEqual(got, nw) {
				t.Errorf("%s: at %q: want %s, got %s", label, p, Compact(nw), Compact(got))
			}
		}
	}
}
