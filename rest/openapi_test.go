package rest_test

// Every REST response a test receives is checked against the OpenAPI
// document the route table produces (doRequest calls checkOpenAPI), and
// the document must describe every route of the app: it cannot drift.

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/testdb"
)

var (
	specOnce sync.Once
	spec     *apitest.OpenAPI
	specErr  error
)

// openAPI is the document as the app serves it, loaded once per run (every
// app serves the same one).
func openAPI(t testing.TB, a *app) *apitest.OpenAPI {
	t.Helper()
	specOnce.Do(func() {
		res, err := a.srv.App.Test(httptest.NewRequest("GET", "/api/v1/openapi.json", nil), -1)
		if err != nil {
			specErr = err
			return
		}
		defer res.Body.Close()
		raw, err := io.ReadAll(res.Body)
		if err != nil {
			specErr = err
			return
		}
		spec, specErr = apitest.LoadOpenAPI(raw)
	})
	if specErr != nil {
		t.Fatalf("the OpenAPI document: %v", specErr)
	}
	return spec
}

// isREST says whether a path is one the OpenAPI document covers.
func isREST(path string) bool {
	return strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/platform/") || strings.HasPrefix(path, "/public/") ||
		strings.HasPrefix(path, "/webhooks/")
}

// openAPIMismatch is what is wrong with a response by the document, or "".
// A path the document does not describe may only be the catch-all 404.
func openAPIMismatch(t testing.TB, a *app, method, target string, status int, header http.Header, body []byte) string {
	if !isREST(target) {
		return ""
	}
	err := openAPI(t, a).CheckResponse(method, target, status, header, body)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, apitest.ErrUndescribed) && status == http.StatusNotFound:
		return ""
	}
	return err.Error()
}

// checkOpenAPI fails the test when the response does not match the
// document.
func checkOpenAPI(t testing.TB, a *app, r *response, method, target string) {
	t.Helper()
	if msg := openAPIMismatch(t, a, method, target, r.Status, r.Header, r.Body); msg != "" {
		t.Errorf("%s: the response does not match the OpenAPI document: %s", r, msg)
	}
}

var fiberParam = regexp.MustCompile(`:([a-z_]+)`)

func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		doc := openAPI(t, a)
		inApp := map[string]bool{}
		for _, r := range a.srv.App.GetRoutes(true) {
			if !isREST(r.Path) || r.Method == http.MethodHead || r.Method == http.MethodConnect {
				continue
			}
			path := fiberParam.ReplaceAllString(r.Path, "{$1}")
			inApp[r.Method+" "+path] = true
			if !doc.Describes(r.Method, path) {
				t.Errorf("route %s %s is not in the OpenAPI document", r.Method, r.Path)
			}
		}
		n := 0
		for path, item := range doc.Doc.Paths.Map() {
			for method := range item.Operations() {
				n++
				if !inApp[method+" "+path] {
					t.Errorf("the OpenAPI document describes %s %s, which is not a route", method, path)
				}
			}
		}
		if n < 150 {
			t.Errorf("the document describes %d operations; the route table has more", n)
		}
	})
}

func TestOpenAPIDocumentIsPublic(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		r := a.do(request{method: "GET", path: "/api/v1/openapi.json", token: noToken})
		if r.Status != http.StatusOK {
			t.Fatalf("want 200, got %s", r)
		}
		for _, path := range []string{"openapi", "info.title", "paths./api/v1/accounts/{account_id}/contacts.get.responses.200",
			"components.schemas.Contact.properties.email", "components.securitySchemes.userApiKey"} {
			if _, ok := r.get(path); !ok {
				t.Errorf("the document has no %s", path)
			}
		}
		if v, _ := r.get("openapi"); v != "3.1.0" {
			t.Errorf("openapi = %v, want 3.1.0", v)
		}
	})
}

func TestAPIReferencePage(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		r := a.do(request{method: "GET", path: "/api/docs", token: noToken})
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("want an HTML page, got %s", r)
		}
		page := string(r.Body)
		for _, want := range []string{
			`<h2>contacts</h2>`, `<h2>kanban_items</h2>`, `<h2>platform users</h2>`,
			`<code>GET /api/v1/accounts/{account_id}/contacts</code>`,
			`<code>POST /api/v1/accounts/{account_id}/conversations/{id}/messages</code>`,
			`<code>attachments[]</code>`, `<code>phone_number</code>`, `<code>Idempotency-Key</code>`,
			`href="/api/v1/openapi.json"`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("the reference page has no %s", want)
			}
		}
		if n := strings.Count(page, `data-testid="api-operation"`); n != len(openAPIOperations(openAPI(t, a))) {
			t.Errorf("the page lists %d operations, the document %d", n, len(openAPIOperations(openAPI(t, a))))
		}
		// Nothing is loaded from another host.
		if m := regexp.MustCompile(`(?:src|href)="(?:https?:)?//`).FindString(page); m != "" {
			t.Errorf("the page loads something from another host: %s", m)
		}
	})
}

func openAPIOperations(o *apitest.OpenAPI) []string {
	var out []string
	for path, item := range o.Doc.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, method+" "+path)
		}
	}
	return out
}
