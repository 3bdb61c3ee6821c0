package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/switchboard/switchboard/internal/apperr"
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
		return apperr.Invalidf(te.Field, "%s has the wrong type: expected %s", apperr.Humanize(te.Field), te.Type.String())
	}
	// The flex* types' errors do not say which field they came from.
	field := failingField(m, dst)
	if field == "" {
		return apperr.Invalid(err.Error())
	}
	msg := err.Error()
	var fe *fieldError
	if errors.As(err, &fe) {
		msg = fe.Error()
	}
	return apperr.Invalidf(field, "%s is invalid: %s", apperr.Humanize(field), msg)
}

// failingField names the key of m whose value alone dst rejects, followed
// into nested objects so that the 422 names the setting itself
// ("channel.hmac_mandatory", not "channel"); "" when no key fails alone.
func failingField(m map[string]any, dst any) string {
	t := reflect.TypeOf(dst)
	if t == nil || t.Kind() != reflect.Pointer {
		return ""
	}
	return failingPath(m, t.Elem())
}

func failingPath(m map[string]any, t reflect.Type) string {
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
		if json.Unmarshal(one, reflect.New(t).Interface()) == nil {
			continue
		}
		if sub, ok := m[k].(map[string]any); ok {
			if ft, ok := jsonFieldType(t, k); ok {
				if inner := failingPath(sub, ft); inner != "" {
					return k + "." + inner
				}
			}
		}
		return k
	}
	return ""
}

// jsonFieldType is the type of the struct field of t that the JSON key
// fills, when that field is itself a struct (pointers followed on both):
// only then do the object's keys name settings. A flex type that merely
// accepts an object (a list, say) is named as a whole.
func jsonFieldType(t reflect.Type, key string) (reflect.Type, bool) {
	t = derefType(t)
	if t.Kind() != reflect.Struct {
		return nil, false
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == key {
			return f.Type, derefType(f.Type).Kind() == reflect.Struct
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

// flexBool accepts true/false and the strings multipart forms carry.
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	s := strings.Trim(string(data), `"`)
	if s == "" || s == "null" {
		return nil
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		return &fieldError{fmt.Sprintf("%s is not a boolean", data)}
	}
	*b = flexBool(v)
	return nil
}

func (b *flexBool) ptr() *bool {
	if b == nil {
		return nil
	}
	v := bool(*b)
	return &v
}

// flexInt accepts a number or a numeric string.
type flexInt int

func (n *flexInt) UnmarshalJSON(data []byte) error {
	s := strings.Trim(string(data), `"`)
	if s == "null" {
		return nil
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return &fieldError{fmt.Sprintf("%s is not an integer", data)}
	}
	*n = flexInt(v)
	return nil
}

func (n *flexInt) ptr() *int {
	if n == nil {
		return nil
	}
	v := int(*n)
	return &v
}

// flexObject accepts an object or a string holding a JSON object.
type flexObject map[string]any

func (o *flexObject) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		if strings.TrimSpace(s) == "" {
			*o = flexObject{}
			return nil
		}
		data = []byte(s)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return &fieldError{"expected a JSON object, got " + truncate(string(data), 40)}
	}
	if m == nil {
		m = map[string]any{}
	}
	*o = m
	return nil
}

// flexStrings accepts a list of strings, a JSON-encoded list, or "a,b".
type flexStrings []string

func (l *flexStrings) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		if strings.HasPrefix(strings.TrimSpace(s), "[") {
			data = []byte(s)
		} else {
			*l = splitList(s)
			return nil
		}
	}
	var vs []any
	if err := json.Unmarshal(data, &vs); err != nil {
		return &fieldError{"expected a list of strings"}
	}
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case float64:
			out = append(out, strconv.FormatFloat(x, 'f', -1, 64))
		default:
			return &fieldError{"expected a list of strings"}
		}
	}
	*l = out
	return nil
}

// flexInts accepts a list of integers (or numeric strings), or "1,2".
type flexInts []int

func (l *flexInts) UnmarshalJSON(data []byte) error {
	var ss flexStrings
	if err := ss.UnmarshalJSON(data); err != nil {
		return &fieldError{"expected a list of integers"}
	}
	out := make([]int, 0, len(ss))
	for _, s := range ss {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return &fieldError{fmt.Sprintf("%q is not an integer id", s)}
		}
		out = append(out, n)
	}
	*l = out
	return nil
}

type fieldError struct{ msg string }

func (e *fieldError) Error() string { return e.msg }

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// queryList reads an array query parameter in any of the forms clients send:
// name[]=a&name[]=b, name=a&name=b, or name=a,b.
func queryList(c *fiber.Ctx, name string) []string {
	var out []string
	args := c.Context().QueryArgs()
	for _, key := range []string{name + "[]", name} {
		for _, v := range args.PeekMulti(key) {
			out = append(out, splitList(string(v))...)
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
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, apperr.Invalidf(name, "%s must be an integer", name)
	}
	return n, nil
}

// pathID reads an integer path parameter; anything else names no record.
func pathID(c *fiber.Ctx, name, what string) (int, error) {
	n, err := strconv.Atoi(c.Params(name))
	if err != nil || n <= 0 {
		return 0, apperr.NotFound(what)
	}
	return n, nil
}

// flexString accepts a string or a number (attribute_model may be 0 or 1).
type flexString string

func (s *flexString) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var v string
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		*s = flexString(v)
		return nil
	}
	*s = flexString(strings.TrimSpace(string(data)))
	return nil
}

// ptr is the value as the operations take it: nil when it was not sent.
func (s *flexString) ptr() *string {
	if s == nil {
		return nil
	}
	v := string(*s)
	return &v
}
