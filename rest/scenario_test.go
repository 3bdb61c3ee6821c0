package rest_test

// The scenario harness: every REST test drives the real HTTP app (built as
// main builds it) over a fresh, migrated database, on every engine testdb
// offers. A scenario is one request and what its response must hold; a table
// of them runs in order, each as a named subtest, so a failure names the
// broken behaviour.

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
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/switchboard/switchboard/cmd/switchboard/server"
	"github.com/switchboard/switchboard/internal/accounts"
	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/db"
	"github.com/switchboard/switchboard/internal/delivery"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
	"github.com/switchboard/switchboard/internal/viewer"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// H is a JSON object in a request body or an expectation.
type H = map[string]any

// ---- the app under test ----

// app is the server over a fresh database holding one bootstrapped account
// with its administrator, and the installation's platform token.
type app struct {
	t        *testing.T
	srv      *server.Server
	channels *acceptingChannels
	Account  int    // the bootstrapped account
	AdminID  int    // its administrator
	Admin    string // the administrator's access token
	Platform string // the platform token
	seq      atomic.Int64
}

// newApp builds the server on a fresh database of engine e and bootstraps
// the first account.
func newApp(t *testing.T, e testdb.Engine) *app {
	t.Helper()
	channels := &acceptingChannels{}
	a := newAppWith(t, e, server.Config{Channels: channels})
	a.channels = channels
	return a
}

// newAppWith is newApp with the server configured by cfg (its storage is a
// temporary directory).
func newAppWith(t *testing.T, e testdb.Engine, cfg server.Config) *app {
	t.Helper()
	return newAppOn(t, e.New(t), cfg)
}

// newAppOn is newAppWith over an open database.
func newAppOn(t *testing.T, d *db.DB, cfg server.Config) *app {
	t.Helper()
	cfg.StorageDir = t.TempDir()
	srv := server.New(cfg, d)
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

// acceptingChannels stands in for the channels in scenario tests: every
// message is accepted, and recorded, without leaving the machine.
type acceptingChannels struct {
	mu   sync.Mutex
	sent []delivery.Job
}

func (c *acceptingChannels) Deliver(_ context.Context, job delivery.Job) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, job)
	return "", nil
}

// sys is a context that passes every privacy rule, for seeding and for
// looking behind the API.
func sys() context.Context { return viewer.SystemContext(context.Background()) }

// next returns a number unique within the app, for unique names and e-mails.
func (a *app) next() int64 { return a.seq.Add(1) }

// path is a route of the bootstrapped account: a.path("/contacts/%d", id).
func (a *app) path(format string, args ...any) string {
	return accountPath(a.Account, format, args...)
}

// accountPath is a route of any account.
func accountPath(accountID int, format string, args ...any) string {
	return fmt.Sprintf("/api/v1/accounts/%d", accountID) + fmt.Sprintf(format, args...)
}

// otherAccount bootstraps a second account with its own administrator and
// returns the account id and the administrator's token.
func (a *app) otherAccount(name string) (accountID int, adminToken string) {
	a.t.Helper()
	n := a.next()
	b, err := a.srv.Svc.Bootstrap(context.Background(), accounts.BootstrapInput{
		AccountName: name, Email: fmt.Sprintf("admin%d@%s.test", n, strings.ToLower(name)), Name: name + " Admin",
	})
	if err != nil {
		a.t.Fatalf("bootstrap %s: %v", name, err)
	}
	return b.AccountID, b.AccessToken
}

// user creates a platform user (with a password) and returns its id and
// access token; it belongs to no account yet.
func (a *app) user(name string) (userID int, token string) {
	a.t.Helper()
	r := a.mustDo(request{method: "POST", path: "/platform/api/v1/users", token: a.Platform, body: H{
		"name": name, "email": fmt.Sprintf("user%d@people.test", a.next()), "password": "s3cret-pass",
	}}, http.StatusOK)
	return r.int(a.t, "id"), r.str(a.t, "access_token")
}

// member adds a user to an account with role through the platform API.
func (a *app) member(accountID, userID int, role string) {
	a.t.Helper()
	a.mustDo(request{method: "POST", path: fmt.Sprintf("/platform/api/v1/accounts/%d/account_users", accountID),
		token: a.Platform, body: H{"user_id": userID, "role": role}}, http.StatusOK)
}

