package graph_test

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/graph"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestJSONPostsAnswerAsOverNetHTTP: a JSON POST is answered inside Fiber
// (ServeJSONPost), everything else through gqlgen's transports over
// net/http. Each request here goes both ways and must get the same status,
// content type, error code and data.
func TestJSONPostsAnswerAsOverNetHTTP(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		a := newApp(t, e)
		a.inbox(a.Account, a.Admin, "Support <&>", apiChannel())
		a.inbox(a.Account, a.Admin, "Sales", apiChannel())
		h := graph.NewHandler(context.Background(), a.srv.DB.Client, a.srv.Svc, a.srv.Events, "/graphql")
		inboxes := `query($n: Int) { inboxes(first: $n) { edges { node { name } } } }`
		cases := []struct {
			name    string
			body    string
			header  map[string]string
			status  int
			media   string
			code    string
			hasData bool
		}{
			{name: "a query with an Int variable", body: jsonBody(t, inboxes, H{"n": 2}),
				status: http.StatusOK, media: "application/json", hasData: true},
			{name: "a query whose variable is left out", body: jsonBody(t, `{ inboxes(first: 1) { totalCount } }`, nil),
				status: http.StatusOK, media: "application/json", hasData: true},
			{name: "a body that is not JSON", body: `{"query": `,
				status: http.StatusBadRequest, media: "application/json", code: "BAD_USER_INPUT"},
			{name: "a field the schema lacks", body: jsonBody(t, `{ nope }`, nil),
				status: http.StatusUnprocessableEntity, media: "application/json", code: "GRAPHQL_VALIDATION_FAILED"},
			{name: "a page over the limit", body: jsonBody(t, inboxes, H{"n": 1000}),
				status: http.StatusOK, media: "application/json", code: "BAD_USER_INPUT"},
			{name: "no token", body: jsonBody(t, inboxes, H{"n": 1}), header: map[string]string{"api_access_token": ""},
				status: http.StatusUnauthorized, media: "application/json", code: "UNAUTHENTICATED"},
			{name: "an account that is no id", body: jsonBody(t, inboxes, H{"n": 1}), header: map[string]string{"X-Account-Id": "x"},
				status: http.StatusBadRequest, media: "application/json", code: "BAD_REQUEST"},
			{name: "an account of someone else", body: jsonBody(t, inboxes, H{"n": 1}), header: map[string]string{"X-Account-Id": "999999"},
				status: http.StatusUnauthorized, media: "application/json", code: "UNAUTHENTICATED"},
			{name: "answers asked as graphql-response+json", body: jsonBody(t, inboxes, H{"n": 1}),
				header: map[string]string{"Accept": "application/graphql-response+json"},
				status: http.StatusOK, media: "application/graphql-response+json", hasData: true},
			{name: "a type it does not know in Accept", body: jsonBody(t, `{ nope }`, nil),
				header: map[string]string{"Accept": "text/plain"},
				status: http.StatusBadRequest, media: "application/graphql-response+json", code: "GRAPHQL_VALIDATION_FAILED"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				request := func() *http.Request {
					req := httptest.NewRequest("POST", "/graphql", strings.NewReader(c.body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("api_access_token", a.Admin)
					for k, v := range c.header {
						req.Header.Set(k, v)
					}
					return req
				}
				fiber := a.send(request())
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, request())
				netHTTP := recorded(t, rec)
				for way, r := range map[string]*gqlResp{"in Fiber": fiber, "over net/http": netHTTP} {
					media, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
					if r.Status != c.status || media != c.media || r.code() != c.code || (r.Data != nil) != c.hasData {
						t.Errorf("%s: want HTTP %d %s, code %q, data %v; got %s %s", way, c.status, c.media, c.code, c.hasData, media, r)
					}
				}
				if !reflect.DeepEqual(fiber.Data, netHTTP.Data) {
					t.Errorf("the data differ: in Fiber %s, over net/http %s", fiber, netHTTP)
				}
			})
		}
	})
}

func jsonBody(t *testing.T, query string, vars H) string {
	t.Helper()
	raw, err := json.Marshal(H{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// recorded is what a recorder holds as a gqlResp.
func recorded(t *testing.T, rec *httptest.ResponseRecorder) *gqlResp {
	t.Helper()
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return gqlRespOf(res, body)
}
