//go:build ignore

package main

import (
	"log"

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
		entgql.WithSchemaHook(dropNodeLookups),
	)
	if err != nil {
		log.Fatalf("creating entgql extension: %v", err)
	}
	err = entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{
			gen.FeaturePrivacy,
			gen.FeatureEntQL,
			gen.FeatureLock,
			gen.FeatureUpsert,
			gen.FeatureModifier,
			gen.FeatureExecQuery,
			gen.FeatureIntercept,
			gen.FeatureVersionedMigration,
		},
	}, entc.Extensions(ex))
	if err != nil {
		log.Fatalf("running ent codegen: %v", err)
	}
}

// dropNodeLookups removes Query.node and Query.nodes: ids are per-table
// integers, so a bare id cannot name its type; clients use the typed fields.
func dropNodeLookups(_ *gen.Graph, s *ast.Schema) error {
	q := s.Types["Query"]
	if q == nil {
		return nil
	}
	var keep ast.FieldList
	for _, f := range q.Fields {
		if f.Name != "node" && f.Name != "nodes" {
			keep = append(keep, f)
		}
	}
	q.Fields = keep
	return nil
}
