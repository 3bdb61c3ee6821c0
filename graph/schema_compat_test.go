package graph

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// snapshotPath is the schema as last committed: what clients may rely on.
var snapshotPath = filepath.Join("testdata", "schema.graphql")

// TestSchemaChangesKeepCompatibility fails when a change breaks a client of
// the committed schema: a type, field, argument or enum value removed, or a
// field or argument retyped, unless the committed schema had already
// marked it @deprecated (the deprecation period); or a new required
// argument or input field. Then the committed snapshot must be the current
// schema: UPDATE_SCHEMA_SNAPSHOT=1 go test ./graph -run TestSchemaChanges
// writes it, to commit with the change.
func TestSchemaChangesKeepCompatibility(t *testing.T) {
	current := SDL()
	raw, err := os.ReadFile(snapshotPath)
	if os.IsNotExist(err) && os.Getenv("UPDATE_SCHEMA_SNAPSHOT") != "" {
		raw, err = []byte(current), os.WriteFile(snapshotPath, []byte(current), 0o644)
	}
	if err != nil {
		t.Fatalf("reading the committed schema: %v", err)
	}
	old, err := gqlparser.LoadSchema(&ast.Source{Name: snapshotPath, Input: string(raw)})
	if err != nil {
		t.Fatalf("the committed schema does not parse: %v", err)
	}
	now := NewExecutableSchema(newConfig(nil)).Schema()
	for _, problem := range breakingChanges(old, now) {
		t.Errorf("breaking change: %s", problem)
	}
	if t.Failed() || string(raw) == current {
		return
	}
	if os.Getenv("UPDATE_SCHEMA_SNAPSHOT") != "" {
		if err := os.WriteFile(snapshotPath, []byte(current), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the schema changed compatibly; refresh %s to commit with it: UPDATE_SCHEMA_SNAPSHOT=1 go test ./graph -run TestSchemaChanges", snapshotPath)
}

// breakingChanges lists what a client of old loses in now.
func breakingChanges(old, now *ast.Schema) []string {
	var out []string
	for _, name := range sortedTypeNames(old) {
		ot := old.Types[name]
		if ot.BuiltIn {
			continue
		}
		nt := now.Types[name]
		if nt == nil {
			out = append(out, fmt.Sprintf("type %s removed", name))
			continue
		}
		out = append(out, fieldChanges(name, ot, nt)...)
		out = append(out, enumChanges(name, ot, nt)...)
		if ot.Kind == ast.InputObject {
			out = append(out, newRequiredFields(name, ot.Fields, nt.Fields, "input field")...)
		}
	}
	return out
}

// withdrawn are fields removed at once, without a deprecation period,
// because they gave away what the viewer may not see; each is in the
// README's GraphQL changelog.
var withdrawn = map[string]bool{
	// A subquery past the inbox rule: an agent matched cards by the text of
	// conversations in inboxes they are not a member of.
	"KanbanItemWhereInput.hasConversation":     true,
	"KanbanItemWhereInput.hasConversationWith": true,
	// The same past the contact-link rule: an agent read which contacts are
	// linked to an inbox it does not work in, and their source ids there.
	"ContactWhereInput.hasContactInboxes":     true,
	"ContactWhereInput.hasContactInboxesWith": true,
}

// fieldChanges compares the fields of a type (and their arguments).
func fieldChanges(typ string, ot, nt *ast.Definition) []string {
	var out []string
	for _, of := range ot.Fields {
		nf := nt.Fields.ForName(of.Name)
		deprecated := of.Directives.ForName("deprecated") != nil || withdrawn[typ+"."+of.Name]
		switch {
		case nf == nil && !deprecated:
			out = append(out, fmt.Sprintf("%s.%s removed without a deprecation period", typ, of.Name))
		case nf == nil:
		case nf.Type.String() != of.Type.String() && !deprecated:
			out = append(out, fmt.Sprintf("%s.%s retyped from %s to %s", typ, of.Name, of.Type, nf.Type))
		default:
			out = append(out, argumentChanges(typ+"."+of.Name, of.Arguments, nf.Arguments, deprecated)...)
		}
	}
	return out
}

// argumentChanges compares a field's arguments.
func argumentChanges(field string, old, now ast.ArgumentDefinitionList, deprecated bool) []string {
	var out []string
	for _, oa := range old {
		na := now.ForName(oa.Name)
		switch {
		case na == nil && !deprecated:
			out = append(out, fmt.Sprintf("%s(%s) removed", field, oa.Name))
		case na != nil && na.Type.String() != oa.Type.String():
			out = append(out, fmt.Sprintf("%s(%s) retyped from %s to %s", field, oa.Name, oa.Type, na.Type))
		}
	}
	for _, na := range now {
		if old.ForName(na.Name) == nil && na.Type.NonNull && na.DefaultValue == nil {
			out = append(out, fmt.Sprintf("%s(%s) is a new required argument", field, na.Name))
		}
	}
	return out
}

// newRequiredFields lists the required input fields now has and old had not.
func newRequiredFields(typ string, old, now ast.FieldList, what string) []string {
	var out []string
	for _, nf := range now {
		if old.ForName(nf.Name) == nil && nf.Type.NonNull && nf.DefaultValue == nil {
			out = append(out, fmt.Sprintf("%s.%s is a new required %s", typ, nf.Name, what))
		}
	}
	return out
}

// enumChanges lists the enum values removed without deprecation.
func enumChanges(typ string, ot, nt *ast.Definition) []string {
	var out []string
	for _, ov := range ot.EnumValues {
		if nt.EnumValues.ForName(ov.Name) == nil && ov.Directives.ForName("deprecated") == nil {
			out = append(out, fmt.Sprintf("%s.%s (enum value) removed", typ, ov.Name))
		}
	}
	return out
}

func sortedTypeNames(s *ast.Schema) []string {
	names := make([]string, 0, len(s.Types))
	for n := range s.Types {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// The check catches what it says: a removed field, a retyped one, a new
// required argument; a field deprecated in the committed schema may go.
func TestBreakingChangesAreFound(t *testing.T) {
	load := func(sdl string) *ast.Schema {
		t.Helper()
		s, err := gqlparser.LoadSchema(&ast.Source{Input: sdl})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := `type Query { a: Int b: String c(x: Int): Int old: Int @deprecated(reason: "use a") } enum E { X Y }
		input I { p: Int }`
	for _, tc := range []struct {
		name, now string
		want      int
	}{
		{"unchanged", base, 0},
		{"a field added", `type Query { a: Int b: String c(x: Int): Int old: Int @deprecated(reason: "use a") d: Int } enum E { X Y } input I { p: Int }`, 0},
		{"a deprecated field removed", `type Query { a: Int b: String c(x: Int): Int } enum E { X Y } input I { p: Int }`, 0},
		{"a field removed", `type Query { a: Int c(x: Int): Int old: Int } enum E { X Y } input I { p: Int }`, 1},
		{"a field retyped", `type Query { a: Int! b: String c(x: Int): Int old: Int } enum E { X Y } input I { p: Int }`, 1},
		{"a new required argument", `type Query { a: Int b: String c(x: Int, y: Int!): Int old: Int } enum E { X Y } input I { p: Int }`, 1},
		{"an enum value removed", `type Query { a: Int b: String c(x: Int): Int old: Int } enum E { X } input I { p: Int }`, 1},
		{"a new required input field", `type Query { a: Int b: String c(x: Int): Int old: Int } enum E { X Y } input I { p: Int q: Int! }`, 1},
		{"a type removed", `type Query { a: Int b: String c(x: Int): Int old: Int } input I { p: Int }`, 1},
	} {
		if got := breakingChanges(load(base), load(tc.now)); len(got) != tc.want {
			t.Errorf("%s: %d breaking changes %v, want %d", tc.name, len(got), got, tc.want)
		}
	}
}
