package graph

import (
	"context"
	"fmt"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/switchboard/switchboard/internal/db"
)

// Limits bound the work one GraphQL request may ask for. The text checks
// (size, tokens, depth, aliases, repeats) run before gqlgen parses and
// validates the query: validation is quadratic in fields that share a name
// (20,000 repeated fields took 39 s), so a query must be small before it
// gets there. The cost check runs after validation, when each field's type
// is known.
type Limits struct {
	MaxBytes   int // query text, in bytes
	MaxTokens  int // lexical tokens of the query text
	MaxDepth   int // nested fields, through fragments
	MaxAliases int // aliased fields in the document
	MaxRepeats int // fields with one response name in one merged selection set
	MaxFields  int // fields selected once fragments are spread
	MaxCost    int // see cost.go
	// Timeout ends a query or mutation (not a subscription) that runs
	// longer: no statement or root field starts past it (InterceptOperation).
	Timeout time.Duration

	// Websocket connections (ws.go).
	InitTimeout      time.Duration // connection_init must arrive within it
	MaxSubscriptions int           // running at once on one connection
}

// DefaultLimits are the service's limits. The worst validation a query
// within them can cause is a few milliseconds (TestRefusedQueriesAreCheap
// measures the shapes that were slow).
var DefaultLimits = Limits{
	MaxBytes:         32 << 10,
	MaxTokens:        3000,
	MaxDepth:         12,
	MaxAliases:       30,
	MaxRepeats:       10,
	MaxFields:        5000,
	MaxCost:          50000,
	Timeout:          15 * time.Second,
	InitTimeout:      10 * time.Second,
	MaxSubscriptions: 20,
}

// Error codes (extensions.code) of refused queries.
const (
	codeTooLarge    = "QUERY_TOO_LARGE"
	codeTooDeep     = "QUERY_TOO_DEEP"
	codeTooMany     = "TOO_MANY_ALIASES"
	codeTooComplex  = "QUERY_TOO_COMPLEX"
	codeTimeout     = "TIMEOUT"
	codeTooManySubs = "TOO_MANY_SUBSCRIPTIONS"
	codeTruncated   = "LIST_TRUNCATED"
)

// A refused query never ran, as one that fails validation: HTTP 422.
func init() {
	for _, code := range []string{codeTooLarge, codeTooDeep, codeTooMany, codeTooComplex} {
		errcode.RegisterErrorType(code, errcode.KindProtocol)
	}
}

func limitError(code, format string, args ...any) *gqlerror.Error {
	return &gqlerror.Error{Message: fmt.Sprintf(format, args...), Extensions: map[string]any{"code": code}}
}

// textLimits is the gqlgen extension that checks the query text before
// gqlgen parses it, and its cost after validation.
type textLimits struct {
	l      Limits
	schema *ast.Schema
	// passed holds query texts that passed CheckText, by text: the checks
	// depend on the text alone, and lexing and parsing it on every request
	// was a thirtieth of GraphQL contact(id)'s CPU. Bounded as the query
	// cache (queryCacheSize), whose keys are the same texts.
	passed *lru.LRU[struct{}]
	// priced holds the operations (name and text) whose cost passed and holds
	// whatever their variables: walking contact(id)'s selection again on every
	// request was a hundredth of its CPU. Bounded as passed.
	priced *lru.LRU[struct{}]
}

func newTextLimits(l Limits) *textLimits {
	return &textLimits{l: l, passed: lru.New[struct{}](queryCacheSize), priced: lru.New[struct{}](queryCacheSize)}
}

var (
	_ graphql.HandlerExtension          = (*textLimits)(nil)
	_ graphql.OperationParameterMutator = (*textLimits)(nil)
	_ graphql.OperationContextMutator   = (*textLimits)(nil)
	_ graphql.OperationInterceptor      = (*textLimits)(nil)
	_ graphql.RootFieldInterceptor      = (*textLimits)(nil)
	_ graphql.FieldInterceptor          = (*textLimits)(nil)
)

func (*textLimits) ExtensionName() string { return "SwitchboardLimits" }

func (t *textLimits) Validate(es graphql.ExecutableSchema) error {
	t.schema = es.Schema()
	return nil
}

