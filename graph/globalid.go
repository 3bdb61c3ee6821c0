package graph

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/switchboard/switchboard/internal/apperr"
)

// Global ids. Every GraphQL ID is an opaque string naming a type and a
// database id ("Contact:42", base64url-encoded), so one id names one object
// across the schema (Relay's object identification). In Go an ID stays the
// database id (int): the type travels in the schema instead. A Node's id is
// of its own type; any other ID field, argument or input field names its type
// with @globalId(type:), which marshals outputs as that type and refuses an
// input id of another type. A database id (an Int, or a string of digits) is
// accepted wherever an ID is, for integrators who hold REST ids.

// EncodeGlobalID is the global id of the typ object with database id id.
func EncodeGlobalID(typ string, id int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(typ + ":" + strconv.Itoa(id)))
}

// DecodeGlobalID reads a global id; typ is "" for a database id.
func DecodeGlobalID(s string) (typ string, id int, err error) {
	if n, err := strconv.Atoi(s); err == nil && n > 0 {
		return "", n, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", 0, invalidID(s)
	}
	typ, num, ok := strings.Cut(string(raw), ":")
	n, err := strconv.Atoi(num)
	// Only the form EncodeGlobalID writes ("Contact:1", not "Contact:+1" or
	// "Contact:0001"): one object, one id, so caches and clients that key by
	// it never hold two.
	if !ok || typ == "" || err != nil || n <= 0 || strconv.Itoa(n) != num {
		return "", 0, invalidID(s)
	}
	return typ, n, nil
}

func invalidID(s string) error {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return apperr.Invalid(fmt.Sprintf("%q is not an id: send the id a query returned (or a database id)", s))
}

// MarshalID writes a database id as the global id of its field's type.
func MarshalID(id int) graphql.ContextMarshaler {
	return graphql.ContextWriterFunc(func(ctx context.Context, w io.Writer) error {
		typ, err := outputIDType(ctx)
		if err != nil {
			return err
		}
		graphql.MarshalString(EncodeGlobalID(typ, id)).MarshalGQL(w)
		return nil
	})
}

// UnmarshalID reads a global id (of any type: @globalId checks the type) or a
// database id.
func UnmarshalID(_ context.Context, v any) (int, error) {
	switch v := v.(type) {
	case string:
		_, id, err := DecodeGlobalID(v)
		return id, err
	case json.Number:
		return databaseID(v.String())
	case int:
		return databaseID(strconv.Itoa(v))
	case int64:
		return databaseID(strconv.FormatInt(v, 10))
	case float64:
		if v == float64(int(v)) {
			return databaseID(strconv.Itoa(int(v)))
		}
	}
	return 0, apperr.Invalid(fmt.Sprintf("an id is a string, not %T", v))
}

func databaseID(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, apperr.Invalid(fmt.Sprintf("%s is not an id", s))
	}
	return n, nil
}

// outputIDType is the type an output ID belongs to: its field's @globalId,
// else the object itself for a Node's id. The walk goes up past list items.
func outputIDType(ctx context.Context) (string, error) {
	for fc := graphql.GetFieldContext(ctx); fc != nil; fc = fc.Parent {
		if fc.Field.Field == nil || fc.Field.Definition == nil {
			continue
		}
		if typ := directiveType(fc.Field.Definition.Directives); typ != "" {
			return typ, nil
		}
		// A Node's id, selected on the type or on the Node interface: Object
		// is the concrete type either way.
		if obj := fc.Field.ObjectDefinition; fc.Field.Definition.Name == "id" && obj != nil &&
			(obj.Name == "Node" || slices.Contains(obj.Interfaces, "Node")) {
			return fc.Object, nil
		}
		return "", fmt.Errorf("the ID field %s.%s names no type", fc.Object, fc.Field.Name)
	}
	return "", fmt.Errorf("an ID outside a field")
}

func directiveType(ds ast.DirectiveList) string {
	d := ds.ForName("globalId")
	if d == nil {
		return ""
	}
	if a := d.Arguments.ForName("type"); a != nil && a.Value != nil {
		return a.Value.Raw
	}
	return ""
}

// globalIDDirective implements @globalId on arguments and input fields: the
// raw id sent must be of typ (or a database id). On output fields it does
// nothing: MarshalID reads the type from the field's definition.
func globalIDDirective(ctx context.Context, obj any, next graphql.Resolver, typ string) (any, error) {
	raw, isInput := obj.(map[string]any)
	if !isInput {
		return next(ctx)
	}
	name := ""
	if names := lastPathName(graphql.GetPath(ctx)); len(names) == 1 {
		name = names[0]
	}
	if err := checkIDType(raw[name], typ, name); err != nil {
		return nil, err
	}
	return next(ctx)
}

func checkIDType(v any, typ, field string) error {
	switch v := v.(type) {
	case []any:
		for _, item := range v {
			if err := checkIDType(item, typ, field); err != nil {
				return err
			}
		}
	case string:
		got, _, err := DecodeGlobalID(v)
		if err != nil {
			return apperr.Invalidf(field, "%s", err.Error())
		}
		if got != "" && got != typ {
			return apperr.Invalidf(field, "%s is the id of a %s, not of a %s", field, got, typ)
		}
	}
	return nil
}
