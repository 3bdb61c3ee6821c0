package rest_test

// The matrix's table, part 4: the platform API, the console (signed in with
// its session cookie, which each role gets by signing in with its
// password) and the GraphQL endpoint (held to graph/matrix_test.go).

import (
	"fmt"
	"net/http"
)

func mxPlatformUserBody(c *mxCell) any {
	return H{"name": "Platform user", "email": fmt.Sprintf("plat%d@people.test", c.n()), "password": "p1atform-pass"}
}

// mxFreshAccountUser makes a user of account A for the platform to remove.
func mxFreshAccountUser(c *mxCell) {
	c.t.Helper()
	r := doRequest(c.t, c.w.app, request{method: "POST", path: "/platform/api/v1/users", token: c.w.Platform, body: mxPlatformUserBody(c)})
	if r.Status != http.StatusOK {
		c.t.Fatalf("setup user: %s", r)
	}
	c.ids["user"] = r.int(c.t, "id")
	c.w.member(c.w.Account, c.ids["user"], "agent")
}

// mxFreshUser makes a user of account A for the platform to delete, and
// points :id at it.
func mxFreshUser(c *mxCell) {
	c.t.Helper()
	mxFreshAccountUser(c)
	c.ids["id"] = c.ids["user"]
}

// mxFreshAccount makes an account for the platform to delete, and points
// :id at it.
func mxFreshAccount(c *mxCell) {
	c.t.Helper()
	r := doRequest(c.t, c.w.app, request{method: "POST", path: "/platform/api/v1/accounts", token: c.w.Platform,
		body: H{"name": fmt.Sprintf("Doomed %d", c.n())}})
	if r.Status != http.StatusOK {
		c.t.Fatalf("setup account: %s", r)
	}
	c.ids["id"] = r.int(c.t, "id")
}

// console: signed-in members of the account; the others are sent to sign in.
func consoleRow(other outcome) mxRow { return mxRow{oLogin, o2xx, o2xx, o2xx, other, oLogin} }

