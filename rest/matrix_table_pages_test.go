package rest_test

import (
	"fmt"
	"net/http"
)

// The console's calendar, conversation, contact and settings pages: the
// same rules as the API routes they share operations with, met by a
// session instead of a token.

// consoleLive: a signed-in member's socket (refused here as a plain GET).
var consoleLive = mxRow{oLogin, oUpgrade, oUpgrade, oUpgrade, oUpgrade, oLogin}

// consoleAuthorOrAdmin is mxAuthorOrAdmin for the console's session.
func consoleAuthorOrAdmin() mxRow { return mxRow{oLogin, o404, o403, o2xx, o404, oLogin} }

func pagesEntries() map[string]mxEntry {
	const app = "/app/accounts/:account_id"
	const sched = app + "/schedules/:id"
	scheduleForm := func(c *mxCell) any {
		return fields("inbox_id", itoa(c.w.Inbox1), "contact_id", itoa(c.w.Contact), "content", "Later",
			"scheduled_at", mxInAFewDays()[:16], "tz", "UTC", "recurrence_type", "none", "recurrence_end_type", "never")
	}
	const conv = app + "/conversations/:conversation_id"
	inbox := mxRow{oLogin, o404, o2xx, o2xx, o404, oLogin}
	form := func(kv ...string) func(c *mxCell) any { return sameBody(fields(kv...)) }
	const contact = app + "/contacts/:id"
	member := mxRow{oLogin, oRedirect, oRedirect, oRedirect, o404, oLogin}
	set := app + "/settings"
	admin := consoleAdminRow(oRedirect, oRedirect)
	adminOwn := consoleAdminRow(oRedirect, o404)
	named := func(key, prefix string) func(c *mxCell) any {
		return func(c *mxCell) any { return fields(key, fmt.Sprintf("%s%d", prefix, c.n())) }
	}
	newAgent := func(c *mxCell) any {
		return fields("name", "MX Agent", "email", fmt.Sprintf("mx-console-agent%d@people.test", c.n()), "role", "agent")
	}
	out := map[string]mxEntry{
		"GET " + set:                         {want: mxRow{oLogin, oRedirect, oRedirect, oRedirect, oRedirect, oLogin}},
		"POST " + set + "/labels":            {want: admin, body: named("title", "mx-console-")},
		"POST " + set + "/labels/:id":        {want: adminOwn, body: form("description", "MX")},
		"POST " + set + "/labels/:id/delete": {want: adminOwn, setup: freshObject("id", "/labels", func(c *mxCell) any { return H{"title": fmt.Sprintf("mx-doomed-%d", c.n())} }, "id")},
		"POST " + set + "/agents":            {want: admin, body: newAgent},
		"POST " + set + "/agents/:id":        {want: adminOwn, body: form("availability", "online")},
		"POST " + set + "/agents/:id/delete": {want: adminOwn, setup: freshObject("id", "/agents", func(c *mxCell) any {
			return H{"name": "MX Doomed", "email": fmt.Sprintf("mx-doomed%d@people.test", c.n()), "role": "agent"}
		}, "id")},
		"POST " + set + "/teams":            {want: admin, body: named("name", "mx console team ")},
		"POST " + set + "/teams/:id":        {want: adminOwn, body: form("description", "MX")},
		"POST " + set + "/teams/:id/delete": {want: adminOwn, setup: freshObject("id", "/teams", func(c *mxCell) any { return H{"name": fmt.Sprintf("mx doomed %d", c.n())} }, "id")},
	}
	out["POST "+set+"/inboxes/:id"] = mxEntry{want: adminOwn, body: form("greeting_message", "MX greeting")}
	out["POST "+set+"/webhooks"] = mxEntry{want: admin, body: form("url", "https://hooks.example.com/mx", "subscriptions", "message_created")}
	out["POST "+set+"/webhooks/:id/delete"] = mxEntry{want: adminOwn, setup: freshObject("id", "/webhooks", mxWebhookBody, "payload.webhook.id")}
	out["POST "+set+"/automations"] = mxEntry{want: admin, body: form("name", "MX console rule", "trigger_type", "status_changed",
		"action_type", "set_priority", "action_config", `{"priority": "low"}`)}
	out["POST "+set+"/automations/:id"] = mxEntry{want: adminOwn, body: form("name", "MX console rule")}
	out["POST "+set+"/automations/:id/delete"] = mxEntry{want: adminOwn, setup: freshObject("id", "/kanban/automations", mxAutomationBody, "id")}
	out["POST "+set+"/webhooks/:id"] = mxEntry{want: adminOwn, setup: freshObject("id", "/webhooks", mxWebhookBody, "payload.webhook.id"),
		body: func(c *mxCell) any { return fields("url", c.w.url("/edited"), "subscriptions", "message_created") }}
	out["POST "+set+"/inboxes"] = mxEntry{want: admin, body: func(c *mxCell) any {
		return fields("channel_type", "api", "name", fmt.Sprintf("MX console inbox %d", c.n()))
	}}
	// The kanban webhook points at the matrix's local receiver; its test
	// answers with the page (200), like the new secret.
	out["POST "+set+"/kanban"] = mxEntry{want: admin, body: func(c *mxCell) any {
		return fields("webhook_url", c.w.url("/kanban"), "enabled", "on", "webhook_events", "kanban_item.created")
	}}
	out["POST "+set+"/kanban/secret"] = mxEntry{want: consoleAdminRow(o2xx, o2xx)}
	// A's kanban webhook set first, so the test has a receiver to ask; B's
	// has none, and its test is refused (422).
	out["POST "+set+"/kanban/test"] = mxEntry{want: consoleAdminRow(o2xx, oRef), setup: func(c *mxCell) {
		c.t.Helper()
		if r := doRequest(c.t, c.w.app, request{method: "POST", path: c.w.path("/kanban_config"), body: mxKanbanConfigBody(c)}); r.Status != http.StatusOK {
			c.t.Fatalf("setting the kanban webhook: %s", r)
		}
	}}
	for _, section := range []string{"labels", "agents", "teams", "inboxes", "webhooks", "automations"} {
		out["GET "+set+"/"+section] = mxEntry{want: consoleRow(o2xx)}
	}
	for k, v := range map[string]mxEntry{
		"GET " + contact:              {want: consoleRow(o404)},
		"POST " + contact + "/edit":   {want: member, body: form()},
		"POST " + contact + "/labels": {want: member, body: form("labels", "")},
		"POST " + app + "/contacts": {want: mxRow{oLogin, oRedirect, oRedirect, oRedirect, oRef, oLogin}, body: func(c *mxCell) any {
			return fields("name", fmt.Sprintf("MX console contact %d", c.n()), "inbox_id", itoa(c.w.Inbox1))
		}},
		// Any member may merge, as the API's contact_merge; this contact stays.
		"POST " + contact + "/merge": {want: member, setup: freshObject("other", "/contacts", mxFreshContact, "payload.contact.id"),
			body: func(c *mxCell) any { return fields("other_id", itoa(c.ids["other"]), "base", "this") }},
		"POST " + contact + "/delete":      {want: consoleAdminRow(oRedirect, o404), setup: freshObject("id", "/contacts", mxFreshContact, "payload.contact.id")},
		"GET " + app + "/conversations":    {want: consoleRow(o2xx)},
		"GET " + conv:                      {want: inbox},
		"GET " + conv + "/thread":          {want: inbox},
		"GET " + conv + "/side":            {want: inbox},
		"GET " + conv + "/live":            {want: mxRow{oLogin, o404, oUpgrade, oUpgrade, o404, oLogin}},
		"POST " + conv + "/messages":       {want: inbox, body: form("content", "MX console reply")},
		"POST " + conv + "/status":         {want: inbox, body: form("status", "open")},
		"POST " + conv + "/assignment":     {want: inbox, body: form("team_id", "0")},
		"POST " + conv + "/labels":         {want: inbox, body: form("labels", "")},
		"GET " + app + "/schedules/live":   {want: consoleLive},
		"GET " + app + "/schedules/new":    {want: consoleRow(o2xx)},
		"GET " + app + "/contacts/options": {want: consoleRow(o2xx)},
		"POST " + app + "/schedules":       {want: mxRow{oLogin, o403, o2xx, o2xx, oRef, oLogin}, body: scheduleForm},
		"GET " + sched + "/drawer":         {want: mxRow{oLogin, o404, o2xx, o2xx, o404, oLogin}},
		"POST " + sched + "/edit": {want: consoleAuthorOrAdmin(),
			body: sameBody(fields("content", markSchedule, "tz", "UTC"))},
		"POST " + sched + "/cancel": {want: consoleAuthorOrAdmin(), setup: mxFreshSchedule},
		"POST " + sched + "/delete": {want: consoleAuthorOrAdmin(), setup: mxFreshSchedule},
	} {
		out[k] = v
	}
	return out
}
