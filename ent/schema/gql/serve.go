//go:build !entgen

package gql

import "entgo.io/ent/schema"

// SkipMode says what of a type or field the GraphQL schema leaves out.
type SkipMode int

// What to leave out (only the generator tells them apart).
const (
	SkipType SkipMode = 1 << iota
	SkipOrderField
	SkipWhereInput
	SkipMutationCreateInput
	SkipMutationUpdateInput
	SkipAll = SkipType | SkipOrderField | SkipWhereInput | SkipMutationCreateInput | SkipMutationUpdateInput
)

// inert stands for an annotation only the code generator reads.
type inert struct{}

// Name implements schema.Annotation under entgql's name.
func (inert) Name() string { return "EntGQL" }

// Skip leaves modes of a type or field out of the GraphQL schema.
func Skip(...SkipMode) schema.Annotation { return inert{} }

// OrderField makes a field an order field of its connection.
func OrderField(string) schema.Annotation { return inert{} }

// Type names a type in the GraphQL schema.
func Type(string) schema.Annotation { return inert{} }

// RelayConnection gives a type or edge a Relay connection.
func RelayConnection() schema.Annotation { return inert{} }

// MultiOrder lets a connection be ordered by several fields.
func MultiOrder() schema.Annotation { return inert{} }

// QueryFieldAnnotation puts a type's connection on the Query type.
type QueryFieldAnnotation struct{ inert }

// QueryField puts a type's connection on the Query type.
func QueryField(...string) QueryFieldAnnotation { return QueryFieldAnnotation{} }

// Description describes the Query field.
func (q QueryFieldAnnotation) Description(string) QueryFieldAnnotation { return q }
