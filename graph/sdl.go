package graph

import (
	"bytes"
	"sync"

	"github.com/vektah/gqlparser/v2/formatter"
)

// sdl is the schema in the GraphQL schema language, printed once.
var sdl = sync.OnceValue(func() string {
	var b bytes.Buffer
	formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatSchema(NewExecutableSchema(newConfig(nil)).Schema())
	return b.String()
})

// SDL is the API's schema in the GraphQL schema language (served at
// /graphql/schema.graphql for code generators and reviewers).
func SDL() string { return sdl() }
