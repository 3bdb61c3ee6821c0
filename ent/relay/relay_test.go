package relay_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"

	"github.com/switchboard/switchboard/ent/relay"
)

// cursorCases are cursors of the shapes the generated code makes: an id alone,
// an id with one order field's value, and with several.
var cursorCases = []struct {
	name  string
	id    int
	value ent.Value
}{
	{"id only", 42, nil},
	{"string field", 7, "Ada Lovelace"},
	{"int field", 9, int64(-3)},
	{"float field", 11, 12.5},
	{"time field", 3, time.Date(2026, 12, 1, 9, 30, 0, 123456000, time.UTC)},
	{"several fields", 1 << 40, []any{"x", int64(5), time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}},
}

// TestCursorMatchesEntgql: the same cursor is the same text, and each package
// reads what the other wrote, so cursors handed out before this package
// replaced entgql's stay valid.
func TestCursorMatchesEntgql(t *testing.T) {
	for _, tc := range cursorCases {
		t.Run(tc.name, func(t *testing.T) {
			var ours, theirs bytes.Buffer
			relay.Cursor[int]{ID: tc.id, Value: tc.value}.MarshalGQL(&ours)
			entgql.Cursor[int]{ID: tc.id, Value: tc.value}.MarshalGQL(&theirs)
			if ours.String() != theirs.String() {
				t.Fatalf("cursor text = %s, entgql's = %s", ours.String(), theirs.String())
			}
			text := strings.Trim(theirs.String(), `"`)
			var back relay.Cursor[int]
			if err := back.UnmarshalGQL(text); err != nil {
				t.Fatalf("reading entgql's cursor: %v", err)
			}
			var again bytes.Buffer
			back.MarshalGQL(&again)
			if again.String() != ours.String() {
				t.Fatalf("read back and written again = %s, want %s", again.String(), ours.String())
			}
		})
	}
}

func TestCursorRefusals(t *testing.T) {
	tests := []struct {
		name  string
		input any
		want  string
	}{
		{"not a string", 12, "int is not a string"},
		{"not base64", "***", "cannot decode cursor"},
		{"not MessagePack", "//8", "cannot decode cursor"},
		{"too long", strings.Repeat("A", 4097), "longer than 4096 characters"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c relay.Cursor[int]
			err := c.UnmarshalGQL(tc.input)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestOrderDirection(t *testing.T) {
	for _, d := range []string{"ASC", "DESC", "asc", ""} {
		var ours relay.OrderDirection
		var theirs entgql.OrderDirection
		errOurs, errTheirs := ours.UnmarshalGQL(d), theirs.UnmarshalGQL(d)
		if (errOurs == nil) != (errTheirs == nil) {
			t.Fatalf("UnmarshalGQL(%q): error %v, entgql's %v", d, errOurs, errTheirs)
		}
		if errOurs != nil {
			continue
		}
		if string(ours.Reverse()) != string(theirs.Reverse()) {
			t.Fatalf("%s reversed = %s, entgql's %s", d, ours.Reverse(), theirs.Reverse())
		}
		var a, b bytes.Buffer
		ours.MarshalGQL(&a)
		theirs.MarshalGQL(&b)
		if a.String() != b.String() {
			t.Fatalf("%s written = %s, entgql's %s", d, a.String(), b.String())
		}
		if got, want := orderedBy(ours.OrderTermOption()), orderedBy(theirs.OrderTermOption()); got != want {
			t.Fatalf("%s orders by %s, entgql's %s", d, got, want)
		}
	}
	if err := new(relay.OrderDirection).UnmarshalGQL(1); err == nil {
		t.Fatal("a number was read as a direction")
	}
}

func orderedBy(o sql.OrderTermOption) string {
	s := sql.Select("*").From(sql.Table("t"))
	sql.OrderByField("name", o).ToFunc()(s)
	query, _ := s.Query()
	return query
}

func TestErrNodeNotFoundMatchesEntgql(t *testing.T) {
	ours, theirs := relay.ErrNodeNotFound("Q29udGFjdDox"), entgql.ErrNodeNotFound("Q29udGFjdDox")
	if ours.Message != theirs.Message || ours.Extensions["code"] != theirs.Extensions["code"] {
		t.Fatalf("error = %q %v, entgql's %q %v", ours.Message, ours.Extensions, theirs.Message, theirs.Extensions)
	}
}
