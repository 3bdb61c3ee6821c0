package graph

import (
	"fmt"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/switchboard/switchboard/internal/coerce"
)

// UnmarshalTime reads every GraphQL Time input (our arguments, entgql's
// where-filters and generated inputs alike) through coerce.Time, so each
// arrives in UTC: SQLite compares stored times as text, and a time that
// kept its offset compared wrongly against the UTC times stored.
func UnmarshalTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("a time must be an ISO 8601 string, not %T", v)
	}
	return coerce.Time(s)
}

// MarshalTime writes a time as gqlgen's own Time did (RFC 3339, the zero
// time as null; clients parse that form), always in UTC.
func MarshalTime(t time.Time) graphql.Marshaler { return graphql.MarshalTime(t.UTC()) }
