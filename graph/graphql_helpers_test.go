package graph_test

// GraphQL scenarios through POST /graphql of the real app (built as main
// builds it), on every engine testdb offers. Each table runs in order, one
// named subtest per case, so a failure names the broken behaviour.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// H is a JSON object: variables, request bodies, expectations.
type H = map[string]any

// ---- the app under test ----

// app is the server over a fresh database holding one bootstrapped account
// (A) with its administrator.
type app struct {
	t        *testing.T
	srv      *server.Server
	Account  int    // account A
	AdminID  int    // A's administrator
	Admin    string // A's administrator's token
	Platform string // the platform token
	seq      atomic.Int64
}

// acceptAll stands in for the channels: messages never leave the machine.
type acceptAll struct{}

func (acceptAll) Deliver(context.Context, delivery.Job) (string, error) { return "", nil }

func newApp(t *testing.T, e testdb.Engine) *app {
	t.Helper()
	return newAppWith(t, e, server.Config{Channels: acceptAll{}})
}

// newAppWith is newApp with the server configured by cfg (its storage is a
// temporary directory).
func newAppWith(t *testing.T, e testdb.Engine, cfg server.Config) *app {
	t.Helper()
	return newAppOn(t, e.New(t), cfg)
}

// newAppOn builds the server over an open, migrated database and
// bootstraps account A.
func newAppOn(t *testing.T, database *db.DB, cfg server.Config) *app {
	t.Helper()
	cfg.StorageDir = t.TempDir()
	srv := server.New(cfg, database)
	t.Cleanup(func() { _ = srv.Shutdown() })
	b, err := srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: "Acme", Email: "admin@acme.test", Name: "Ada Admin",
	})
	if err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	if b.PlatformToken == "" {
		t.Fatal("bootstrap on a fresh database returned no platform token")
	}
	return &app{t: t, srv: srv, Account: b.AccountID, AdminID: b.UserID, Admin: b.AccessToken, Platform: b.PlatformToken}
}

// sys is a context that passes every privacy rule, to look behind the API.
func sys() context.Context { return viewer.SystemContext(context.Background()) }

func (a *app) next() int64 { return a.seq.Add(1) }

// otherAccount bootstraps account B with its own administrator.
func (a *app) otherAccount(name string) (accountID int, adminToken string) {
	a.t.Helper()
	b, err := a.srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: name, Email: fmt.Sprintf("admin%d@%s.test", a.next(), strings.ToLower(name)), Name: name + " Admin",
	})
	if err != nil {
		a.t.Fatalf("bootstrap %s: %v", name, err)
	}
	return b.AccountID, b.AccessToken
}

// agent makes a new platform user an agent of accountID and returns its token.
func (a *app) agent(accountID int) string {
	a.t.Helper()
	_, token := a.agentUser(accountID)
	return token
}

// agentUser is agent, returning the user's id too.
func (a *app) agentUser(accountID int) (int, string) {
	a.t.Helper()
	r := a.mustREST("POST", "/platform/api/v1/users", a.Platform, H{
		"name": "Agent", "email": fmt.Sprintf("agent%d@people.test", a.next()), "password": "s3cret-pass",
	}, http.StatusOK)
	userID := int(mustGet(a.t, r, "id").(float64))
	a.mustREST("POST", fmt.Sprintf("/platform/api/v1/accounts/%d/account_users", accountID), a.Platform,
		H{"user_id": userID, "role": "agent"}, http.StatusOK)
	return userID, mustGet(a.t, r, "access_token").(string)
}

// inbox creates an inbox in accountID through REST and returns its id.
func (a *app) inbox(accountID int, token, name string, channel H) int {
	a.t.Helper()
	r := a.mustREST("POST", fmt.Sprintf("/api/v1/accounts/%d/inboxes", accountID), token,
		H{"name": name, "channel": channel}, http.StatusOK)
	return int(mustGet(a.t, r, "id").(float64))
}

func apiChannel() H { return H{"type": "api"} }

// contact creates a contact through the createContact mutation (a setup step
// that must succeed) and returns its id.
func (a *app) contact(token string, inboxID int, fields H) int {
	a.t.Helper()
	input := H{"inboxID": inboxID}
	for k, v := range fields {
		input[k] = v
	}
	r := a.gql(gqlReq{token: token, query: `mutation($in: CreateContactInput!) {
		createContact(input: $in) { contact { id } userErrors { field message code } } }`, vars: H{"in": input}})
	if r.Status != http.StatusOK || len(r.Errors) > 0 {
		a.t.Fatalf("seeding contact %v: %s", fields, r)
	}
	return atoi(a.t, mustGet(a.t, r.Data, "createContact.contact.id"))
}

// ---- transport ----

// noToken as a request's token sends no token at all.
const noToken = "\x00none"

type gqlReq struct {
	token  string // "" means A's administrator; noToken none
	header map[string]string
	query  string
	vars   H
}

// gqlErr is one entry of a GraphQL response's errors.
type gqlErr struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