func (t *textLimits) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if _, ok := t.passed.Get(ctx, p.Query); ok {
		return nil
	}
	if err := t.l.CheckText(p.Query); err != nil {
		return err
	}
	t.passed.Add(ctx, p.Query, struct{}{})
	return nil
}

func (t *textLimits) MutateOperationContext(ctx context.Context, op *graphql.OperationContext) *gqlerror.Error {
	key := op.RawQuery
	if op.OperationName != "" {
		key = op.OperationName + "\x00" + op.RawQuery
	}
	if _, ok := t.priced.Get(ctx, key); ok {
		return nil
	}
	err, fixed := t.l.checkCost(t.schema, op.Operation, op.Variables)
	if err == nil && fixed {
		t.priced.Add(ctx, key, struct{}{})
	}
	return err
}

// InterceptOperation bounds a query's or mutation's run by the timeout; a
// subscription lives as long as its connection. The limit is a statement
// deadline (db.WithStatementDeadline), not a context that ends: past it no
// statement starts and no root field resolves (InterceptRootField), while
// one already running finishes.
func (t *textLimits) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	op := graphql.GetOperationContext(ctx)
	if t.l.Timeout <= 0 || op.Operation == nil || op.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	return next(db.WithStatementDeadline(ctx, time.Now().Add(t.l.Timeout)))
}

// InterceptRootField refuses a root field whose operation is past its
// time limit: one that reads nothing from the database (the inboxes'
// memory) would otherwise still answer.
func (t *textLimits) InterceptRootField(ctx context.Context, next graphql.RootResolver) graphql.Marshaler {
	if err := db.StatementDeadlinePassed(ctx); err != nil {
		graphql.AddError(ctx, timedOut(t.l.Timeout))
		return graphql.Null
	}
	return next(ctx)
}

// CheckText refuses a query text over the size, token, depth, alias or
// repeat limits. Text that does not parse passes: gqlgen reports the
// syntax error. It never panics, whatever the text (FuzzGraphQLLimits).
func (l Limits) CheckText(query string) *gqlerror.Error {
	if len(query) > l.MaxBytes {
		return limitError(codeTooLarge, "the query is %d bytes, over the limit of %d bytes (pass large values as variables)", len(query), l.MaxBytes)
	}
	if n := countTokens(query, l.MaxTokens); n > l.MaxTokens {
		return limitError(codeTooLarge, "the query has more than %d tokens", l.MaxTokens)
	}
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		return nil
	}
	s := newShape(doc)
	d := s.maxDepth()
	if s.cycle != "" {
		return limitError(codeTooDeep, "fragment %q spreads itself: the query would be infinitely deep", s.cycle)
	}
	if d > l.MaxDepth {
		return limitError(codeTooDeep, "the query is %d fields deep, over the depth limit of %d", d, l.MaxDepth)
	}
	if n := countAliases(doc); n > l.MaxAliases {
		return limitError(codeTooMany, "the query has %d aliases, over the limit of %d", n, l.MaxAliases)
	}
	if n := s.expanded(); n > l.MaxFields {
		return limitError(codeTooComplex, "the query selects more than %d fields once its fragments are spread", l.MaxFields)
	}
	if name, n := s.maxRepeat(l.MaxRepeats); n > l.MaxRepeats {
		return limitError(codeTooComplex, "%q is selected more than %d times in one selection set (fields of one name merge, with their selections)", name, l.MaxRepeats)
	}
	return nil
}

// countTokens counts the query's tokens, stopping past limit. Text that
// does not lex counts what lexed so far: the parser reports the error.
func countTokens(query string, limit int) int {
	lx := lexer.New(&ast.Source{Input: query})
	n := 0
	for n <= limit {
		tok, err := lx.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		n++
	}
	return n
}

func countAliases(doc *ast.QueryDocument) int {
	n := 0
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if s.Alias != "" && s.Alias != s.Name {
					n++
				}
				walk(s.SelectionSet)
			case *ast.InlineFragment:
				walk(s.SelectionSet)
			}
		}
	}
	for _, op := range doc.Operations {
		walk(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		walk(f.SelectionSet)
	}
	return n
}
