package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/db"
)

// listField is the context of resolving object.field, a list of strings.
func listField(object, field string) context.Context {
	ctx := graphql.WithResponseContext(context.Background(), graphql.DefaultErrorPresenter, graphql.DefaultRecover)
	return graphql.WithFieldContext(ctx, &graphql.FieldContext{Object: object, Field: graphql.CollectedField{Field: &ast.Field{
		Name: field, Alias: field,
		Definition: &ast.FieldDefinition{Name: field, Type: ast.ListType(ast.NonNullNamedType("String", nil), nil)},
	}}})
}

// TestPlainListsAreHeldToTheirBound: the cost model prices a plain list at
// its bound, and the field interceptor makes that true of every result.
func TestPlainListsAreHeldToTheirBound(t *testing.T) {
	ext := &textLimits{l: DefaultLimits}
	cases := []struct {
		name           string
		object, field  string
		items, wantLen int
		truncated      bool
	}{
		{"a list at its bound is whole", "Contact", "labels", 100, 100, false},
		{"a longer list is cut, with an error", "Contact", "labels", 150, 100, true},
		{"a page type's bound is its page", "ContactPage", "nodes", 16, 15, true},
		{"an account list's bound", "Query", "agentBots", 500, 500, false},
		{"a connection's edges are bounded by first/last", "ContactConnection", "edges", 150, 150, false},
		{"introspection is not cut", "__Schema", "types", 150, 150, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := listField(c.object, c.field)
			res, err := ext.InterceptField(ctx, func(context.Context) (any, error) { return make([]string, c.items), nil })
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.([]string)); got != c.wantLen {
				t.Errorf("returned %d items, want %d", got, c.wantLen)
			}
			errs := graphql.GetErrors(ctx)
			if c.truncated != (len(errs) == 1) {
				t.Fatalf("errors %v, want a LIST_TRUNCATED error: %v", errs, c.truncated)
			}
			if c.truncated && errs[0].Extensions["code"] != codeTruncated {
				t.Errorf("error %v, want code %s", errs[0], codeTruncated)
			}
		})
	}
}

// FuzzGraphQLLimits feeds any query text (and variables) through the text
// checks and, when they pass and the query validates, the cost check. It
// must never panic, and every refusal must carry its code. CI runs it
// briefly:
//
//	go test -run '^$' -fuzz '^FuzzGraphQLLimits$' -fuzztime 30s ./graph/
func FuzzGraphQLLimits(f *testing.F) {
	f.Add(`{ inboxes(first: 100) { edges { node { id members { user { name } } } } } }`, `{}`)
	f.Add(`query($n: Int) { contacts(first: $n) { edges { node { id } } } }`, `{"n": 101}`)
	f.Add(`{ a: inbox(id: 1) { ...F } } fragment F on Inbox { members { inbox { ...F } } }`, `{}`)
	schema := NewExecutableSchema(newConfig(nil)).Schema()
	f.Fuzz(func(t *testing.T, query, variables string) {
		l := DefaultLimits
		if err := l.CheckText(query); err != nil {
			if err.Extensions["code"] == nil || err.Message == "" {
				t.Fatalf("refusal without code or message: %#v", err)
			}
			return
		}
		doc, err := parser.ParseQuery(&ast.Source{Input: query})
		if err != nil || len(validator.Validate(schema, doc)) > 0 {
			return
		}
		var vars map[string]any
		_ = json.Unmarshal([]byte(variables), &vars)
		for _, op := range doc.Operations {
			coerced, err := validator.VariableValues(schema, op, vars)
			if err != nil {
				continue
			}
			if err := l.CheckCost(schema, op, coerced); err != nil && err.Extensions["code"] == nil {
				t.Fatalf("cost refusal without code: %#v", err)
			}
		}
	})
}

// TestOnlyPassingTextsAreRemembered: a text that passed is not checked
// again; one refused is refused every time.
func TestOnlyPassingTextsAreRemembered(t *testing.T) {
	l := DefaultLimits
	l.MaxDepth = 2
	ext := newTextLimits(l)
	ctx := context.Background()
	shallow, deep := `{ contact(id: 1) { name } }`, `{ contact(id: 1) { contactInboxes { inbox { name } } } }`
	for i := range 2 {
		if err := ext.MutateOperationParameters(ctx, &graphql.RawParams{Query: shallow}); err != nil {
			t.Errorf("round %d: the shallow query was refused: %v", i, err)
		}
		err := ext.MutateOperationParameters(ctx, &graphql.RawParams{Query: deep})
		if err == nil || err.Extensions["code"] != codeTooDeep {
			t.Errorf("round %d: the deep query: %v, want %s", i, err, codeTooDeep)
		}
	}
	if _, ok := ext.passed.Get(ctx, shallow); !ok {
		t.Error("the shallow query is not remembered")
	}
	if _, ok := ext.passed.Get(ctx, deep); ok {
		t.Error("the refused query is remembered")
	}
}

// TestStatementsPastTheDeadlineAnswerTimeout: a resolver's error from a
// statement refused past the deadline (db.StatementDeadlinePassed), however
// the services wrap it, is presented as TIMEOUT naming the limit; other
// errors are not.
func TestStatementsPastTheDeadlineAnswerTimeout(t *testing.T) {
	present := presenter(15 * time.Second)
	ctx := db.WithStatementDeadline(context.Background(), time.Now().Add(-time.Second))
	refused := db.StatementDeadlinePassed(ctx)
	cases := []struct {
		name     string
		err      error
		wantCode string
	}{
		{"as the statement cache returns it", refused, codeTimeout},
		{"wrapped", fmt.Errorf("loading the contact: %w", refused), codeTimeout},
		{"classified by the services", apperr.From(refused), codeTimeout},
		{"another error", apperr.NotFound("Contact"), apperr.KindNotFound.GraphQLCode()},
	}
	for _, c := range cases {
		got := present(ctx, c.err)
		if got.Extensions["code"] != c.wantCode {
			t.Errorf("%s: code %v, want %s (%s)", c.name, got.Extensions["code"], c.wantCode, got.Message)
		}
		if c.wantCode == codeTimeout && !strings.Contains(got.Message, "time limit of 15s") {
			t.Errorf("%s: message %q does not name the limit", c.name, got.Message)
		}
	}
}
