//go:build ignore

package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
	"github.com/vektah/gqlparser/v2/ast"
)

func main() {
	ex, err := entgql.NewExtension(
		entgql.WithConfigPath("../gqlgen.yml"),
		entgql.WithSchemaGenerator(),
		entgql.WithSchemaPath("../graph/ent.graphqls"),
		entgql.WithWhereInputs(true),
		entgql.WithSchemaHook(globalIDs, resolvedEdges, servedEdges, describe),
	)
	if err != nil {
		log.Fatalf("creating entgql extension: %v", err)
	}
	err = entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{
			gen.FeaturePrivacy,
			gen.FeatureEntQL,
			gen.FeatureModifier,
			gen.FeatureIntercept,
			gen.FeatureVersionedMigration,
		},
	}, entc.Extensions(ex), entc.BuildTags("entgen"))
	if err != nil {
		log.Fatalf("running ent codegen: %v", err)
	}
	if err := useRelay("."); err != nil {
		log.Fatalf("pointing the generated code at ent/relay: %v", err)
	}
}

// entgqlImport and relayImport: the generated GraphQL code calls entgql's
// pagination under the name entgql; useRelay gives it ent/relay under
// that name, so the server does not link entgql's generator (see
// ent/relay and ent/schema/gql).
const (
	entgqlImport = `"entgo.io/contrib/entgql"`
	relayImport  = `entgql "github.com/switchboard/switchboard/ent/relay"`
)