// agent makes a new user an agent (not an administrator) of accountID and
// returns its id and token.
func (a *app) agent(accountID int) (userID int, token string) {
	a.t.Helper()
	userID, token = a.user(fmt.Sprintf("Agent %d", a.next()))
	a.member(accountID, userID, "agent")
	return userID, token
}

// inbox creates an inbox in the bootstrapped account (as its administrator)
// from a channel object and returns its id.
func (a *app) inbox(name string, channel H) int {
	a.t.Helper()
	return a.inboxIn(a.Account, a.Admin, name, channel)
}

func (a *app) inboxIn(accountID int, adminToken, name string, channel H) int {
	a.t.Helper()
	r := a.mustDo(request{method: "POST", path: accountPath(accountID, "/inboxes"), token: adminToken,
		body: H{"name": name, "channel": channel}}, http.StatusOK)
	return r.int(a.t, "id")
}

// apiInbox creates an API-channel inbox.
func (a *app) apiInbox(name string) int {
	a.t.Helper()
	return a.inbox(name, H{"type": "api", "webhook_url": "https://hooks.example.com/in"})
}

func whatsappChannel(phone string) H {
	return H{"type": "whatsapp", "phone_number": phone, "provider": "whatsapp_cloud",
		"provider_config": H{"api_key": "key", "phone_number_id": "123", "business_account_id": "456"}}
}

func emailChannel(address string) H { return H{"type": "email", "email": address} }

// contact creates a contact in the bootstrapped account through inboxID and
// returns its id and the source id of its contact inbox.
func (a *app) contact(inboxID int, fields H) (id int, sourceID string) {
	a.t.Helper()
	return a.contactIn(a.Account, a.Admin, inboxID, fields)
}

func (a *app) contactIn(accountID int, token string, inboxID int, fields H) (id int, sourceID string) {
	a.t.Helper()
	body := H{"inbox_id": inboxID}
	for k, v := range fields {
		body[k] = v
	}
	r := a.mustDo(request{method: "POST", path: accountPath(accountID, "/contacts"), token: token, body: body}, http.StatusOK)
	return r.int(a.t, "payload.contact.id"), r.str(a.t, "payload.contact_inbox.source_id")
}

// conversation seeds a conversation of a contact directly in the database
// (the conversations API is not part of this surface) and returns its
// display id.
func (a *app) conversation(accountID, inboxID, contactID int) int {
	a.t.Helper()
	display := int(a.next())
	_, err := a.srv.DB.Client.Conversation.Create().
		SetAccountID(accountID).SetDisplayID(display).SetUUID(uuid.NewString()).
		SetInboxID(inboxID).SetContactID(contactID).Save(sys())
	if err != nil {
		a.t.Fatalf("seeding conversation: %v", err)
	}
	return display
}

// customAttribute defines a custom attribute of model (contact_attribute or
// conversation_attribute) in the bootstrapped account.
func (a *app) customAttribute(key, displayType, model string) int {
	a.t.Helper()
	r := a.mustDo(request{method: "POST", path: a.path("/custom_attribute_definitions"), token: a.Admin, body: H{
		"attribute_display_name": strings.ToUpper(key[:1]) + key[1:], "attribute_key": key,
		"attribute_display_type": displayType, "attribute_model": model,
	}}, http.StatusOK)
	return r.int(a.t, "id")
}

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

// ---- scenarios ----

// scenario is one request and what its answer must hold.
type scenario struct {
	name string
	request
	wantStatus int
	// want maps JSON paths (see lookup) to a value (compared as JSON) or a
	// matcher.
	want map[string]any
	// wantInvalid, on a 422, are exactly the field names the body's
	// attributes must list.
	wantInvalid []string
	// check runs last, on the response.
	check func(t *testing.T, r *response)
	// wantEvents, when not nil, are exactly the kinds of change the request
	// tells the account's listeners, in order (empty: none at all).
	wantEvents []events.Kind
}

// run runs scenarios in order, each as a subtest named after it. Every error
// answer must be a JSON object with a non-empty error sentence.
func (a *app) run(t *testing.T, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Helper()
			var heard *apitest.EventLog
			if sc.wantEvents != nil {
				heard = apitest.Listen(t, a.srv.Events, a.Account)
			}
			r := doRequest(t, a, sc.request)
			if sc.wantStatus != 0 && r.Status != sc.wantStatus {
				t.Fatalf("want status %d, got %s", sc.wantStatus, r)
			}
			if r.Status >= 400 {
				checkErrorBody(t, r, sc.wantInvalid)
			}
			expect(t, r, sc.want)
			if sc.check != nil {
				sc.check(t, r)
			}
			if heard != nil {
				heard.Expect(t, sc.wantEvents)
			}
			if t.Failed() {
				t.Logf("response: %s", r)
			}
		})
	}
}

