package rest_test

// The matrix's table, part 3: funnels, kanban cards (account-level, linked
// to a conversation in inbox 1), the kanban config and automations.

import (
	"fmt"
	"net/http"
)

// mxCardRef: a write naming the conversation in inbox 1, which the agent
// outside it may not reach.
var mxCardRef = mxRow{o401, oRef, o2xx, o2xx, oRef, o401}

func mxCardBody(c *mxCell) any {
	return H{"kanban_item": H{"funnel_id": c.w.Funnel, "funnel_stage": "new", "conversation_display_id": c.w.Conv,
		"item_details": H{"title": fmt.Sprintf("Card %d", c.n())}}}
}

// mxFreshCard makes a card (with Spare assigned) for a one-shot request.
func mxFreshCard(c *mxCell) {
	c.t.Helper()
	r := doRequest(c.t, c.w.app, request{method: "POST", path: c.w.path("/kanban_items"), body: H{"kanban_item": H{
		"funnel_id": c.w.Funnel, "funnel_stage": "new", "assigned_agents": []int{c.w.Spare},
		"item_details": H{"title": fmt.Sprintf("Card %d", c.n())}}}})
	if r.Status != http.StatusOK {
		c.t.Fatalf("setup card: %s", r)
	}
	c.ids["id"] = r.int(c.t, "id")
}

// mxCardPart makes a checklist item or note on the seeded card and keeps its
// id for the body.
func mxCardPart(action string, body H, idPath, param string) func(c *mxCell) {
	return func(c *mxCell) {
		c.t.Helper()
		r := doRequest(c.t, c.w.app, request{method: "POST", path: c.w.path("/kanban_items/%d/%s", c.w.Card, action), body: body})
		if r.Status != http.StatusOK {
			c.t.Fatalf("setup %s: %s", action, r)
		}
		c.ids[param] = r.int(c.t, idPath)
	}
}

func mxFunnelBody(c *mxCell) any {
	return H{"funnel": H{"name": fmt.Sprintf("Funnel %d", c.n()), "stages": []H{{"name": "New", "slug": "new"}}}}
}

func mxAutomationBody(c *mxCell) any {
	return H{"name": fmt.Sprintf("Auto %d", c.n()), "trigger_type": "status_changed", "action_type": "set_priority",
		"action_config": H{"priority": "high"}}
}

func mxCsvUpload(c *mxCell, extra ...string) *form {
	return fields(extra...).file("file", "cards.csv", "text/csv", []byte("Title\nImported\n"))
}

