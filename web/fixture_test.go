package web_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/switchboard/switchboard/internal/testdb"
)

// pipeline is a five-stage sales funnel with cards that exercise every
// part of a card's face: values in two currencies, every priority, won and
// lost cards, an assignee, a checklist and a linked contact.
type pipeline struct {
	funnel int
	// cards by title
	cards map[string]int
	// checklistItem is the ticked item of Acme renewal's checklist.
	checklistItem int
	// conv is the display id of Acme renewal's conversation, with Alice.
	conv int
}

var pipelineStages = []map[string]any{
	{"name": "Lead", "slug": "lead", "color": "#6b7385"},
	{"name": "Qualified", "slug": "qualified", "color": "#1f6feb"},
	{"name": "Proposal", "slug": "proposal", "color": "#8250df"},
	{"name": "Negotiation", "slug": "negotiation", "color": "#bf8700"},
	{"name": "Closed", "slug": "closed", "color": "#1e7e34"},
}

func (c *console) mustPost(path string, body any) map[string]any {
	c.t.Helper()
	st, out := c.post(path, body, true)
	if st != http.StatusOK {
		c.t.Fatalf("POST %s: %d %v", path, st, out)
	}
	return out
}

func (c *console) mustPatch(path string, body any) map[string]any {
	c.t.Helper()
	st, out := c.sendJSON("PATCH", path, body, true)
	if st != http.StatusOK {
		c.t.Fatalf("PATCH %s: %d %v", path, st, out)
	}
	return out
}

func idOf(m map[string]any, key string) int {
	if v, ok := m[key].(float64); ok {
		return int(v)
	}
	return 0
}

func (c *console) newPipeline() pipeline {
	c.t.Helper()
	p := pipeline{cards: map[string]int{}}
	p.funnel = idOf(c.mustPost(c.api("/funnels"), map[string]any{"name": "Sales pipeline", "stages": pipelineStages}), "id")
	inbox := idOf(c.mustPost(c.api("/inboxes"), map[string]any{"name": "API", "channel": map[string]any{"type": "api"}}), "id")
	ct := c.mustPost(c.api("/contacts"), map[string]any{"name": "Alice Buyer", "email": "alice@buyer.test", "inbox_id": inbox})
	contactID := idOf(ct["payload"].(map[string]any)["contact"].(map[string]any), "id")
	conv := idOf(c.mustPost(c.api("/conversations"), map[string]any{"inbox_id": inbox, "contact_id": contactID}), "id")
	eur := map[string]any{"code": "EUR"}
	for _, card := range []struct {
		title, stage, priority string
		value                  float64
		currency               map[string]any
		extra                  map[string]any
	}{
		{"Acme renewal", "lead", "urgent", 7395, eur, map[string]any{"assigned_agents": []int{c.user}, "conversation_display_id": conv}},
		{"Globex pilot", "lead", "high", 12500.5, eur, nil},
		{"Initech seats", "lead", "low", 1800, map[string]any{"code": "USD"}, nil},
		{"Umbrella audit", "qualified", "medium", 45000, eur, nil},
		{"Hooli upgrade", "proposal", "none", 0, nil, nil},
		{"Stark expansion", "negotiation", "urgent", 250000, eur, nil},
		{"Wayne deal", "closed", "high", 98000, eur, nil},
		{"Tyrell trial", "closed", "low", 3200, eur, nil},
	} {
		body := map[string]any{"funnel_id": p.funnel, "funnel_stage": card.stage,
			"item_details": map[string]any{"title": card.title, "priority": card.priority, "value": card.value, "currency": card.currency}}
		for k, v := range card.extra {
			body[k] = v
		}
		p.cards[card.title] = idOf(c.mustPost(c.api("/kanban_items"), body), "id")
	}
	c.mustPost(c.api(fmt.Sprintf("/kanban_items/%d/change_status", p.cards["Wayne deal"])), map[string]any{"status": "won"})
	c.mustPost(c.api(fmt.Sprintf("/kanban_items/%d/change_status", p.cards["Tyrell trial"])), map[string]any{"status": "lost"})
	acme := p.cards["Acme renewal"]
	item := idOf(c.mustPost(c.api(fmt.Sprintf("/kanban_items/%d/create_checklist_item", acme)), map[string]any{"text": "Send quote"})["checklist_item"].(map[string]any), "id")
	c.mustPost(c.api(fmt.Sprintf("/kanban_items/%d/create_checklist_item", acme)), map[string]any{"text": "Book demo"})
	c.mustPost(c.api(fmt.Sprintf("/kanban_items/%d/toggle_checklist_item", acme)), map[string]any{"checklist_item_id": item})
	p.checklistItem = item
	p.conv = conv
	return p
}

// pipelineInBrowser is the set-up most console flows start from: a fresh
// console on engine e with the sample pipeline, and a browser tab signed in
// at the laptop width.
func pipelineInBrowser(t *testing.T, e testdb.Engine) (*console, pipeline, *browser, string) {
	t.Helper()
	c := newConsole(t, e)
	p := c.newPipeline()
	b := startBrowser(t)
	tab := b.signInTab(c.base)
	b.setWidth(tab, screenWidths[0])
	return c, p, b, tab
}
