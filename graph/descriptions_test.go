package graph

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestEverySchemaElementIsDescribed fails naming each type, field,
// argument, input field and enum value of the served schema without a
// description: the schema is the frontend developers' reference
// (GraphiQL, codegen comments), so an element without one is undocumented
// API. Only the GraphQL specification's own types (introspection types
// and built-in scalars) are left out.
func TestEverySchemaElementIsDescribed(t *testing.T) {
	missing := undescribed(NewExecutableSchema(newConfig(nil)).Schema())
	for _, name := range missing {
		t.Errorf("%s has no description", name)
	}
	if len(missing) > 0 {
		t.Logf("%d schema elements without a description", len(missing))
	}
}

// undescribed lists the schema elements without a description, sorted.
func undescribed(s *ast.Schema) []string {
	var out []string
	for name, def := range s.Types {
		if specType(name) {
			continue
		}
		if blank(def.Description) {
			out = append(out, "type "+name)
		}
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			if blank(f.Description) {
				out = append(out, memberKind(def)+" "+name+"."+f.Name)
			}
			for _, a := range f.Arguments {
				if blank(a.Description) {
					out = append(out, "argument "+name+"."+f.Name+"("+a.Name+")")
				}
			}
		}
		for _, v := range def.EnumValues {
			if blank(v.Description) {
				out = append(out, "enum value "+name+"."+v.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// specType reports whether a type is the GraphQL specification's own: an
// introspection type or a built-in scalar. Scalars of our own (Time, Map,
// Upload) are described like any other type.
func specType(name string) bool {
	switch name {
	case "Int", "Float", "String", "Boolean", "ID":
		return true
	}
	return strings.HasPrefix(name, "__")
}

func memberKind(def *ast.Definition) string {
	if def.Kind == ast.InputObject {
		return "input field"
	}
	return "field"
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// The walk finds each kind of element without a description, and nothing
// in a fully described schema.
func TestUndescribedFindsEachKind(t *testing.T) {
	load := func(sdl string) *ast.Schema {
		t.Helper()
		s, err := gqlparser.LoadSchema(&ast.Source{Input: sdl})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	described := `"q" type Query { "a" a("x" x: Int): E "b" b("i" i: I): Int } "e" enum E { "x" X } "i" input I { "p" p: Int }`
	if got := undescribed(load(described)); len(got) != 0 {
		t.Errorf("a described schema: %v", got)
	}
	bare := `type Query { a(x: Int): E b(i: I): Int } enum E { X } input I { p: Int }`
	want := []string{"argument Query.a(x)", "argument Query.b(i)", "enum value E.X", "field Query.a", "field Query.b",
		"input field I.p", "type E", "type I", "type Query"}
	got := undescribed(load(bare))
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("a bare schema: got %v, want %v", got, want)
	}
}

// TestListBoundsAreDocumented holds the description of every plain list
// of objects (a query's list, an edge, a page's nodes) to the bound
// InterceptField enforces on it, so a client knows when to page. The
// Mutation root's lists are left to the payload types that replace them.
func TestListBoundsAreDocumented(t *testing.T) {
	s := NewExecutableSchema(newConfig(nil)).Schema()
	checked := 0
	for _, name := range sortedTypeNames(s) {
		def := s.Types[name]
		if def.Kind != ast.Object || specType(name) || name == "Mutation" || isConnectionName(name) {
			continue
		}
		for _, f := range def.Fields {
			elem := f.Type.Elem
			if elem == nil || s.Types[elem.Name()] == nil || s.Types[elem.Name()].Kind != ast.Object {
				continue
			}
			checked++
			bound := listBound(name, f.Name)
			if !mentionsNumber(f.Description, bound) {
				t.Errorf("%s.%s returns at most %d items, and its description does not say so: %q", name, f.Name, bound, f.Description)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d lists of objects found: the walk is broken", checked)
	}
}

// mentionsNumber reports whether text has n, written 5000 or 5,000.
func mentionsNumber(text string, n int) bool {
	plain := strconv.Itoa(n)
	grouped := plain
	if n >= 1000 {
		grouped = plain[:len(plain)-3] + "," + plain[len(plain)-3:]
	}
	// A whole number: "At most 100" does not say 10.
	re := regexp.MustCompile(`(?:^|[^0-9,])(?:` + plain + `|` + grouped + `)(?:$|[^0-9,]|,[^0-9])`)
	return re.MatchString(text)
}