// checkErrorBody checks the one error shape: {error} always, and on a 422
// also message and attributes (exactly wantInvalid when given).
func checkErrorBody(t *testing.T, r *response, wantInvalid []string) {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: error answered with Content-Type %q, want application/json", r.req, ct)
	}
	obj, ok := r.JSON.(map[string]any)
	if !ok {
		t.Fatalf("%s: error body is not a JSON object: %s", r.req, r.Body)
	}
	if msg := nonEmpty(obj["error"], true); msg != "" {
		t.Errorf("%s: error body's \"error\": %s", r.req, msg)
	}
	if r.Status != http.StatusUnprocessableEntity {
		return
	}
	attrs, ok := obj["attributes"].([]any)
	if !ok {
		t.Errorf("%s: 422 body has no attributes list", r.req)
		return
	}
	if wantInvalid != nil {
		want := make([]any, len(wantInvalid))
		for i, f := range wantInvalid {
			want[i] = f
		}
		if msg := sameItems(want...)(attrs, true); msg != "" {
			t.Errorf("%s: attributes: %s", r.req, msg)
		}
	}
}

// ---- helpers of the inbox, label, conversation, agent and team tests ----

// mustDoT is mustDo failing t (a subtest's, inside a check) instead of the
// app's test.
func (a *app) mustDoT(t *testing.T, rq request, status int) *response {
	t.Helper()
	r := doRequest(t, a, rq)
	if r.Status != status {
		t.Fatalf("request failed: want %d, got %s", status, r)
	}
	return r
}

// startConversation creates a conversation through the API in accountID as
// token (see request.token) and returns its display id.
func (a *app) startConversation(accountID int, token string, body H) int {
	a.t.Helper()
	r := a.mustDo(request{method: "POST", path: accountPath(accountID, "/conversations"), token: token, body: body}, http.StatusOK)
	return r.int(a.t, "id")
}

// label creates a label in the bootstrapped account and returns its id.
func (a *app) label(title string) int {
	a.t.Helper()
	return a.mustDo(request{method: "POST", path: a.path("/labels"), body: H{"title": title}}, http.StatusOK).int(a.t, "id")
}

// team creates a team in the bootstrapped account and returns its id.
func (a *app) team(name string) int {
	a.t.Helper()
	return a.mustDo(request{method: "POST", path: a.path("/teams"), body: H{"name": name}}, http.StatusOK).int(a.t, "id")
}

// agentBot creates an agent bot in the bootstrapped account and returns its id.
func (a *app) agentBot(name string) int {
	a.t.Helper()
	return a.mustDo(request{method: "POST", path: a.path("/agent_bots"), body: H{"name": name}}, http.StatusOK).int(a.t, "id")
}

// addInboxMembers adds users to an inbox of the bootstrapped account.
func (a *app) addInboxMembers(inboxID int, userIDs ...int) {
	a.t.Helper()
	a.mustDo(request{method: "POST", path: a.path("/inbox_members"), body: H{"inbox_id": inboxID, "user_ids": userIDs}}, http.StatusOK)
}

// status is a scenario that only checks the answer's status.
func status(name string, rq request, code int) scenario {
	return scenario{name: name, request: rq, wantStatus: code}
}

// invalid is a scenario answered 422 naming exactly fields.
func invalid(name string, rq request, fields ...string) scenario {
	return scenario{name: name, request: rq, wantStatus: http.StatusUnprocessableEntity, wantInvalid: fields}
}

// as returns rq sent with token.
func as(token string, rq request) request {
	rq.token = token
	return rq
}

// bodyLacks checks that the raw body holds none of the strings (secret
// values, or keys quoted as "key").
func bodyLacks(needles ...string) func(t *testing.T, r *response) {
	return func(t *testing.T, r *response) {
		t.Helper()
		for _, n := range needles {
			if n != "" && strings.Contains(string(r.Body), n) {
				t.Errorf("%s: the body reveals %s", r.req, n)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
