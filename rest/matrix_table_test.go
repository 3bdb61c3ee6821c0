package rest_test

// The matrix's table, part 1: the account's contacts, inboxes, custom
// attributes, members, bots, labels, webhooks, agents and teams.
//
// Columns of a row: anonymous, agent outside inbox 1, agent in inbox 1,
// administrator, administrator of account B (on its own account's path with
// account A's ids), platform token.

import (
	"fmt"
	"net/http"
)

// member: any member of the account; the other account's outcome given.
func memberRow(other outcome) mxRow { return mxRow{o401, o2xx, o2xx, o2xx, other, o401} }

// adminOnly: administrators only, one 403 for agents.
func adminRow(other outcome) mxRow { return mxRow{o401, oAdmin, oAdmin, o2xx, other, o401} }

// inboxOnly: inside inbox 1, so hidden (404) from the agent outside it.
func inboxRow(other outcome) mxRow { return mxRow{o401, o404, o2xx, o2xx, other, o401} }

var (
	mxPlatformOnly = mxRow{o401, o401, o401, o401, o401, o2xx}
	mxToGraphQL    = mxRow{oGraphQL, oGraphQL, oGraphQL, oGraphQL, oGraphQL, oGraphQL}
)

// sameBody is a body that is the same for every cell.
func sameBody(v any) func(*mxCell) any { return func(*mxCell) any { return v } }

// n is a number unique in the run, for names that must not repeat.
func (c *mxCell) n() int64 { return c.w.next() }

// fresh makes an object with a setup request as A's administrator and
// points ":id" (or another parameter) at it.
func freshObject(param, path string, body func(c *mxCell) any, idPath string) func(c *mxCell) {
	return func(c *mxCell) {
		c.t.Helper()
		r := doRequest(c.t, c.w.app, request{method: "POST", path: c.w.path("%s", path), body: body(c)})
		if r.Status != http.StatusOK {
			c.t.Fatalf("setup %s: %s", path, r)
		}
		c.ids[param] = r.int(c.t, idPath)
	}
}

func mxFreshContact(c *mxCell) any {
	return H{"inbox_id": c.w.Inbox1, "name": fmt.Sprintf("Fresh %d", c.n())}
}

func mxFreshSpare(c *mxCell) { c.w.addInboxMembersQuiet(c.w.Inbox1, c.w.Spare) }

// addInboxMembersQuiet adds users to an inbox, members already or not.
func (w *mxWorld) addInboxMembersQuiet(inboxID int, userIDs ...int) {
	doRequest(w.t, w.app, request{method: "POST", path: w.path("/inbox_members"), body: H{"inbox_id": inboxID, "user_ids": userIDs}})
}