// useRelay rewrites the entgql import of the generated gql_*.go files in dir.
func useRelay(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "gql_*.go"))
	if err != nil {
		return err
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if !bytes.Contains(src, []byte(entgqlImport)) {
			continue
		}
		src = bytes.Replace(src, []byte("\t"+entgqlImport+"\n"), []byte("\t"+relayImport+"\n"), 1)
		// gofmt puts the import where its path sorts.
		if src, err = format.Source(src); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if err := os.WriteFile(f, src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// globalIDs makes every ID in the generated schema a typed global id (see
// graph/globalid.go): each Node type gets databaseId (the REST id); a foreign
// key field, and its where-filters, names its target type with @globalId so
// inputs are type-checked and outputs encoded as that type (a key to a type
// outside the schema, the account, is typed with the ent name: node() cannot
// fetch one).
func globalIDs(g *gen.Graph, s *ast.Schema) error {
	for _, n := range g.Nodes {
		name, ok := gqlName(n)
		if !ok {
			continue
		}
		targets := foreignKeys(n)
		if def := s.Types[name]; def != nil {
			def.Fields = typeIDs(def.Fields, targets)
		}
		if def := s.Types[name+"WhereInput"]; def != nil {
			def.Fields = whereIDs(def.Fields, name, targets)
		}
	}
	return nil
}

// gqlName is the GraphQL type of an ent type, false when it has none.
func gqlName(t *gen.Type) (string, bool) {
	ant := &entgql.Annotation{}
	if raw, ok := t.Annotations[ant.Name()]; ok {
		if err := ant.Decode(raw); err != nil {
			log.Fatalf("decoding entgql annotation of %s: %v", t.Name, err)
		}
	}
	if ant.Skip.Is(entgql.SkipType) {
		return "", false
	}
	if ant.Type != "" {
		return ant.Type, true
	}
	return t.Name, true
}

// foreignKeys maps each foreign key's GraphQL field name (inbox_id: inboxID)
// to its target's GraphQL type, "" when the target is not in the schema.
func foreignKeys(t *gen.Type) map[string]string {
	out := map[string]string{}
	for _, f := range t.Fields {
		if !f.IsEdgeField() {
			continue
		}
		e, err := f.Edge()
		if err != nil {
			log.Fatalf("edge of %s.%s: %v", t.Name, f.Name, err)
		}
		target, ok := gqlName(e.Type)
		if !ok {
			// Not in the schema (the account): its ids are still typed,
			// though node() cannot fetch them.
			target = e.Type.Name
		}
		out[strings.ToLower(strings.ReplaceAll(f.Name, "_", ""))] = target
	}
	return out
}

func typeIDs(fields ast.FieldList, targets map[string]string) ast.FieldList {
	var out ast.FieldList
	for _, f := range fields {
		if f.Name == "id" {
			out = append(out, f, &ast.FieldDefinition{
				Name:        "databaseId",
				Description: "The object's database id: the id the REST API and webhooks use.",
				Type:        ast.NonNullNamedType("Int", nil),
				Directives:  ast.DirectiveList{goFieldName("ID")},
			})
			continue
		}
		if target, isFK := targets[strings.ToLower(f.Name)]; isFK {
			f.Directives = append(f.Directives, globalIDOf(target))
		}
		out = append(out, f)
	}
	return out
}

// whereIDs types the id and foreign-key predicates (id, idIn, inboxIDNEQ, ...)
// of a where input.
func whereIDs(fields ast.FieldList, self string, targets map[string]string) ast.FieldList {
	var out ast.FieldList
	for _, f := range fields {
		if f.Type.Name() != "ID" {
			out = append(out, f)
			continue
		}
		if f.Name == "id" || strings.HasPrefix(f.Name, "id") && strings.ToUpper(f.Name[2:3]) == f.Name[2:3] {
			f.Directives = append(f.Directives, globalIDOf(self))
			out = append(out, f)
			continue
		}
		if target := fkTarget(f.Name, targets); target != "" {
			f.Directives = append(f.Directives, globalIDOf(target))
		}
		// An ID left untyped fails TestEveryIDNamesItsType.
		out = append(out, f)
	}
	return out
}

// fkTarget finds the foreign key a predicate filters (inboxIDNotIn: inboxid).
func fkTarget(predicate string, targets map[string]string) string {
	i := strings.Index(predicate, "ID")
	if i < 0 {
		return ""
	}
	return targets[strings.ToLower(predicate[:i+2])]
}

// resolvedEdgeTypes are edges that graph/ resolves from the collected edge
// (gqlgen.yml marks them resolver: true), always as a list: their type and
// description.
var resolvedEdgeTypes = map[string]struct{ elem, doc string }{
	"Funnel.stages": {"FunnelStage", "The stages in board order."},
}

// resolvedEdges gives each of resolvedEdgeTypes its type and description.
func resolvedEdges(_ *gen.Graph, s *ast.Schema) error {
	for path, e := range resolvedEdgeTypes {
		typ, field, _ := strings.Cut(path, ".")
		def := s.Types[typ]
		if def == nil || def.Fields.ForName(field) == nil {
			return fmt.Errorf("resolved edge %s is not in the schema", path)
		}
		f := def.Fields.ForName(field)
		f.Type = ast.NonNullListType(ast.NonNullNamedType(e.elem, nil), nil)
		f.Description = e.doc
	}
	return nil
}

// servedEdgeNames are edges kept out of field collection (entgql.SkipType
// on the edge, so a query never joins them) that graph/ resolves itself
// (gqlgen.yml marks them resolver: true), from memory: each goes back into
// its type, as it was, a non-null field of its target with its comment.
var servedEdgeNames = []string{"ContactInbox.inbox"}

// servedEdges puts each of servedEdgeNames back into its type.
func servedEdges(g *gen.Graph, s *ast.Schema) error {
	for _, path := range servedEdgeNames {
		typ, name, _ := strings.Cut(path, ".")
		def := s.Types[typ]
		i := slices.IndexFunc(g.Nodes, func(n *gen.Type) bool { n2, ok := gqlName(n); return ok && n2 == typ })
		if def == nil || i < 0 || def.Fields.ForName(name) != nil {
			return fmt.Errorf("served edge %s: no such type, or its field is there already", path)
		}
		j := slices.IndexFunc(g.Nodes[i].Edges, func(e *gen.Edge) bool { return e.Name == name })
		if j < 0 {
			return fmt.Errorf("served edge %s: no such edge", path)
		}
		e := g.Nodes[i].Edges[j]
		def.Fields = append(def.Fields, &ast.FieldDefinition{Name: name, Description: e.Comment(),
			Type: ast.NonNullNamedType(e.Type.Name, nil)})
	}
	return nil
}

func globalIDOf(typ string) *ast.Directive {
	return &ast.Directive{Name: "globalId", Arguments: ast.ArgumentList{
		{Name: "type", Value: &ast.Value{Kind: ast.StringValue, Raw: typ}},
	}}
}

func goFieldName(name string) *ast.Directive {
	return &ast.Directive{Name: "goField", Arguments: ast.ArgumentList{
		{Name: "name", Value: &ast.Value{Kind: ast.StringValue, Raw: name}},
	}}
}
