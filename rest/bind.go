package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
	"github.com/switchboard/switchboard/internal/coerce"
)

// Request bodies arrive as JSON (with or without a Content-Type), as
// multipart forms (booleans as "true"/"false", objects as JSON strings) or as
// url-encoded forms. bodyMap reads any of them into one map; decode then fills
// a request struct whose flex* fields accept both spellings.

// bodyMap reads the request body as a map. An empty body is an empty map.
func bodyMap(c *fiber.Ctx) (map[string]any, error) {
	ct := strings.ToLower(c.Get(fiber.HeaderContentType))
	body := bytes.TrimSpace(c.Body())
	// A JSON object sent under a form content type (curl -d does that) is
	// still JSON: no form body starts with '{'.
	looksJSON := len(body) > 0 && body[0] == '{'
	switch {
	case strings.HasPrefix(ct, fiber.MIMEMultipartForm):
		return multipartMap(c)
	case strings.HasPrefix(ct, fiber.MIMEApplicationForm) && !looksJSON:
		return formMap(c), nil
	}
	if len(body) == 0 {
		return map[string]any{}, nil
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, apperr.BadRequest("Malformed JSON body: %v", err)
	}
	if m == nil {
		return nil, apperr.BadRequest("The JSON body must be an object")
	}
	return m, nil
}

func multipartMap(c *fiber.Ctx) (map[string]any, error) {
	form, err := c.MultipartForm()
	if err != nil {
		return nil, apperr.BadRequest("Malformed multipart body: %v", err)
	}
	m := map[string]any{}
	for k, vs := range form.Value {
		putFormValue(m, k, vs)
	}
	return m, nil
}

func formMap(c *fiber.Ctx) map[string]any {
	m := map[string]any{}
	seen := map[string][]string{}
	c.Request().PostArgs().VisitAll(func(k, v []byte) {
		seen[string(k)] = append(seen[string(k)], string(v))
	})
	for k, vs := range seen {
		putFormValue(m, k, vs)
	}
	return m
}

// putFormValue stores a form field: "a[]" and repeated keys become lists,
// "obj[key]" becomes a nested object.
func putFormValue(m map[string]any, key string, vs []string) {
	if strings.HasSuffix(key, "[]") {
		m[strings.TrimSuffix(key, "[]")] = vs
		return
	}
	if i := strings.IndexByte(key, '['); i > 0 && strings.HasSuffix(key, "]") {
		outer, inner := key[:i], key[i+1:len(key)-1]
		sub, _ := m[outer].(map[string]any)
		if sub == nil {
			sub = map[string]any{}
			m[outer] = sub
		}
		sub[inner] = vs[len(vs)-1]
		return
	}
	if len(vs) > 1 {
		m[key] = vs
		return
	}
	m[key] = vs[0]
}

// decode fills dst from the body. With wrapper set, a body of the form
// {"wrapper": {...}} is unwrapped first (Chatwoot accepts both forms).
func decode(c *fiber.Ctx, wrapper string, dst any) error {
	m, err := bodyMap(c)
	if err != nil {
		return err
	}
	return decodeMap(m, wrapper, dst)
}

func decodeMap(m map[string]any, wrapper string, dst any) error {
	if inner, ok := m[wrapper].(map[string]any); ok && wrapper != "" {
		m = inner
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return apperr.BadRequest("Unreadable body: %v", err)
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return typeError(err, m, dst)
	}
	return nil
}

// typeError turns a JSON type mismatch into a 422 naming the field.
func typeError(err error, m map[string]any, dst any) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return apperr.Invalidf(te.Field, "%s has the wrong type: expected %s", leafName(te.Field), te.Type.String())
	}
	// The flex* types' errors do not say which field they came from.
	field, fieldErr := failingField(m, dst)
	if field == "" {
		return apperr.Invalid(err.Error())
	}
	return apperr.Invalidf(field, "%s is invalid: %s", leafName(field), reason(fieldErr))
}