func otherEntries() map[string]mxEntry {
	const plat = "/platform/api/v1"
	const app = "/app/accounts/:account_id"
	out := map[string]mxEntry{
		"POST " + plat + "/accounts":                  {want: mxPlatformOnly, body: func(c *mxCell) any { return H{"name": fmt.Sprintf("Plat %d", c.n())} }},
		"GET " + plat + "/accounts/:id":               {want: mxPlatformOnly},
		"PATCH " + plat + "/accounts/:id":             {want: mxPlatformOnly, body: sameBody(H{"name": "Acme"})},
		"PUT " + plat + "/accounts/:id":               {want: mxPlatformOnly, body: sameBody(H{"name": "Acme"})},
		"DELETE " + plat + "/accounts/:id":            {want: mxPlatformOnly, setup: mxFreshAccount},
		"GET " + plat + "/accounts/:id/account_users": {want: mxPlatformOnly},
		"GET " + plat + "/users/:id/login":            {want: mxPlatformOnly},
		"POST " + plat + "/users":                     {want: mxPlatformOnly, body: mxPlatformUserBody},
		"GET " + plat + "/users/:id":                  {want: mxPlatformOnly},
		"PUT " + plat + "/users/:id":                  {want: mxPlatformOnly, body: sameBody(H{"name": "Renamed by the platform"})},
		"PATCH " + plat + "/users/:id":                {want: mxPlatformOnly, body: sameBody(H{"name": "Renamed by the platform"})},
		"DELETE " + plat + "/users/:id":               {want: mxPlatformOnly, setup: mxFreshUser},
		// A user's own profile: any signed-in user, whatever their role.
		"GET /api/v1/profile":   {want: mxRow{o401, o2xx, o2xx, o2xx, o2xx, o401}},
		"PUT /api/v1/profile":   {want: mxRow{o401, o2xx, o2xx, o2xx, o2xx, o401}, body: sameBody(H{"display_name": "Me"})},
		"PATCH /api/v1/profile": {want: mxRow{o401, o2xx, o2xx, o2xx, o2xx, o401}, body: sameBody(H{"display_name": "Me"})},
		"POST " + plat + "/accounts/:id/account_users": {want: mxPlatformOnly,
			body: func(c *mxCell) any { return H{"user_id": c.w.Spare, "role": "agent"} }},
		"DELETE " + plat + "/accounts/:id/account_users": {want: mxPlatformOnly, setup: mxFreshAccountUser,
			body: func(c *mxCell) any { return H{"user_id": c.ids["user"]} }},

		"GET /": {want: mxRow{oRedirect, oRedirect, oRedirect, oRedirect, oRedirect, oRedirect}},
		// Operations endpoints answer anyone (keep /metrics off the public
		// network, as the README says).
		"GET /healthz": {want: mxRow{o2xx, o2xx, o2xx, o2xx, o2xx, o2xx}},
		"GET /readyz":  {want: mxRow{o2xx, o2xx, o2xx, o2xx, o2xx, o2xx}},
		"GET /metrics": {want: mxRow{o2xx, o2xx, o2xx, o2xx, o2xx, o2xx}},
		// A console address no page answers: the console's 404 page, for
		// anyone (it shows nothing of an account).
		"GET /app/*":     {want: mxRow{o404, o404, o404, o404, o404, o404}},
		"GET /app/login": {want: mxRow{o2xx, o2xx, o2xx, o2xx, o2xx, o2xx}},
		// The API's description is public, as Chatwoot publishes its own: it
		// holds routes and shapes, no account's data.
		"GET /api/v1/openapi.json": {want: mxRow{o2xx, o2xx, o2xx, o2xx, o2xx, o2xx}},
		"GET /api/docs":            {want: mxRow{o2xx, o2xx, o2xx, o2xx, o2xx, o2xx}},
		// So is the GraphQL schema's SDL (introspection itself needs a token).
		"GET /graphql/schema.graphql": {want: mxRow{o2xx, o2xx, o2xx, o2xx, o2xx, o2xx}},
		// WhatsApp's webhooks answer Meta, proved by the inbox's verify token
		// (here the right one: 2xx whoever calls) and by the body's
		// signature (here none: 401 whatever user token comes with it).
		"GET /webhooks/whatsapp/:phone_number": {want: mxRow{o2xx, o2xx, o2xx, o2xx, o2xx, o2xx},
			query: "?hub.mode=subscribe&hub.verify_token=mx-verify-token&hub.challenge=42"},
		"POST /webhooks/whatsapp/:phone_number": {want: mxRow{o401, o401, o401, o401, o401, o401},
			body: sameBody(H{"object": "whatsapp_business_account", "entry": []H{}})},
		// Each role signs in with its own password; without one it is 401.
		"POST /app/login": {want: mxRow{o401, oRedirect, oRedirect, oRedirect, oRedirect, o401},
			body: func(c *mxCell) any {
				return fields("email", c.w.roles[c.role].email+"", "password", c.w.password)
			}},
		// Last: it ends the sessions the other console routes use.
		"POST /app/logout":                         {want: mxRow{oLogin, oLogin, oLogin, oLogin, oLogin, oLogin}, last: true},
		"GET /app":                                 {want: mxRow{oLogin, oRedirect, oRedirect, oRedirect, oRedirect, oLogin}},
		"GET " + app + "/contacts":                 {want: consoleRow(o2xx)},
		"GET " + app + "/schedules":                {want: consoleRow(o2xx)},
		"GET " + app + "/funnels":                  {want: consoleRow(o2xx)},
		"GET " + app + "/funnels/:funnel_id/board": {want: consoleRow(o404)},
		"GET " + app + "/funnels/:funnel_id/live":  {want: mxRow{oLogin, oUpgrade, oUpgrade, oUpgrade, o404, oLogin}},
		"POST " + app + "/kanban_items/:id/move":   {want: consoleRow(o404), body: sameBody(H{"funnel_stage": "new"})},
	}
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "CONNECT", "OPTIONS", "TRACE"} {
		out[m+" /graphql"] = mxEntry{want: mxToGraphQL}
	}
	return out
}
