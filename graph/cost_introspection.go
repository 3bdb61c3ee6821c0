package graph

import "github.com/vektah/gqlparser/v2/ast"

// Introspection answers from the schema itself, so its cost is counted over
// the schema rather than estimated from list bounds: what a selection of
// __schema or __type would answer, value by value. A full introspection of
// this schema is about 33,000 values (800 KB), so one fits in a request's
// MaxCost and two, or thirty aliased partial ones, do not. Priced at nothing,
// thirty aliases answered 4.4 MB from a 1 KB query.

// metaNode is one object of an introspection answer; one of its fields is
// set, or none for an __EnumValue (names and flags only).
type metaNode struct {
	schema *ast.Schema             // __Schema
	named  *ast.Definition         // a __Type by its name
	ref    *ast.Type               // a __Type as a field or argument writes it: a list, a non-null or a name
	field  *ast.FieldDefinition    // a __Field, or an input object's field as an __InputValue
	arg    *ast.ArgumentDefinition // an argument's __InputValue
	dir    *ast.DirectiveDefinition
}

// introspection prices __schema and __type; __typename costs nothing, as
// everywhere.
func (w *costWalk) introspection(f *ast.Field) int {
	switch f.Name {
	case "__schema":
		return w.add(1, w.metaSet(f.SelectionSet, metaNode{schema: w.schema}))
	case "__type":
		w.readVars = true
		name, _ := f.ArgumentMap(w.vars)["name"].(string)
		if t := w.schema.Types[name]; t != nil {
			return w.add(1, w.metaSet(f.SelectionSet, metaNode{named: t}))
		}
		return 1 // null
	}
	return 0
}

// metaSet counts what set answers for n. Every field it visits is a value
// of the answer, so the walk stops once it has visited more than the limit:
// introspection is not held to the depth limit, and a deep query could
// otherwise make the count itself long.
func (w *costWalk) metaSet(set ast.SelectionSet, n metaNode) int {
	c := 0
	for _, sel := range set {
		if w.metaVisits > w.limit {
			return w.limit + 1
		}
		switch x := sel.(type) {
		case *ast.Field:
			c = w.add(c, w.metaField(x, n))
		case *ast.InlineFragment:
			c = w.add(c, w.metaSet(x.SelectionSet, n))
		case *ast.FragmentSpread:
			if x.Definition != nil {
				c = w.add(c, w.metaSet(x.Definition.SelectionSet, n))
			}
		}
	}
	return c
}

// metaField counts one field of n as costWalk counts any other: a scalar
// or a null 1, an object 1 and its selection, a list the sum of its items.
func (w *costWalk) metaField(f *ast.Field, n metaNode) int {
	if f.Name == "__typename" {
		return 0
	}
	w.metaVisits++
	items, list := w.metaChildren(n, f.Name)
	if !list {
		if len(items) == 0 {
			return 1
		}
		return w.add(1, w.metaSet(f.SelectionSet, items[0]))
	}
	c := 0
	for _, item := range items {
		if w.metaVisits > w.limit {
			return w.limit + 1
		}
		w.metaVisits++
		c = w.add(c, max(w.metaSet(f.SelectionSet, item), 1))
	}
	return c
}

// metaChildren is what field name of n holds: its items when it is a list,
// the one object it names, or nothing for a scalar or a null.
func (w *costWalk) metaChildren(n metaNode, name string) (items []metaNode, list bool) {
	switch {
	case n.schema != nil:
		return schemaChildren(n.schema, name)
	case n.ref != nil:
		return w.refChildren(n.ref, name)
	case n.named != nil:
		return typeChildren(w.schema, n.named, name)
	case n.field != nil && name == "args":
		return argNodes(n.field.Arguments), true
	case n.field != nil && name == "type":
		return []metaNode{{ref: n.field.Type}}, false
	case n.arg != nil && name == "type":
		return []metaNode{{ref: n.arg.Type}}, false
	case n.dir != nil && name == "args":
		return argNodes(n.dir.Arguments), true
	case n.dir != nil && name == "locations":
		return make([]metaNode, len(n.dir.Locations)), true
	}
	return nil, false
}

func schemaChildren(s *ast.Schema, name string) ([]metaNode, bool) {
	switch name {
	case "types":
		items := make([]metaNode, 0, len(s.Types))
		for _, t := range s.Types {
			items = append(items, metaNode{named: t})
		}
		return items, true
	case "directives":
		items := make([]metaNode, 0, len(s.Directives))
		for _, d := range s.Directives {
			items = append(items, metaNode{dir: d})
		}
		return items, true
	case "queryType":
		return namedNode(s.Query), false
	case "mutationType":
		return namedNode(s.Mutation), false
	case "subscriptionType":
		return namedNode(s.Subscription), false
	}
	return nil, false
}

// refChildren answers for a type as written: a non-null or a list wraps
// the type its ofType holds; a name is the named type.
func (w *costWalk) refChildren(t *ast.Type, name string) ([]metaNode, bool) {
	switch {
	case t.NonNull:
		if name != "ofType" {
			return nil, false
		}
		inner := *t
		inner.NonNull = false
		return []metaNode{{ref: &inner}}, false
	case t.Elem != nil:
		if name != "ofType" {
			return nil, false
		}
		return []metaNode{{ref: t.Elem}}, false
	}
	if def := w.schema.Types[t.NamedType]; def != nil {
		return typeChildren(w.schema, def, name)
	}
	return nil, false
}

func typeChildren(s *ast.Schema, t *ast.Definition, name string) ([]metaNode, bool) {
	switch name {
	case "fields":
		if t.Kind == ast.Object || t.Kind == ast.Interface {
			return fieldNodes(t.Fields), true
		}
	case "inputFields":
		if t.Kind == ast.InputObject {
			return fieldNodes(t.Fields), true
		}
	case "enumValues":
		if t.Kind == ast.Enum {
			return make([]metaNode, len(t.EnumValues)), true
		}
	case "interfaces":
		items := make([]metaNode, 0, len(t.Interfaces))
		for _, i := range t.Interfaces {
			items = append(items, namedNode(s.Types[i])...)
		}
		return items, true
	case "possibleTypes":
		if t.IsAbstractType() {
			items := make([]metaNode, 0, len(s.PossibleTypes[t.Name]))
			for _, p := range s.PossibleTypes[t.Name] {
				items = append(items, metaNode{named: p})
			}
			return items, true
		}
	}
	return nil, false
}

func namedNode(t *ast.Definition) []metaNode {
	if t == nil {
		return nil
	}
	return []metaNode{{named: t}}
}

func fieldNodes(fields ast.FieldList) []metaNode {
	items := make([]metaNode, len(fields))
	for i, f := range fields {
		items[i] = metaNode{field: f}
	}
	return items
}

func argNodes(args ast.ArgumentDefinitionList) []metaNode {
	items := make([]metaNode, len(args))
	for i, a := range args {
		items[i] = metaNode{arg: a}
	}
	return items
}