func kanbanEntries() map[string]mxEntry {
	const acc = "/api/v1/accounts/:account_id"
	const item = acc + "/kanban_items/:id"
	checklistID := func(c *mxCell) any { return H{"checklist_item_id": c.w.Checklist, "text": "MX step"} }
	noteID := func(c *mxCell) any { return H{"note_id": c.w.Note, "content": "MX note"} }
	cardIDs := func(extra H) func(c *mxCell) any {
		return func(c *mxCell) any {
			b := H{"item_ids": []int{c.w.Card}}
			for k, v := range extra {
				b[k] = v
			}
			return b
		}
	}
	return map[string]mxEntry{
		"GET " + acc + "/funnels":                         {want: memberRow(o2xx)},
		"POST " + acc + "/funnels":                        {want: adminRow(o2xx), body: mxFunnelBody},
		"GET " + acc + "/funnels/:id":                     {want: memberRow(o404)},
		"PATCH " + acc + "/funnels/:id":                   {want: adminRow(o404), body: sameBody(H{"funnel": H{"description": "Mx"}})},
		"PUT " + acc + "/funnels/:id":                     {want: adminRow(o404), body: sameBody(H{"funnel": H{"description": "Mx"}})},
		"DELETE " + acc + "/funnels/:id":                  {want: adminRow(o404), setup: freshObject("id", "/funnels", mxFunnelBody, "id")},
		"PATCH " + acc + "/funnels/:id/reorder":           {want: adminRow(o404), body: sameBody(H{"stages": []string{"new", "won"}})},
		"GET " + acc + "/funnels/:id/stage_stats":         {want: memberRow(o404)},
		"GET " + acc + "/funnels/:funnel_id/kanban_items": {want: memberRow(o404)},

		"GET " + acc + "/kanban_items":       {want: memberRow(o2xx)},
		"POST " + acc + "/kanban_items":      {want: mxCardRef, body: mxCardBody},
		"GET " + acc + "/kanban_items/batch": {want: memberRow(o2xx)},
		"POST " + acc + "/kanban_items/reorder": {want: memberRow(oRef),
			body: func(c *mxCell) any { return H{"positions": []H{{"id": c.w.Card, "position": 0}}} }},
		"GET " + acc + "/kanban_items/search":          {want: memberRow(o2xx)},
		"GET " + acc + "/kanban_items/filter":          {want: memberRow(o2xx)},
		"GET " + acc + "/kanban_items/reports":         {want: memberRow(o2xx)},
		"GET " + acc + "/kanban_items/export":          {want: memberRow(o2xx)},
		"POST " + acc + "/kanban_items/import_preview": {want: memberRow(o2xx), body: func(c *mxCell) any { return mxCsvUpload(c) }},
		"POST " + acc + "/kanban_items/import": {want: memberRow(oRef), body: func(c *mxCell) any {
			return mxCsvUpload(c, "funnel_id", fmt.Sprint(c.w.Funnel), "default_stage", "new", "mappings", `{"Title":"title"}`)
		}},
		"POST " + acc + "/kanban_items/bulk_move_items":   {want: memberRow(oRef), body: cardIDs(H{"funnel_stage": "new"})},
		"POST " + acc + "/kanban_items/bulk_assign_agent": {want: memberRow(oRef), body: func(c *mxCell) any { return cardIDs(H{"agent_id": c.w.Spare})(c) }},
		"POST " + acc + "/kanban_items/bulk_set_priority": {want: memberRow(oRef), body: cardIDs(H{"priority": "low"})},

		"GET " + item:                              {want: memberRow(o404)},
		"PATCH " + item:                            {want: memberRow(o404), body: sameBody(H{"item_details": H{"priority": "low"}})},
		"PUT " + item:                              {want: memberRow(o404), body: sameBody(H{"item_details": H{"priority": "low"}})},
		"DELETE " + item:                           {want: adminRow(o404), setup: mxFreshCard},
		"POST " + item + "/move_to_stage":          {want: memberRow(o404), body: sameBody(H{"funnel_stage": "new"})},
		"POST " + item + "/move":                   {want: memberRow(o404), body: func(c *mxCell) any { return H{"funnel_id": c.w.Funnel, "funnel_stage": "new"} }},
		"POST " + item + "/change_status":          {want: memberRow(o404), body: sameBody(H{"status": "open"})},
		"POST " + item + "/assign_agent":           {want: memberRow(o404), setup: mxFreshCard, body: func(c *mxCell) any { return H{"agent_id": c.w.roles[roleIn].userID} }},
		"POST " + item + "/remove_agent":           {want: memberRow(o404), setup: mxFreshCard, body: func(c *mxCell) any { return H{"agent_id": c.w.Spare} }},
		"DELETE " + item + "/remove_agent":         {want: memberRow(o404), setup: mxFreshCard, body: func(c *mxCell) any { return H{"agent_id": c.w.Spare} }},
		"GET " + item + "/assigned_agents":         {want: memberRow(o404)},
		"POST " + item + "/create_checklist_item":  {want: memberRow(o404), body: sameBody(H{"text": "Another step"})},
		"GET " + item + "/get_checklist":           {want: memberRow(o404)},
		"PATCH " + item + "/update_checklist_item": {want: memberRow(o404), body: checklistID},
		"PUT " + item + "/update_checklist_item":   {want: memberRow(o404), body: checklistID},
		"POST " + item + "/toggle_checklist_item":  {want: memberRow(o404), body: checklistID},
		"DELETE " + item + "/delete_checklist_item": {want: memberRow(o404),
			setup: mxCardPart("create_checklist_item", H{"text": "Gone"}, "checklist_item.id", "part"),
			body:  func(c *mxCell) any { return H{"checklist_item_id": c.ids["part"]} }},
		"POST " + item + "/create_note":  {want: memberRow(o404), body: sameBody(H{"content": "Another note"})},
		"GET " + item + "/get_notes":     {want: memberRow(o404)},
		"PATCH " + item + "/update_note": {want: mxAuthorOrAdminCard, body: noteID},
		"PUT " + item + "/update_note":   {want: mxAuthorOrAdminCard, body: noteID},
		"DELETE " + item + "/delete_note": {want: mxAuthorOrAdminCard,
			setup: mxCardPart("create_note", H{"content": "Gone"}, "note.id", "part"),
			body:  func(c *mxCell) any { return H{"note_id": c.ids["part"]} }},
		"GET " + item + "/time_report":          {want: memberRow(o404)},
		"GET " + item + "/stage_time_breakdown": {want: memberRow(o404)},
		"GET " + item + "/counts":               {want: memberRow(o404)},

		"GET " + acc + "/kanban_config":   {want: adminRow(o2xx)},
		"POST " + acc + "/kanban_config":  {want: adminRow(o2xx), body: mxKanbanConfigBody},
		"PUT " + acc + "/kanban_config":   {want: adminRow(o2xx), body: mxKanbanConfigBody},
		"PATCH " + acc + "/kanban_config": {want: adminRow(o2xx), body: mxKanbanConfigBody},
		// Last: the other routes read the config it deletes.
		"DELETE " + acc + "/kanban_config":            {want: adminRow(o2xx), last: true},
		"POST " + acc + "/kanban_config/test_webhook": {want: adminRow(o2xx)},

		// Automations are the administrators' (reads included).
		"GET " + acc + "/kanban/automations":        {want: adminRow(o2xx)},
		"POST " + acc + "/kanban/automations":       {want: adminRow(o2xx), body: mxAutomationBody},
		"GET " + acc + "/kanban/automations/:id":    {want: adminRow(o404)},
		"PATCH " + acc + "/kanban/automations/:id":  {want: adminRow(o404), body: sameBody(H{"enabled": true})},
		"PUT " + acc + "/kanban/automations/:id":    {want: adminRow(o404), body: sameBody(H{"enabled": true})},
		"DELETE " + acc + "/kanban/automations/:id": {want: adminRow(o404), setup: freshObject("id", "/kanban/automations", mxAutomationBody, "id")},
	}
}

// mxAuthorOrAdminCard: a note is changed by its author (A's administrator)
// or an administrator; the card itself is account-level.
var mxAuthorOrAdminCard = mxRow{o401, o403, o403, o2xx, o404, o401}

func mxKanbanConfigBody(c *mxCell) any {
	return H{"kanban_config": H{"webhook_url": c.w.url("/kanban"), "enabled": true}}
}
