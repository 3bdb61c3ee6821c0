//go:build ignore

package main

import (
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc/gen"
	"entgo.io/ent/schema"
	"github.com/vektah/gqlparser/v2/ast"
)

// describe gives the generated schema the descriptions entgql leaves out,
// taken from ent/schema where the ent type says them: a type's
// schema.Comment annotation, an enum field's comment and its EnumValues
// annotation (each value's meaning). Field and edge comments entgql
// copies itself. The where-input predicates and the order fields get
// descriptions made from the field they filter or order by, saying what
// the operator does. TestEverySchemaElementIsDescribed (graph/) finds
// whatever is still left without one.
func describe(g *gen.Graph, s *ast.Schema) error {
	if q := s.Types["Query"]; q != nil {
		q.Description = "The entry point of reads. Every field answers under the viewer's privacy rules " +
			"(account, inbox membership, role): a row the viewer may not see is absent, as in the REST API."
	}
	for _, n := range g.Nodes {
		name, ok := gqlName(n)
		if !ok {
			continue
		}
		def := s.Types[name]
		if def == nil {
			continue
		}
		def.Description = typeComment(n)
		if id := def.Fields.ForName("id"); id != nil {
			id.Description = "The opaque global id of the " + name + ": it names the type, so node(id:) " +
				"fetches it; pass it to arguments as is. Not the REST id (see databaseId)."
		}
		describeConnectionEdges(n, def)
		describeListEdges(n, def)
		if err := describeEnums(n, def, s); err != nil {
			return err
		}
		describeOrderFields(n, name, s.Types[name+"OrderField"])
		describeWhere(def, s.Types[name+"WhereInput"])
	}
	return nil
}

// describeConnectionEdges gives an edge that is a Relay connection its
// comment: entgql builds such a field anew and leaves the comment behind.
func describeConnectionEdges(t *gen.Type, def *ast.Definition) {
	for _, e := range t.Edges {
		if f := def.Fields.ForName(camel(e.Name)); f != nil && f.Description == "" {
			f.Description = e.Comment()
		}
	}
}

// listEdgeBound is graph's bound of a plain list field (defaultListBound
// in graph/cost.go): a longer list is cut there with a LIST_TRUNCATED
// error. TestListBoundsAreDocumented holds the two together.
const listEdgeBound = 100

// edgeBounds are the plain list edges capped below listEdgeBound where
// they are written (graph/cost.go's listBounds: core.MaxFunnelStages,
// schema.MaxCardAgents).
var edgeBounds = map[string]int{"Funnel.stages": 25, "KanbanItem.assignedAgents": 10}

// describeListEdges tells of the bound of each edge that is a plain list.
func describeListEdges(t *gen.Type, def *ast.Definition) {
	for _, e := range t.Edges {
		f := def.Fields.ForName(camel(e.Name))
		if f == nil || f.Type.Elem == nil {
			continue
		}
		bound := listEdgeBound
		if b, ok := edgeBounds[t.Name+"."+f.Name]; ok {
			bound = b
		}
		f.Description = strings.TrimSpace(f.Description + fmt.Sprintf(" At most %d are returned: a longer list "+
			"is cut there, with a LIST_TRUNCATED error.", bound))
	}
}

// typeComment is the text of the ent type's schema.Comment annotation.
func typeComment(t *gen.Type) string {
	ant := &schema.CommentAnnotation{}
	raw, ok := t.Annotations[ant.Name()]
	if !ok {
		return ""
	}
	decode(raw, ant, t.Name)
	return ant.Text
}

// describeEnums documents the enum types of the type's enum fields: the
// type by the field's comment, each value by the field's EnumValues
// annotation.
func describeEnums(t *gen.Type, def *ast.Definition, s *ast.Schema) error {
	for _, f := range t.Fields {
		if !f.IsEnum() {
			continue
		}
		fd := def.Fields.ForName(camel(f.Name))
		if fd == nil {
			continue
		}
		enum := s.Types[fd.Type.Name()]
		if enum == nil || enum.Kind != ast.Enum {
			return fmt.Errorf("enum field %s.%s has no enum type in the schema", t.Name, f.Name)
		}
		if f.Comment() == "" {
			return fmt.Errorf("enum field %s.%s needs a Comment: it describes its GraphQL enum", t.Name, f.Name)
		}
		enum.Description = fmt.Sprintf("The values of %s.%s. %s", def.Name, fd.Name, f.Comment())
		docs := map[string]string{}
		if raw, ok := f.Annotations["EnumValues"]; ok {
			decode(raw, &docs, t.Name+"."+f.Name)
		}
		for _, v := range enum.EnumValues {
			v.Description = docs[v.Name]
			delete(docs, v.Name)
		}
		if len(docs) > 0 {
			return fmt.Errorf("EnumValues of %s.%s documents values it does not have: %v", t.Name, f.Name, docs)
		}
	}
	return nil
}

