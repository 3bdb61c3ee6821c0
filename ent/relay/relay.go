// Package relay is what the generated ent code for GraphQL (ent/gql_*.go)
// calls at run time: Relay cursors, page info, order directions and the
// keyset predicates a cursor turns into.
//
// entgql keeps these in the same Go package as its code generator, so
// importing them linked ent's and gqlgen's generators, go/types and
// golang.org/x/tools into the server: 4.6 MB of a 64.6 MB binary (issue 13).
// ent/entc.go points the generated files here instead. The cursor's wire format
// is entgql's, so cursors that clients hold stay valid; relay_test.go checks
// every function here against entgql's.
package relay

import (
	"encoding/base64"
	"fmt"
	"io"
	"strconv"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vmihailenco/msgpack/v5"
)

// maxCursorLen bounds the text of a cursor a client sends back. Cursors hold
// an id and the values of the page's order fields; the longest order field is
// a 255-character name.
const maxCursorLen = 4096

// OrderDirection is a GraphQL enum: ASC or DESC.
type OrderDirection string

// The two directions.
const (
	OrderDirectionAsc  OrderDirection = "ASC"
	OrderDirectionDesc OrderDirection = "DESC"
)

// Validate refuses anything but the two directions.
func (o OrderDirection) Validate() error {
	if o == OrderDirectionAsc || o == OrderDirectionDesc {
		return nil
	}
	return fmt.Errorf("%s is not a valid OrderDirection", o)
}

// String implements fmt.Stringer.
func (o OrderDirection) String() string { return string(o) }

// Reverse is the other direction.
func (o OrderDirection) Reverse() OrderDirection {
	if o == OrderDirectionDesc {
		return OrderDirectionAsc
	}
	return OrderDirectionDesc
}

// OrderTermOption orders an ent order term this way.
func (o OrderDirection) OrderTermOption() sql.OrderTermOption {
	if o == OrderDirectionAsc {
		return sql.OrderAsc()
	}
	return sql.OrderDesc()
}

// MarshalGQL writes the enum value.
func (o OrderDirection) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, strconv.Quote(string(o)))
}

// UnmarshalGQL reads and validates the enum value.
func (o *OrderDirection) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("order direction %T must be a string", v)
	}
	*o = OrderDirection(s)
	return o.Validate()
}

// PageInfo is a connection's Relay page info.
type PageInfo[T any] struct {
	HasNextPage     bool       `json:"hasNextPage"`
	HasPreviousPage bool       `json:"hasPreviousPage"`
	StartCursor     *Cursor[T] `json:"startCursor"`
	EndCursor       *Cursor[T] `json:"endCursor"`
}

// Cursor marks an edge: its node's id and, when the connection is ordered by
// other fields, the node's values of them. On the wire it is the MessagePack
// of the two, base64 without padding.
type Cursor[T any] struct {
	ID    T         `msgpack:"i"`
	Value ent.Value `msgpack:"v,omitempty"`
}

// MarshalGQL writes the cursor as a GraphQL string.
func (c Cursor[T]) MarshalGQL(w io.Writer) {
	packed, err := msgpack.Marshal(c)
	if err != nil {
		// Only values the generated code put there are packed: ids and
		// order fields, all of which MessagePack encodes.
		packed = nil
	}
	_, _ = io.WriteString(w, `"`+base64.RawStdEncoding.EncodeToString(packed)+`"`)
}

// UnmarshalGQL reads a cursor a client sent back.
func (c *Cursor[T]) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("%T is not a string", v)
	}
	if len(s) > maxCursorLen {
		return fmt.Errorf("cannot decode cursor: longer than %d characters", maxCursorLen)
	}
	packed, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return fmt.Errorf("cannot decode cursor: %w", err)
	}
	if err := msgpack.Unmarshal(packed, c); err != nil {
		return fmt.Errorf("cannot decode cursor: %w", err)
	}
	return nil
}

// ErrNodeNotFound is the GraphQL error for a global id that names nothing the
// viewer may read.
func ErrNodeNotFound(id any) *gqlerror.Error {
	err := gqlerror.Errorf("Could not resolve to a node with the global id of '%v'", id)
	errcode.Set(err, "NOT_FOUND")
	return err
}
