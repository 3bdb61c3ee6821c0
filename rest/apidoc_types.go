package rest

import (
	"sort"

	"github.com/getkin/kin-openapi/openapi3"
)

// The response bodies are built as maps (internal/wire, Chatwoot's
// partials), so their schemas are declared here, next to nothing that could
// drift silently: the scenario suite validates every response it receives
// against them. Objects list every key the shape always has (required) and
// allow more, as Chatwoot's do; a key present only sometimes is optional.

// props are an object's properties.
type props map[string]*openapi3.Schema

// obj is an object with props, all required but the optional ones.
func obj(p props, optional ...string) *openapi3.Schema {
	s := openapi3.NewObjectSchema()
	skip := map[string]bool{}
	for _, k := range optional {
		skip[k] = true
	}
	for k, v := range p {
		s.WithProperty(k, v)
		if !skip[k] {
			s.Required = append(s.Required, k)
		}
	}
	sort.Strings(s.Required)
	return s
}

func str() *openapi3.Schema     { return openapi3.NewStringSchema() }
func integer() *openapi3.Schema { return openapi3.NewIntegerSchema() }
func number() *openapi3.Schema  { return openapi3.NewFloat64Schema() }
func boolean() *openapi3.Schema { return openapi3.NewBoolSchema() }
func null() *openapi3.Schema    { return oneOfTypes("null") }

// ts is a timestamp: ISO 8601 UTC (the spec's rule, where Chatwoot sends
// Unix integers).
func ts() *openapi3.Schema { return openapi3.NewDateTimeSchema() }

func nullStr() *openapi3.Schema { return nullable(str()) }
func nullInt() *openapi3.Schema { return nullable(integer()) }
func nullTS() *openapi3.Schema  { return nullable(ts()) }

// anyObj is an object of any keys (custom and additional attributes).
func anyObj() *openapi3.Schema { return openapi3.NewObjectSchema() }

func arr(items *openapi3.Schema) *openapi3.Schema { return openapi3.NewArraySchema().WithItems(items) }

// enum is a string out of values.
func enum(values ...string) *openapi3.Schema {
	s := str()
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// orNull is the schema r, or null.
func orNull(r *openapi3.SchemaRef) *openapi3.Schema {
	return &openapi3.Schema{AnyOf: openapi3.SchemaRefs{r, openapi3.NewSchemaRef("", null())}}
}

// shapesOrNull is one of the named components, or null.
func shapesOrNull(names ...string) *openapi3.SchemaRef {
	s := &openapi3.Schema{AnyOf: openapi3.SchemaRefs{inline(null())}}
	for _, n := range names {
		s.AnyOf = append(s.AnyOf, shape(n))
	}
	return inline(s)
}

// shape refers to a named component schema.
func shape(name string) *openapi3.SchemaRef {
	return openapi3.NewSchemaRef("#/components/schemas/"+name, nil)
}

// shapeOf is a component as a property's schema.
func shapeOf(name string) *openapi3.Schema {
	return &openapi3.Schema{AllOf: openapi3.SchemaRefs{shape(name)}}
}

// inline is an inline schema as a route's answer.
func inline(s *openapi3.Schema) *openapi3.SchemaRef { return openapi3.NewSchemaRef("", s) }

// listOf is a JSON array of the named component, as a route's answer.
func listOf(name string) *openapi3.SchemaRef {
	return inline(openapi3.NewArraySchema().WithItems(shapeOf(name)))
}

// payloadOf is {"payload": x}.
func payloadOf(x *openapi3.Schema) *openapi3.SchemaRef { return inline(obj(props{"payload": x})) }
