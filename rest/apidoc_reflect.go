package rest

import (
	"reflect"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The request bodies' schemas come from the request structs themselves, by
// reflection over their json tags, so a field added to a struct is in the
// document. Fields are all optional (the operations say what is required,
// with a 422); the flex* types describe the spellings they accept.

// described is a request field type that says what it accepts.
type described interface{ apiSchema() *openapi3.Schema }

var describedType = reflect.TypeFor[described]()

// schemaOf is the JSON schema of what decoding into t accepts.
func schemaOf(t reflect.Type) *openapi3.Schema {
	if t.Kind() == reflect.Pointer {
		return schemaOf(t.Elem())
	}
	if t.Implements(describedType) {
		return reflect.Zero(t).Interface().(described).apiSchema()
	}
	switch t.Kind() {
	case reflect.Struct:
		s := openapi3.NewObjectSchema()
		addFields(s, t)
		return s
	case reflect.Slice, reflect.Array:
		return openapi3.NewArraySchema().WithItems(schemaOf(t.Elem()))
	case reflect.Map:
		return openapi3.NewObjectSchema().WithAnyAdditionalProperties()
	case reflect.String:
		return openapi3.NewStringSchema()
	case reflect.Bool:
		return openapi3.NewBoolSchema()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return openapi3.NewIntegerSchema()
	case reflect.Float32, reflect.Float64:
		return openapi3.NewFloat64Schema()
	}
	return &openapi3.Schema{} // any JSON value (an interface field)
}

// addFields adds t's JSON fields to s, embedded structs' fields included.
func addFields(s *openapi3.Schema, t reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			addFields(s, derefType(f.Type))
			continue
		}
		if !f.IsExported() || name == "" {
			continue
		}
		s.WithProperty(name, schemaOf(f.Type))
	}
}

// bodySchema is the request body's schema: the struct's fields, or the same
// object under the wrapper key.
func bodySchema(body any, wrapper string) *openapi3.Schema {
	s := schemaOf(reflect.TypeOf(body))
	if wrapper == "" {
		return s
	}
	wrapped := openapi3.NewObjectSchema().WithProperty(wrapper, s)
	return &openapi3.Schema{AnyOf: openapi3.SchemaRefs{openapi3.NewSchemaRef("", s), openapi3.NewSchemaRef("", wrapped)}}
}

// oneOfTypes is a schema of several JSON types ({"type": [...]}).
func oneOfTypes(types ...string) *openapi3.Schema {
	t := openapi3.Types(types)
	return &openapi3.Schema{Type: &t}
}

func (flexString) apiSchema() *openapi3.Schema { return oneOfTypes("string", "number") }
func (flexBool) apiSchema() *openapi3.Schema {
	return note(oneOfTypes("boolean", "string"), `true or false; forms send "true"/"false"`)
}
func (flexInt) apiSchema() *openapi3.Schema {
	return note(oneOfTypes("integer", "string"), "an integer, or its digits as a string")
}
func (flexFloat) apiSchema() *openapi3.Schema { return oneOfTypes("number", "string") }
func (flexDay) apiSchema() *openapi3.Schema {
	return note(openapi3.NewStringSchema(), "a date (YYYY-MM-DD) or an ISO 8601 time")
}
func (flexObject) apiSchema() *openapi3.Schema {
	return note(oneOfTypes("object", "string"), "an object; forms send it as a JSON string")
}
func (flexStrings) apiSchema() *openapi3.Schema {
	return note(oneOfTypes("array", "string").WithItems(openapi3.NewStringSchema()), "a list, or its items separated by commas")
}
func (flexInts) apiSchema() *openapi3.Schema {
	return note(oneOfTypes("array", "string").WithItems(flexInt(0).apiSchema()), "a list of integers, or them separated by commas")
}

func (optional[T]) apiSchema() *openapi3.Schema {
	return note(nullable(schemaOf(reflect.TypeFor[T]())), "null clears the stored value; absent keeps it")
}

func (clearable[T]) apiSchema() *openapi3.Schema {
	return note(nullable(schemaOf(reflect.TypeFor[T]())), `null or "" clears the stored value; absent keeps it`)
}

func (stageList) apiSchema() *openapi3.Schema {
	st := schemaOf(reflect.TypeFor[stageRequest]())
	return note(oneOfTypes("array", "object").WithItems(st).WithAdditionalProperties(st), "the stages in order, or an object of them by slug (with a position each)")
}

func (slugList) apiSchema() *openapi3.Schema {
	ref := openapi3.NewObjectSchema().WithProperty("slug", openapi3.NewStringSchema())
	item := &openapi3.Schema{AnyOf: openapi3.SchemaRefs{openapi3.NewSchemaRef("", openapi3.NewStringSchema()), openapi3.NewSchemaRef("", ref)}}
	return note(openapi3.NewArraySchema().WithItems(item), "the stage slugs in their new order")
}

func (positionList) apiSchema() *openapi3.Schema {
	item := openapi3.NewObjectSchema().
		WithProperty("id", flexInt(0).apiSchema()).
		WithProperty("position", flexInt(0).apiSchema()).
		WithProperty("funnel_stage", flexString("").apiSchema())
	item.Required = []string{"id", "position"}
	return openapi3.NewArraySchema().WithItems(item)
}

func (itemDetails) apiSchema() *openapi3.Schema {
	type columns itemDetails
	s := schemaOf(reflect.TypeFor[columns]())
	return note(s.WithAnyAdditionalProperties(), "the card's fields; other keys are kept as sent")
}

// nullable is s that also accepts null.
func nullable(s *openapi3.Schema) *openapi3.Schema {
	if s.Type == nil || len(*s.Type) == 0 {
		return s
	}
	t := append(openapi3.Types{}, (*s.Type)...)
	if !t.Includes("null") {
		t = append(t, "null")
	}
	s.Type = &t
	return s
}

// note is s with a description.
func note(s *openapi3.Schema, text string) *openapi3.Schema {
	s.Description = text
	return s
}
