package rest_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/apitest"
	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/rest"
)

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
	if strings.HasSuffix(r.req, " "+rest.GraphQLPath) {
		checkGraphQLErrorBody(t, r, obj)
		return
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

// checkGraphQLErrorBody checks GraphQL's error shape, which the app's own
// refusals take at the GraphQL endpoint: errors[0] with a message and an
// extensions.code.
func checkGraphQLErrorBody(t *testing.T, r *response, obj map[string]any) {
	t.Helper()
	var first, ext map[string]any
	if errs, _ := obj["errors"].([]any); len(errs) > 0 {
		first, _ = errs[0].(map[string]any)
		ext, _ = first["extensions"].(map[string]any)
	}
	if nonEmpty(first["message"], true) != "" || nonEmpty(ext["code"], true) != "" {
		t.Errorf("%s: want a GraphQL error with a message and extensions.code, got %s", r.req, r.Body)
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
