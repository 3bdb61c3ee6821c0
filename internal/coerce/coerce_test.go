package coerce

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/switchboard/switchboard/internal/apperr"
)

// Each reading, with the texts it accepts and refuses.
func TestScalars(t *testing.T) {
	for _, c := range []struct {
		name string
		read func(string) (any, error)
		in   string
		want any // nil: refused
	}{
		{"int", intOf, " 42 ", 42},
		{"negative int", intOf, "-7", -7},
		{"int with a fraction", intOf, "1.5", nil},
		{"int past int64", intOf, "92233720368547758070", nil},
		{"blank int", intOf, "", nil},
		{"float", floatOf, "12.50", 12.5},
		{"float in exponent form", floatOf, "1e3", 1000.0},
		{"float past float64", floatOf, "1e400", nil},
		{"NaN", floatOf, "NaN", nil},
		{"infinity", floatOf, "-Inf", nil},
		{"bool", boolOf, "true", true},
		{"bool as a digit", boolOf, "0", false},
		{"bool with blanks", boolOf, " TRUE ", true},
		{"blank bool is false", boolOf, "  ", false},
		{"not a bool", boolOf, "maybe", nil},
		{"time keeps the instant, in UTC", timeOf, "2026-12-01T10:00:00+02:00", time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)},
		{"time without a zone", timeOf, "2026-12-01T10:00:00", nil},
		{"a date is not a time", timeOf, "2026-12-01", nil},
		{"day", dayOf, "2026-12-01", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		{"day as a time", dayOf, "2026-12-01T23:30:00-01:00", time.Date(2026, 12, 2, 0, 30, 0, 0, time.UTC)},
		{"impossible day", dayOf, "2026-02-30", nil},
	} {
		got, err := c.read(c.in)
		switch {
		case c.want == nil && err == nil:
			t.Errorf("%s: %q read as %v, want it refused", c.name, c.in, got)
		case c.want != nil && err != nil:
			t.Errorf("%s: %q refused: %v", c.name, c.in, err)
		case c.want != nil && fmt.Sprint(got) != fmt.Sprint(c.want):
			t.Errorf("%s: %q read as %v, want %v", c.name, c.in, got, c.want)
		}
	}
}

func intOf(s string) (any, error)   { return Int(s) }
func floatOf(s string) (any, error) { return Float(s) }
func boolOf(s string) (any, error)  { return Bool(s) }
func timeOf(s string) (any, error)  { return Time(s) }
func dayOf(s string) (any, error)   { return Day(s) }

func TestNumber(t *testing.T) {
	for _, c := range []struct {
		in   any
		want float64
		ok   bool
	}{
		{12.5, 12.5, true}, {3, 3, true}, {int64(-4), -4, true}, {json.Number("7"), 7, true},
		{" 2.5 ", 2.5, true}, {"lots", 0, false}, {"NaN", 0, false}, {json.Number("1e400"), 0, false},
		{math.Inf(1), 0, false}, {true, 0, false}, {nil, 0, false},
	} {
		got, ok := Number(c.in)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("Number(%#v) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestList(t *testing.T) {
	for in, want := range map[string]string{"a, b,,c ": "[a b c]", "": "[]", " , ": "[]", "one": "[one]"} {
		if got := fmt.Sprint(List(in)); got != want {
			t.Errorf("List(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestStringMap(t *testing.T) {
	for _, c := range []struct {
		name string
		in   map[string]any
		want string // the result as it prints
		bad  bool   // refused, naming the field
	}{
		{"strings", map[string]any{"Name": "title"}, "map[Name:title]", false},
		{"null is the empty string", map[string]any{"Name": "title", "Notes": nil}, "map[Name:title Notes:]", false},
		{"empty is nil", map[string]any{}, "map[]", false},
		{"a number is refused", map[string]any{"Name": 1}, "", true},
		{"an object is refused", map[string]any{"Name": map[string]any{}}, "", true},
	} {
		got, err := StringMap(c.in, "mappings")
		if c.bad {
			if ae, ok := err.(*apperr.Error); !ok || ae.Kind != apperr.KindInvalid || fmt.Sprint(ae.Fields) != "[mappings]" {
				t.Errorf("%s: got %v, %v; want invalid naming mappings", c.name, got, err)
			}
			continue
		}
		if err != nil || fmt.Sprint(got) != c.want {
			t.Errorf("%s: got %v, %v; want %s", c.name, got, err, c.want)
		}
		if len(c.in) == 0 && got != nil {
			t.Errorf("%s: an empty mapping read as %v, want nil", c.name, got)
		}
	}
}
