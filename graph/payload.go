package graph

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/switchboard/switchboard/graph/model"
	"github.com/switchboard/switchboard/internal/apperr"
)

// Mutation payloads. A mutation answers its input refused (a validation
// failure or a clash with the data) in its payload's userErrors, where a
// form can show each next to its field; everything else (no or bad
// credentials, no permission, nothing found, throttled, our failure) stays a
// GraphQL error with extensions.code. outcome is the one place an
// operation's error is sorted into one or the other: every mutation resolver
// passes its result through it.

// userErrorCodes are the error kinds that are the caller's input refused.
// apperr gives nothing finer than the kind (a field's message says whether
// it was blank, too long or malformed), so neither do the codes.
var userErrorCodes = map[apperr.Kind]model.UserErrorCode{
	apperr.KindInvalid:  model.UserErrorCodeInvalid,
	apperr.KindConflict: model.UserErrorCodeConflict,
}

// outcome sorts an operation's result for a payload: the value and no user
// errors on success; the zero value (null: the payload carries no object
// on failure) and the user errors when the input was refused; a GraphQL
// error otherwise.
func outcome[T any](ctx context.Context, v T, err error) (T, []*model.UserError, error) {
	var zero T
	if err == nil {
		return v, []*model.UserError{}, nil
	}
	ues := userErrors(ctx, err)
	if ues == nil {
		return zero, nil, err
	}
	return zero, ues, nil
}

// userErrors is err as user errors, one per failing field; nil when err is
// not a refused input.
func userErrors(ctx context.Context, err error) []*model.UserError {
	ae := apperr.From(err)
	code, ok := userErrorCodes[ae.Kind]
	if !ok {
		return nil
	}
	if len(ae.Fields) == 0 {
		return []*model.UserError{{Message: ae.Message, Code: code}}
	}
	out := make([]*model.UserError, len(ae.Fields))
	for i, f := range ae.Fields {
		msg := ae.Message
		if i < len(ae.FieldMessages) {
			msg = ae.FieldMessages[i]
		}
		out[i] = &model.UserError{Field: inputPath(ctx, f), Message: msg, Code: code}
	}
	return out
}

// inputPath is the GraphQL path of an operation's failing attribute (REST's
// name: snake_case, nested with dots, as "channel.provider_config.app_secret"),
// found in the definition of the mutation being resolved: an argument of its
// own, or a field of one of its input-object arguments, and so on down. Nil
// when the schema has no such input (the attribute is REST's alone).
func inputPath(ctx context.Context, attr string) []string {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Definition == nil {
		return nil
	}
	segments := strings.Split(attr, ".")
	if alias, ok := restAliases[segments[0]]; ok {
		segments[0] = alias
	}
	for _, arg := range fc.Field.Definition.Arguments {
		if sameName(arg.Name, segments[0]) {
			return descend([]string{arg.Name}, arg.Type, segments[1:])
		}
	}
	// REST's bodies are flat where GraphQL wraps them in an input argument.
	for _, arg := range fc.Field.Definition.Arguments {
		if def := parsedSchema.Types[arg.Type.Name()]; def != nil && def.Kind == ast.InputObject {
			if path := descend([]string{arg.Name}, arg.Type, segments); path != nil {
				return path
			}
		}
	}
	return nil
}

// restAliases are REST attribute names GraphQL spells otherwise.
var restAliases = map[string]string{
	"funnel_stage": "stage", // a card's stage (a slug)
	"mappings":     "mapping",
}

// descend follows segments into the input type typ, starting at path.
func descend(path []string, typ *ast.Type, segments []string) []string {
	if len(segments) == 0 {
		return path
	}
	def := parsedSchema.Types[typ.Name()]
	if def == nil || def.Kind != ast.InputObject {
		return nil
	}
	if f := fieldNamed(def, segments[0]); f != nil {
		return descend(append(path, f.Name), f.Type, segments[1:])
	}
	// A REST name that flattens a nested input ("imap_login" for imap.login).
	if head, rest, ok := strings.Cut(segments[0], "_"); ok {
		if f := fieldNamed(def, head); f != nil {
			return descend(append(path, f.Name), f.Type, append([]string{rest}, segments[1:]...))
		}
	}
	// A REST wrapper GraphQL does not have ("item_details.title" is title).
	if len(segments) > 1 {
		return descend(path, typ, segments[1:])
	}
	return nil
}

func fieldNamed(def *ast.Definition, name string) *ast.FieldDefinition {
	for _, f := range def.Fields {
		if sameName(f.Name, name) {
			return f
		}
	}
	return nil
}

// sameName matches a GraphQL name with a REST one: inboxID with inbox_id,
// avatarURL with avatar_url.
func sameName(graphQLName, restName string) bool {
	return strings.EqualFold(graphQLName, strings.ReplaceAll(restName, "_", ""))
}