// leafName is the last part of a field path as the start of a sentence
// ("item_details.value" → "Value").
func leafName(field string) string {
	if i := strings.LastIndexByte(field, '.'); i >= 0 {
		field = field[i+1:]
	}
	return apperr.Humanize(field)
}

// reason is what a field's value is refused for, without Go's type names
// where a flex type can say it better.
func reason(err error) string {
	var fe *fieldError
	if errors.As(err, &fe) {
		return fe.msg
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "expected " + te.Type.String()
	}
	return err.Error()
}

// failingField names the key of m whose value alone dst rejects, with that
// value's error, followed into nested objects so that the 422 names the
// setting itself ("channel.hmac_mandatory", not "channel"); "" when no key
// fails alone.
func failingField(m map[string]any, dst any) (string, error) {
	t := reflect.TypeOf(dst)
	if t == nil || t.Kind() != reflect.Pointer {
		return "", nil
	}
	return failingPath(m, t.Elem())
}

func failingPath(m map[string]any, t reflect.Type) (string, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		one, err := json.Marshal(map[string]any{k: m[k]})
		if err != nil {
			continue
		}
		if err = json.Unmarshal(one, reflect.New(t).Interface()); err == nil {
			continue
		}
		if sub, ok := m[k].(map[string]any); ok {
			if ft, ok := nestedFields(t, k); ok {
				if inner, innerErr := failingPath(sub, ft); inner != "" {
					return k + "." + inner, innerErr
				}
			}
		}
		// A field type that reads an object itself says which of its keys
		// failed.
		var fe *fieldError
		if errors.As(err, &fe) && fe.key != "" {
			return k + "." + fe.key, err
		}
		return k, err
	}
	return "", nil
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// nestedFields is the type of the struct field of t that the JSON key
// fills, when that field is itself a plain struct (pointers followed on
// both): only then do the object's keys name settings. A flex type that
// merely accepts an object (a list, say) is named as a whole, and one that
// reads an object itself names the failing key in its error.
func nestedFields(t reflect.Type, key string) (reflect.Type, bool) {
	t = derefType(t)
	if t.Kind() != reflect.Struct {
		return nil, false
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == key {
			ft := derefType(f.Type)
			return ft, ft.Kind() == reflect.Struct && !reflect.PointerTo(ft).Implements(unmarshalerType)
		}
	}
	return nil, false
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// queryList reads an array query parameter in any of the forms clients send:
// name[]=a&name[]=b, name=a&name=b, or name=a,b.
func queryList(c *fiber.Ctx, name string) []string {
	var out []string
	args := c.Context().QueryArgs()
	for _, key := range []string{name + "[]", name} {
		for _, v := range args.PeekMulti(key) {
			out = append(out, coerce.List(string(v))...)
		}
	}
	return out
}

// queryInt reads an integer query parameter; absent is def, malformed is 422.
func queryInt(c *fiber.Ctx, name string, def int) (int, error) {
	s := strings.TrimSpace(c.Query(name))
	if s == "" {
		return def, nil
	}
	n, err := coerce.Int(s)
	if err != nil {
		return 0, apperr.Invalidf(name, "%s must be an integer", name)
	}
	return n, nil
}

// queryFloat reads a number query parameter; absent is nil, malformed is 422.
func queryFloat(c *fiber.Ctx, name string) (*float64, error) {
	s := strings.TrimSpace(c.Query(name))
	if s == "" {
		return nil, nil
	}
	f, err := coerce.Float(s)
	if err != nil {
		return nil, apperr.Invalidf(name, "%s must be a number", name)
	}
	return &f, nil
}

// pathID reads an integer path parameter; anything else names no record.
func pathID(c *fiber.Ctx, name, what string) (int, error) {
	n, err := strconv.Atoi(c.Params(name))
	if err != nil || n <= 0 {
		return 0, apperr.NotFound(what)
	}
	return n, nil
}