// describeOrderFields documents the values of the type's order-field enum
// by the field each orders by.
func describeOrderFields(t *gen.Type, name string, enum *ast.Definition) {
	if enum == nil {
		return
	}
	enum.Description = "The fields " + name + " connections can be ordered by (orderBy: [{field, direction}], " +
		"applied in the order given). Equal values are ordered by id, so cursors stay stable across pages."
	by := map[string]string{}
	for _, f := range t.Fields {
		ant := &entgql.Annotation{}
		if raw, ok := f.Annotations[ant.Name()]; ok {
			decode(raw, ant, t.Name+"."+f.Name)
		}
		if ant.OrderField != "" {
			by[ant.OrderField] = camel(f.Name)
		}
	}
	for _, v := range enum.EnumValues {
		if field, ok := by[v.Name]; ok {
			v.Description = "Orders by " + name + "." + field + "."
		}
	}
}

// camel is entgql's GraphQL name of an ent field (phone_number: phoneNumber).
var camel = gen.Funcs["camel"].(func(string) string)

func decode(raw any, into any, what string) {
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, into)
	}
	if err != nil {
		log.Fatalf("decoding an annotation of %s: %v", what, err)
	}
}

// predicateDocs say what each where-input operator keeps, longest suffix
// first so that NotIn is not read as In.
var predicateDocs = []struct{ suffix, doc string }{
	{"ContainsFold", "contains the value, ignoring case"},
	{"EqualFold", "equals the value, ignoring case"},
	{"HasPrefix", "starts with the value (case-sensitive)"},
	{"HasSuffix", "ends with the value (case-sensitive)"},
	{"Contains", "contains the value (case-sensitive)"},
	{"NotNil", "is set; true keeps only those rows, false or absent filters nothing"},
	{"IsNil", "is null (not set); true keeps only those rows, false or absent filters nothing"},
	{"NotIn", "is none of the values (a null value matches none of them)"},
	{"NEQ", "differs from the value (a null value does not match)"},
	{"GTE", "is greater than or equal to the value (times: at or after)"},
	{"LTE", "is less than or equal to the value (times: at or before)"},
	{"GT", "is greater than the value (times: after)"},
	{"LT", "is less than the value (times: before)"},
	{"In", "is one of the values"},
}

// describeWhere documents every predicate of a where input by the field
// or edge it tests and what it keeps.
func describeWhere(def, where *ast.Definition) {
	if where == nil {
		return
	}
	where.Description = "Filters " + def.Name + " rows; the predicates set on one input must all hold " +
		"(use or for alternatives). Rows the viewer may not see are never returned, whatever the filter."
	for _, f := range where.Fields {
		if doc := predicateDoc(def, where.Name, f.Name); doc != "" {
			f.Description = doc
		}
	}
}

func predicateDoc(def *ast.Definition, where, name string) string {
	switch name {
	case "not":
		return "Keeps the rows the nested filter does not keep."
	case "and":
		return "Keeps the rows every nested filter keeps."
	case "or":
		return "Keeps the rows at least one nested filter keeps."
	}
	if edge, ok := strings.CutPrefix(name, "has"); ok && edge != "" {
		return edgePredicateDoc(def, strings.ToLower(edge[:1])+edge[1:])
	}
	if def.Fields.ForName(name) != nil {
		return fmt.Sprintf("Keeps the rows whose %s.%s equals the value.", def.Name, name)
	}
	for _, p := range predicateDocs {
		if base, ok := strings.CutSuffix(name, p.suffix); ok && def.Fields.ForName(base) != nil {
			return fmt.Sprintf("Keeps the rows whose %s.%s %s.", def.Name, base, p.doc)
		}
	}
	return ""
}

// edgePredicateDoc documents hasX and hasXWith.
func edgePredicateDoc(def *ast.Definition, edge string) string {
	if base, ok := strings.CutSuffix(edge, "With"); ok && def.Fields.ForName(base) != nil {
		return fmt.Sprintf("Keeps the rows with a %s.%s that every given filter keeps (one related row must match all of them).", def.Name, base)
	}
	if def.Fields.ForName(edge) != nil {
		return fmt.Sprintf("true keeps the rows with at least one %s.%s, false those with none.", def.Name, edge)
	}
	return ""
}
