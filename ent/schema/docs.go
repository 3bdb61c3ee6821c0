package schema

// EnumValues documents each value of an enum field: ent/entc_docs.go
// writes them into the GraphQL enum the field gets, where frontend
// developers read them. A value it names that the enum lacks fails
// generation; a value it leaves out fails graph's
// TestEverySchemaElementIsDescribed.
type EnumValues map[string]string

// Name implements schema.Annotation.
func (EnumValues) Name() string { return "EnumValues" }