type gqlResp struct {
	Status int
	Header http.Header
	Body   []byte
	Data   any
	Errors []gqlErr
}

func (r *gqlResp) String() string {
	b := string(r.Body)
	if len(b) > 3000 {
		b = b[:3000] + "…"
	}
	return fmt.Sprintf("HTTP %d %s", r.Status, b)
}

// code is errors[0].extensions.code; without errors, the code of the first
// user error a mutation's payload answers (INVALID, CONFLICT); "" for none.
func (r *gqlResp) code() string {
	if len(r.Errors) == 0 {
		for _, ue := range r.userErrors() {
			c, _ := ue["code"].(string)
			return c
		}
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// attrs is errors[0].extensions.attributes; without errors, the input paths
// of the user errors, each joined with dots ("input.email").
func (r *gqlResp) attrs() []string {
	out := []string{}
	if len(r.Errors) == 0 {
		for _, ue := range r.userErrors() {
			path, _ := ue["field"].([]any)
			parts := make([]string, len(path))
			for i, p := range path {
				parts[i] = fmt.Sprint(p)
			}
			out = append(out, strings.Join(parts, "."))
		}
		return out
	}
	list, _ := r.Errors[0].Extensions["attributes"].([]any)
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// gql POSTs a GraphQL operation to /graphql.
func (a *app) gql(rq gqlReq) *gqlResp {
	a.t.Helper()
	raw, err := json.Marshal(H{"query": rq.query, "variables": rq.vars})
	if err != nil {
		a.t.Fatalf("encoding request: %v", err)
	}
	req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	setToken(req, a, rq.token)
	for k, v := range rq.header {
		req.Header.Set(k, v)
	}
	return a.send(req)
}

func setToken(req *http.Request, a *app, token string) {
	switch token {
	case noToken:
	case "":
		req.Header.Set("api_access_token", a.Admin)
	default:
		req.Header.Set("api_access_token", token)
	}
}

func (a *app) send(req *http.Request) *gqlResp {
	a.t.Helper()
	res, err := a.srv.App.Test(req, -1)
	if err != nil {
		a.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		a.t.Fatalf("reading body: %v", err)
	}
	return gqlRespOf(res, body)
}

// gqlRespOf is a response with its body read, its data and errors decoded.
func gqlRespOf(res *http.Response, body []byte) *gqlResp {
	r := &gqlResp{Status: res.StatusCode, Header: res.Header, Body: body}
	var env struct {
		Data   any      `json:"data"`
		Errors []gqlErr `json:"errors"`
	}
	if json.Unmarshal(body, &env) == nil {
		r.Data, r.Errors = env.Data, env.Errors
	}
	return r
}

// rest sends a REST request and decodes its JSON body.
func (a *app) rest(method, path, token string, body any) (int, any) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			a.t.Fatalf("encoding body: %v", err)
		}
		rd = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	setToken(req, a, token)
	res, err := a.srv.App.Test(req, -1)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var v any
	_ = json.Unmarshal(raw, &v)
	return res.StatusCode, v
}

func (a *app) mustREST(method, path, token string, body any, status int) any {
	a.t.Helper()
	got, v := a.rest(method, path, token, body)
	if got != status {
		a.t.Fatalf("setup %s %s: want %d, got %d %v", method, path, status, got, v)
	}
	return v
}

// ---- uploads ----

// upload is a file part of a multipart GraphQL request, for the variable at
// path (e.g. "variables.files.0").
type upload struct {
	path, name, contentType string
	data                    []byte
}

// gqlMultipart sends an operation as graphql-multipart-request-spec says:
// an "operations" part (the variables hold null where files go), a "map"
// part from file part names to variable paths, then the file parts.
func (a *app) gqlMultipart(token, query string, vars H, files []upload) *gqlResp {
	a.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	ops, err := json.Marshal(H{"query": query, "variables": vars})
	if err != nil {
		a.t.Fatal(err)
	}
	fileMap := map[string][]string{}
	for i, f := range files {
		fileMap[strconv.Itoa(i)] = []string{f.path}
	}
	mapJSON, err := json.Marshal(fileMap)
	if err != nil {
		a.t.Fatal(err)
	}
	must(a.t, w.WriteField("operations", string(ops)))
	must(a.t, w.WriteField("map", string(mapJSON)))
	for i, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%d"; filename=%q`, i, f.name))
		h.Set("Content-Type", f.contentType)
		part, err := w.CreatePart(h)
		must(a.t, err)
		_, err = part.Write(f.data)
		must(a.t, err)
	}
	must(a.t, w.Close())
	req := httptest.NewRequest("POST", "/graphql", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	setToken(req, a, token)
	return a.send(req)
}

// download GETs a path of the app (token as in gqlReq) and returns the
// status, the content type and the raw body.
func (a *app) download(path, token string) (int, string, []byte) {
	a.t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	setToken(req, a, token)
	res, err := a.srv.App.Test(req, -1)
	if err != nil {
		a.t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), body
}
