package rest_test

import "fmt"

// The console's card and board screens: members work cards, administrators
// manage boards and delete cards; another account's admin meets its own
// account's absence of those ids.

// consoleAdminRow: administrators only; agents are refused.
func consoleAdminRow(admin, other outcome) mxRow {
	return mxRow{oLogin, o403, o403, admin, other, oLogin}
}

// freshFunnel points :funnel_id at a new funnel with one empty stage, "new".
var freshFunnel = freshObject("funnel_id", "/funnels", mxFunnelBody, "id")

func consoleEntries() map[string]mxEntry {
	const app = "/app/accounts/:account_id"
	const item = app + "/kanban_items/:id"
	form := func(kv ...string) func(c *mxCell) any { return func(c *mxCell) any { return fields(kv...) } }
	named := func(c *mxCell) any { return fields("name", fmt.Sprintf("Board %d", c.n()), "stages", "One\nTwo") }
	return map[string]mxEntry{
		"GET " + app + "/reports":                      {want: consoleRow(o2xx)},
		"GET " + app + "/funnels/:funnel_id/cards/new": {want: consoleRow(o404)},
		"GET " + item + "/drawer":                      {want: consoleRow(o404)},
		"POST " + app + "/funnels":                     {want: consoleAdminRow(oRedirect, oRedirect), body: named},
		"POST " + app + "/funnels/:funnel_id/rename":   {want: consoleAdminRow(oRedirect, o404), body: named},
		"POST " + app + "/funnels/:funnel_id/delete":   {want: consoleAdminRow(oRedirect, o404), setup: freshObject("funnel_id", "/funnels", mxFunnelBody, "id")},
		"POST " + app + "/funnels/:funnel_id/cards":    {want: consoleRow(oRef), body: form("title", "MX console card", "stage", "new")},
		// A board's stages: administrators change them, on a board of their own
		// where a change could upset other rows.
		"GET " + app + "/funnels/:funnel_id/stages": {want: consoleRow(o404)},
		"POST " + app + "/funnels/:funnel_id/stages": {want: consoleAdminRow(oRedirect, o404), setup: freshFunnel,
			body: form("name", "MX stage", "color", "#123456")},
		"POST " + app + "/funnels/:funnel_id/stages/:slug/edit":   {want: consoleAdminRow(oRedirect, o404), body: form("name", "New")},
		"POST " + app + "/funnels/:funnel_id/stages/:slug/move":   {want: consoleAdminRow(oRedirect, o404), body: form("direction", "right")},
		"POST " + app + "/funnels/:funnel_id/stages/:slug/delete": {want: consoleAdminRow(oRedirect, o404), setup: freshFunnel},
		"POST " + app + "/kanban_items/bulk": {want: consoleRow(oRef), body: func(c *mxCell) any {
			return fields("ids", fmt.Sprint(c.w.Card), "action", "priority", "priority", "low")
		}},
		"POST " + item + "/edit":                   {want: consoleRow(o404), body: form("description", "From the console")},
		"POST " + item + "/status":                 {want: consoleRow(o404), body: form("status", "open")},
		"POST " + item + "/delete":                 {want: consoleAdminRow(o2xx, o404), setup: mxFreshCard},
		"POST " + item + "/agents":                 {want: consoleRow(o404), setup: mxFreshCard, body: func(c *mxCell) any { return fields("agent_id", fmt.Sprint(c.w.Spare), "action", "remove") }},
		"POST " + item + "/checklist":              {want: consoleRow(o404), body: form("text", "MX console step")},
		"POST " + item + "/checklist/:item/toggle": {want: consoleRow(o404), setup: mxCardPart("create_checklist_item", H{"text": "MX"}, "checklist_item.id", "item")},
		"POST " + item + "/checklist/:item/delete": {want: consoleRow(o404), setup: mxCardPart("create_checklist_item", H{"text": "MX"}, "checklist_item.id", "item")},
		"POST " + item + "/notes":                  {want: consoleRow(o404), body: form("content", "MX console note")},
		"POST " + item + "/notes/:note/delete":     {want: consoleAdminRow(o2xx, o404), setup: mxCardPart("create_note", H{"content": "MX"}, "note.id", "note")},
		"POST " + item + "/checklist/:item/edit": {want: consoleRow(o404), setup: mxCardPart("create_checklist_item", H{"text": "MX"}, "checklist_item.id", "item"),
			body: form("text", "MX reworded")},
		"POST " + item + "/notes/:note/edit": {want: consoleAdminRow(o2xx, o404), setup: mxCardPart("create_note", H{"content": "MX"}, "note.id", "note"),
			body: form("content", "MX reworded")},
		// A reply goes to the card's conversation: an agent outside its inbox
		// does not find it.
		"POST " + item + "/reply": {want: mxRow{oLogin, o404, o2xx, o2xx, o404, oLogin}, body: form("content", "MX reply")},
	}
}
