package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/apitest"
)

// ---- requests ----

// noToken as a request's token sends no token at all.
const noToken = "\x00no-token"

// noContentType as a request's contentType sends the body without one.
const noContentType = "\x00no-content-type"

// request is one HTTP request to the app.
type request struct {
	method string
	path   string
	// token goes in the api_access_token header; "" means the administrator
	// of the bootstrapped account, noToken means none.
	token  string
	header map[string]string
	// body is nil (none), a string or []byte (sent as is), a *form
	// (multipart), or anything else (marshalled as JSON).
	body any
	// contentType overrides the default (application/json for raw and JSON
	// bodies); noContentType sends none.
	contentType string
}

// form is a multipart/form-data body.
type form struct {
	fields [][2]string // in order; a key may repeat
	files  []formFile
}

type formFile struct {
	field, name, contentType string
	data                     []byte
}

// fields builds a multipart form from key, value pairs.
func fields(kv ...string) *form {
	f := &form{}
	for i := 0; i+1 < len(kv); i += 2 {
		f.fields = append(f.fields, [2]string{kv[i], kv[i+1]})
	}
	return f
}

// file adds a file part to the form.
func (f *form) file(field, name, contentType string, data []byte) *form {
	f.files = append(f.files, formFile{field, name, contentType, data})
	return f
}

func (f *form) encode() (body []byte, contentType string, err error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, kv := range f.fields {
		if err := w.WriteField(kv[0], kv[1]); err != nil {
			return nil, "", err
		}
	}
	for _, ff := range f.files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, ff.field, ff.name))
		ct := ff.contentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		p, err := w.CreatePart(h)
		if err != nil {
			return nil, "", err
		}
		if _, err := p.Write(ff.data); err != nil {
			return nil, "", err
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// response is what the app answered.
type response struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   any // the decoded body; nil when it is not JSON
	req    string
}

func (r *response) String() string {
	body := string(r.Body)
	if len(body) > 2000 {
		body = body[:2000] + "…"
	}
	return fmt.Sprintf("%s → %d %s", r.req, r.Status, body)
}

// do sends a request to the app.
func (a *app) do(rq request) *response {
	a.t.Helper()
	return doRequest(a.t, a, rq)
}

func doRequest(t *testing.T, a *app, rq request) *response {
	t.Helper()
	var body io.Reader
	ct := ""
	switch b := rq.body.(type) {
	case nil:
	case string:
		body, ct = strings.NewReader(b), "application/json"
	case []byte:
		body, ct = bytes.NewReader(b), "application/json"
	case *form:
		raw, formCT, err := b.encode()
		if err != nil {
			t.Fatalf("encoding form: %v", err)
		}
		body, ct = bytes.NewReader(raw), formCT
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("encoding body: %v", err)
		}
		body, ct = bytes.NewReader(raw), "application/json"
	}
	switch rq.contentType {
	case "":
	case noContentType:
		ct = ""
	default:
		ct = rq.contentType
	}
	req := httptest.NewRequest(rq.method, rq.path, body)
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	switch rq.token {
	case noToken:
	case "":
		req.Header.Set("api_access_token", a.Admin)
	default:
		req.Header.Set("api_access_token", rq.token)
	}
	for k, v := range rq.header {
		req.Header.Set(k, v)
	}
	res, err := a.srv.App.Test(req, -1)
	if err != nil {
		t.Fatalf("%s %s: %v", rq.method, rq.path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", rq.method, rq.path, err)
	}
	r := &response{Status: res.StatusCode, Header: res.Header, Body: raw, req: rq.method + " " + rq.path}
	if len(bytes.TrimSpace(raw)) > 0 {
		var v any
		dec := json.NewDecoder(bytes.NewReader(raw))
		if dec.Decode(&v) == nil {
			r.JSON = v
		}
	}
	checkOpenAPI(t, a, r, rq.method, rq.path)
	return r
}

// mustDo sends a request that must succeed with status; a setup step.
func (a *app) mustDo(rq request, status int) *response {
	a.t.Helper()
	r := a.do(rq)
	if r.Status != status {
		a.t.Fatalf("setup request failed: want %d, got %s", status, r)
	}
	return r
}

// get looks up a JSON path in the response (see lookup).
func (r *response) get(path string) (any, bool) { return lookup(r.JSON, path) }

// int is the integer at path; the test fails if there is none.
func (r *response) int(t testing.TB, path string) int {
	t.Helper()
	v, ok := r.get(path)
	f, isNum := v.(float64)
	if !ok || !isNum || f != float64(int(f)) {
		t.Fatalf("%s: want an integer at %q, got %#v\n%s", r.req, path, v, r)
	}
	return int(f)
}

// str is the string at path; the test fails if there is none.
func (r *response) str(t testing.TB, path string) string {
	t.Helper()
	v, ok := r.get(path)
	s, isStr := v.(string)
	if !ok || !isStr {
		t.Fatalf("%s: want a string at %q, got %#v\n%s", r.req, path, v, r)
	}
	return s
}

// ints is the list of integers at path (e.g. "payload.*.id").
func (r *response) ints(t testing.TB, path string) []int {
	t.Helper()
	v, ok := r.get(path)
	list, isList := v.([]any)
	if !ok || !isList {
		t.Fatalf("%s: want a list at %q, got %#v\n%s", r.req, path, v, r)
	}
	out := make([]int, 0, len(list))
	for _, x := range list {
		f, isNum := x.(float64)
		if !isNum {
			t.Fatalf("%s: want integers at %q, got %#v", r.req, path, v)
		}
		out = append(out, int(f))
	}
	return out
}

// The shared harness's pieces, under the names the tables use.
var (
	lookup    = apitest.Lookup
	normalize = apitest.Normalize
	compact   = apitest.Compact
	sameItems = apitest.SameItems
	contains  = apitest.Contains
	excludes  = apitest.Excludes
	absent    = apitest.Absent
	present   = apitest.Present
	nonEmpty  = apitest.NonEmpty
	isUUID    = apitest.IsUUID
	isoTime   = apitest.IsISOTime
)

// matcher is an expectation other than equality (apitest.Matcher).
type matcher = apitest.Matcher

// expect checks every path of want against r.
func expect(t testing.TB, r *response, want map[string]any) {
	t.Helper()
	apitest.Expect(t, r.req, r.JSON, want)
}