func accountEntries() map[string]mxEntry {
	const acc = "/api/v1/accounts/:account_id"
	contactBody := func(c *mxCell) any { return H{"name": markContact} }
	return map[string]mxEntry{
		"GET " + acc + "/contacts":         {want: memberRow(o2xx)},
		"POST " + acc + "/contacts":        {want: memberRow(oRef), body: mxFreshContact},
		"GET " + acc + "/contacts/search":  {want: memberRow(o2xx), query: "?q=MX"},
		"POST " + acc + "/contacts/filter": {want: memberRow(o2xx), body: sameBody(H{"payload": []H{{"attribute_key": "name", "filter_operator": "contains", "values": []string{"MX"}}}})},
		"GET " + acc + "/contacts/:id":     {want: memberRow(o404)},
		"PUT " + acc + "/contacts/:id":     {want: memberRow(o404), body: contactBody},
		"PATCH " + acc + "/contacts/:id":   {want: memberRow(o404), body: contactBody},
		"DELETE " + acc + "/contacts/:id": {want: adminRow(o404),
			setup: freshObject("id", "/contacts", mxFreshContact, "payload.contact.id")},
		"GET " + acc + "/contacts/:id/conversations": {want: memberRow(o404)},
		"POST " + acc + "/contacts/:id/contact_inboxes": {want: memberRow(o404), body: func(c *mxCell) any { return H{"inbox_id": c.w.Inbox3} },
			setup: freshObject("id", "/contacts", func(c *mxCell) any {
				return H{"inbox_id": c.w.Inbox1, "name": "Reachable", "email": fmt.Sprintf("reach%d@people.test", c.n())}
			}, "payload.contact.id")},
		"GET " + acc + "/contacts/:id/contactable_inboxes": {want: memberRow(o404)},
		"GET " + acc + "/contacts/:id/labels":              {want: memberRow(o404)},
		"POST " + acc + "/contacts/:id/labels":             {want: memberRow(o404), body: sameBody(H{"labels": []string{"mx-label"}})},
		// Any member may merge (the mergee is deleted by the operation).
		"POST " + acc + "/actions/contact_merge": {want: memberRow(oRef),
			setup: func(c *mxCell) {
				freshObject("base", "/contacts", mxFreshContact, "payload.contact.id")(c)
				freshObject("mergee", "/contacts", mxFreshContact, "payload.contact.id")(c)
			},
			body: func(c *mxCell) any { return H{"base_contact_id": c.ids["base"], "mergee_contact_id": c.ids["mergee"]} }},

		"GET " + acc + "/inboxes": {want: memberRow(o2xx)},
		"POST " + acc + "/inboxes": {want: adminRow(o2xx),
			body: func(c *mxCell) any { return H{"name": fmt.Sprintf("Fresh %d", c.n()), "channel": H{"type": "api"}} }},
		"GET " + acc + "/inboxes/:id":   {want: memberRow(o404)},
		"PATCH " + acc + "/inboxes/:id": {want: adminRow(o404), body: sameBody(H{"greeting_message": "Hello"})},
		"DELETE " + acc + "/inboxes/:id": {want: adminRow(o404), setup: freshObject("id", "/inboxes",
			func(c *mxCell) any { return H{"name": fmt.Sprintf("Gone %d", c.n()), "channel": H{"type": "api"}} }, "id")},
		"GET " + acc + "/inboxes/:id/agent_bot":      {want: memberRow(o404)},
		"POST " + acc + "/inboxes/:id/set_agent_bot": {want: adminRow(o404), body: func(c *mxCell) any { return H{"agent_bot": c.w.Bot} }},
		"GET " + acc + "/inbox_members/:inbox_id":    {want: memberRow(o404)},
		"POST " + acc + "/inbox_members": {want: adminRow(oRef),
			body: func(c *mxCell) any { return H{"inbox_id": c.w.Inbox1, "user_ids": []int{c.w.Spare}} }},
		"PATCH " + acc + "/inbox_members": {want: adminRow(oRef),
			body: func(c *mxCell) any { return H{"inbox_id": c.w.Inbox1, "user_ids": []int{c.w.roles[roleIn].userID}} }},
		"DELETE " + acc + "/inbox_members": {want: adminRow(oRef), setup: mxFreshSpare,
			body: func(c *mxCell) any { return H{"inbox_id": c.w.Inbox1, "user_ids": []int{c.w.Spare}} }},
		"DELETE " + acc + "/inbox_members/:inbox_id": {want: adminRow(o404), setup: mxFreshSpare,
			body: func(c *mxCell) any { return H{"user_ids": []int{c.w.Spare}} }},

		"GET " + acc + "/custom_attribute_definitions":       {want: memberRow(o2xx)},
		"POST " + acc + "/custom_attribute_definitions":      {want: adminRow(o2xx), body: mxAttrBody},
		"GET " + acc + "/custom_attribute_definitions/:id":   {want: memberRow(o404)},
		"PATCH " + acc + "/custom_attribute_definitions/:id": {want: adminRow(o404), body: sameBody(H{"attribute_display_name": "Mx attr"})},
		"PUT " + acc + "/custom_attribute_definitions/:id":   {want: adminRow(o404), body: sameBody(H{"attribute_display_name": "Mx attr"})},
		"DELETE " + acc + "/custom_attribute_definitions/:id": {want: adminRow(o404),
			setup: freshObject("id", "/custom_attribute_definitions", mxAttrBody, "id")},

		"GET " + acc + "/agent_bots":        {want: memberRow(o2xx)},
		"POST " + acc + "/agent_bots":       {want: adminRow(o2xx), body: mxBotBody},
		"GET " + acc + "/agent_bots/:id":    {want: memberRow(o404)},
		"PATCH " + acc + "/agent_bots/:id":  {want: adminRow(o404), body: sameBody(H{"description": "Mx"})},
		"DELETE " + acc + "/agent_bots/:id": {want: adminRow(o404), setup: freshObject("id", "/agent_bots", mxBotBody, "id")},

		"GET " + acc + "/labels":        {want: memberRow(o2xx)},
		"POST " + acc + "/labels":       {want: adminRow(o2xx), body: mxLabelBody},
		"GET " + acc + "/labels/:id":    {want: memberRow(o404)},
		"PATCH " + acc + "/labels/:id":  {want: adminRow(o404), body: sameBody(H{"description": "Mx"})},
		"PUT " + acc + "/labels/:id":    {want: adminRow(o404), body: sameBody(H{"description": "Mx"})},
		"DELETE " + acc + "/labels/:id": {want: adminRow(o404), setup: freshObject("id", "/labels", mxLabelBody, "id")},

		"GET " + acc + "/webhooks":       {want: adminRow(o2xx)},
		"POST " + acc + "/webhooks":      {want: adminRow(o2xx), body: mxWebhookBody},
		"GET " + acc + "/webhooks/:id":   {want: adminRow(o404)},
		"PATCH " + acc + "/webhooks/:id": {want: adminRow(o404), body: mxWebhookBody},
		"PUT " + acc + "/webhooks/:id":   {want: adminRow(o404), body: mxWebhookBody},
		"DELETE " + acc + "/webhooks/:id": {want: adminRow(o404),
			setup: freshObject("id", "/webhooks", mxWebhookBody, "payload.webhook.id")},
		"GET " + acc + "/webhooks/:id/deliveries": {want: adminRow(o404)},
		"POST " + acc + "/webhooks/:id/deliveries/:delivery_id/retry": {want: adminRow(o404), setup: func(c *mxCell) {
			c.ids["delivery_id"] = failedDelivery(c.w.srv.DB.Client, c.w.Account, c.w.Webhook, c.n())
		}},
		"GET " + acc + "/webhooks/:id/deliveries/:delivery_id/attempts": {want: adminRow(o404), setup: func(c *mxCell) {
			c.ids["delivery_id"] = failedDelivery(c.w.srv.DB.Client, c.w.Account, c.w.Webhook, c.n())
		}},

		"GET " + acc + "/agents":        {want: memberRow(o2xx)},
		"POST " + acc + "/agents":       {want: adminRow(o2xx), body: mxAgentBody},
		"PATCH " + acc + "/agents/:id":  {want: adminRow(o404), body: sameBody(H{"availability": "busy"})},
		"PUT " + acc + "/agents/:id":    {want: adminRow(o404), body: sameBody(H{"availability": "online"})},
		"DELETE " + acc + "/agents/:id": {want: adminRow(o404), setup: freshObject("id", "/agents", mxAgentBody, "id")},

		"GET " + acc + "/teams":                  {want: memberRow(o2xx)},
		"POST " + acc + "/teams":                 {want: adminRow(o2xx), body: mxTeamBody},
		"GET " + acc + "/teams/:id":              {want: memberRow(o404)},
		"PATCH " + acc + "/teams/:id":            {want: adminRow(o404), body: sameBody(H{"description": "Mx"})},
		"PUT " + acc + "/teams/:id":              {want: adminRow(o404), body: sameBody(H{"description": "Mx"})},
		"DELETE " + acc + "/teams/:id":           {want: adminRow(o404), setup: freshObject("id", "/teams", mxTeamBody, "id")},
		"GET " + acc + "/teams/:id/team_members": {want: memberRow(o404)},
		"POST " + acc + "/teams/:id/team_members": {want: adminRow(o404),
			setup: freshObject("id", "/teams", mxTeamBody, "id"), body: mxSpareBody},
		"PATCH " + acc + "/teams/:id/team_members": {want: adminRow(o404), body: mxSpareBody},
		"DELETE " + acc + "/teams/:id/team_members": {want: adminRow(o404), body: mxSpareBody,
			setup: func(c *mxCell) {
				doRequest(c.t, c.w.app, request{method: "POST", path: c.w.path("/teams/%d/team_members", c.w.Team), body: mxSpareBody(c)})
			}},
	}
}

func mxAttrBody(c *mxCell) any {
	k := fmt.Sprintf("mx%d", c.n())
	return H{"attribute_display_name": k, "attribute_key": k, "attribute_display_type": "text", "attribute_model": "contact_attribute"}
}

func mxBotBody(c *mxCell) any {
	return H{"name": fmt.Sprintf("Bot %d", c.n()), "outgoing_url": c.w.url("/bot")}
}

func mxLabelBody(c *mxCell) any { return H{"title": fmt.Sprintf("mx-%d", c.n())} }

func mxWebhookBody(c *mxCell) any {
	return H{"url": c.w.url("/hook"), "subscriptions": []string{"message_created"}}
}

func mxAgentBody(c *mxCell) any {
	n := c.n()
	return H{"name": fmt.Sprintf("Invited %d", n), "email": fmt.Sprintf("invited%d@people.test", n), "role": "agent"}
}

func mxTeamBody(c *mxCell) any { return H{"name": fmt.Sprintf("Team %d", c.n())} }

func mxSpareBody(c *mxCell) any { return H{"user_ids": []int{c.w.Spare}} }
