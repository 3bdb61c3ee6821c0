//go:build entgen

package gql

import "entgo.io/contrib/entgql"

// SkipMode says what of a type or field the GraphQL schema leaves out.
type SkipMode = entgql.SkipMode

// What to leave out.
const (
	SkipType                = entgql.SkipType
	SkipOrderField          = entgql.SkipOrderField
	SkipWhereInput          = entgql.SkipWhereInput
	SkipMutationCreateInput = entgql.SkipMutationCreateInput
	SkipMutationUpdateInput = entgql.SkipMutationUpdateInput
	SkipAll                 = entgql.SkipAll
)

// entgql's annotations, as the generator reads them.
var (
	Skip            = entgql.Skip
	OrderField      = entgql.OrderField
	Type            = entgql.Type
	RelayConnection = entgql.RelayConnection
	QueryField      = entgql.QueryField
	MultiOrder      = entgql.MultiOrder
)
