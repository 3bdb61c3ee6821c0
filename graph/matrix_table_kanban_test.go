package graph_test

// The GraphQL matrix's table, part 3: funnels, kanban cards, the kanban
// config and automations, and the subscriptions.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

func gmFreshCard(c *gmCell) {
	c.ids["id"] = c.restID("/kanban_items", H{"kanban_item": H{"funnel_id": c.w.Funnel, "funnel_stage": "new",
		"assigned_agents": []int{c.w.Spare}, "item_details": H{"title": fmt.Sprintf("Card %d", c.n())}}}, "id")
}

func gmCardPart(action string, body H, idPath string) func(c *gmCell) {
	return func(c *gmCell) {
		c.ids["id"] = c.restID(fmt.Sprintf("/kanban_items/%d/%s", c.w.Card, action), body, idPath)
	}
}

func gmKanbanMutations() map[string]gmEntry {
	onCard := func(format string) func(c *gmCell) string {
		return func(c *gmCell) string { return fmt.Sprintf(format, c.w.Card, c.ids["id"]) }
	}
	return map[string]gmEntry{
		"mutation.createFunnel": {want: gmAdminList(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createFunnel(input: {name: "F %d", stages: [{name: "New", slug: "new"}]}) { funnel { id } userErrors { field message code } }`, c.n())
		}},
		"mutation.updateFunnel": {want: gmAdminObj(), field: gmf(`updateFunnel(id: %d, input: {description: "x"}) { funnel { id } userErrors { field message code } }`, wFunnel)},
		"mutation.deleteFunnel": {want: gmAdminObj(), field: idf("deleteFunnel(id: %d) { deletedId userErrors { field message code } }", "id"),
			setup: gmFresh("id", "/funnels", func(c *gmCell) any {
				return H{"funnel": H{"name": fmt.Sprintf("Gone %d", c.n()), "stages": []H{{"name": "New", "slug": "new"}}}}
			}, "id")},
		"mutation.reorderFunnelStages": {want: gmAdminObj(), field: gmf(`reorderFunnelStages(id: %d, slugs: ["new", "won"]) { funnel { id } userErrors { field message code } }`, wFunnel)},

		"mutation.createKanbanItem": {want: gmInboxRef(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createKanbanItem(input: {funnelID: %d, stage: "new", conversationDisplayID: %d, title: "C %d"}) { kanbanItem { id } userErrors { field message code } }`, c.w.Funnel, c.w.Conv, c.n())
		}},
		"mutation.updateKanbanItem":       {want: gmMemberObj(), field: gmf(`updateKanbanItem(id: %d, input: {priority: "low"}) { kanbanItem { id } userErrors { field message code } }`, wCard)},
		"mutation.deleteKanbanItem":       {want: gmAdminObj(), setup: gmFreshCard, field: idf("deleteKanbanItem(id: %d) { deletedId userErrors { field message code } }", "id")},
		"mutation.moveKanbanItem":         {want: gmMemberObj(), field: gmf(`moveKanbanItem(id: %d, stage: "new") { kanbanItem { id } userErrors { field message code } }`, wCard)},
		"mutation.reorderKanbanItems":     {want: gmMemberRef(), field: gmf(`reorderKanbanItems(positions: [{id: %d, position: 0}]) { kanbanItems { id } userErrors { field message code } }`, wCard)},
		"mutation.changeKanbanItemStatus": {want: gmMemberObj(), field: gmf(`changeKanbanItemStatus(id: %d, status: "open") { kanbanItem { id } userErrors { field message code } }`, wCard)},
		"mutation.assignKanbanItemAgent": {want: gmMemberObj(), setup: gmFreshCard, field: func(c *gmCell) string {
			return fmt.Sprintf("assignKanbanItemAgent(id: %d, agentID: %d) { kanbanItem { id } userErrors { field message code } }", c.ids["id"], c.w.userIn)
		}},
		"mutation.removeKanbanItemAgent": {want: gmMemberObj(), setup: gmFreshCard, field: func(c *gmCell) string {
			return fmt.Sprintf("removeKanbanItemAgent(id: %d, agentID: %d) { kanbanItem { id } userErrors { field message code } }", c.ids["id"], c.w.Spare)
		}},
		"mutation.createChecklistItem": {want: gmMemberObj(), field: gmf(`createChecklistItem(kanbanItemID: %d, input: {text: "x"}) { checklistItem { id } userErrors { field message code } }`, wCard)},
		"mutation.updateChecklistItem": {want: gmMemberObj(), field: gmf(`updateChecklistItem(kanbanItemID: %d, id: %d, input: {text: "GM step"}) { checklistItem { id } userErrors { field message code } }`, wCard, wCheck)},
		"mutation.toggleChecklistItem": {want: gmMemberObj(), field: gmf(`toggleChecklistItem(kanbanItemID: %d, id: %d) { checklistItem { id } userErrors { field message code } }`, wCard, wCheck)},
		"mutation.deleteChecklistItem": {want: gmMemberObj(), setup: gmCardPart("create_checklist_item", H{"text": "Gone"}, "checklist_item.id"),
			field: onCard("deleteChecklistItem(kanbanItemID: %d, id: %d) { deletedId userErrors { field message code } }")},
		"mutation.createCardNote": {want: gmMemberObj(), field: gmf(`createCardNote(kanbanItemID: %d, content: "x") { cardNote { id } userErrors { field message code } }`, wCard)},
		"mutation.updateCardNote": {want: gmAuthorOrAdminCard(), field: gmf(`updateCardNote(kanbanItemID: %d, id: %d, content: "GM note") { cardNote { id } userErrors { field message code } }`, wCard, wNote)},
		"mutation.deleteCardNote": {want: gmAuthorOrAdminCard(), setup: gmCardPart("create_note", H{"content": "Gone"}, "note.id"),
			field: onCard("deleteCardNote(kanbanItemID: %d, id: %d) { deletedId userErrors { field message code } }")},
		"mutation.bulkMoveKanbanItems":   {want: gmMemberRef(), field: gmf(`bulkMoveKanbanItems(ids: [%d], stage: "new") { kanbanItems { id } userErrors { field message code } }`, wCard)},
		"mutation.bulkAssignKanbanAgent": {want: gmMemberRef(), field: gmf(`bulkAssignKanbanAgent(ids: [%d], agentID: %d) { kanbanItems { id } userErrors { field message code } }`, wCard, wSpare)},
		"mutation.bulkSetKanbanPriority": {want: gmMemberRef(), field: gmf(`bulkSetKanbanPriority(ids: [%d], priority: "low") { kanbanItems { id } userErrors { field message code } }`, wCard)},

		"mutation.saveKanbanConfig": {want: gmAdminList(), field: func(c *gmCell) string {
			return fmt.Sprintf(`saveKanbanConfig(input: {webhookURL: "%s/kanban", enabled: true}) { kanbanConfig { __typename } userErrors { field message code } }`, c.w.hook.URL)
		}},
		// Last: the other fields read the config it deletes.
		"mutation.deleteKanbanConfig": {want: gmAdminList(), field: gmFixed("deleteKanbanConfig { deleted userErrors { field message code } }"), last: true},
		// B's administrator tests B's own webhook (saved by saveKanbanConfig).
		"mutation.testKanbanWebhook": {want: gmAdminList(), field: gmFixed("testKanbanWebhook { test { success } userErrors { field message code } }")},
		"mutation.createKanbanAutomation": {want: gmAdminList(), field: func(c *gmCell) string {
			return fmt.Sprintf(`createKanbanAutomation(input: {name: "A %d", triggerType: "status_changed", actionType: "set_priority", actionConfig: {priority: "high"}}) { kanbanAutomation { id } userErrors { field message code } }`, c.n())
		}},
		"mutation.updateKanbanAutomation": {want: gmAdminObj(), field: gmf("updateKanbanAutomation(id: %d, input: {enabled: true}) { kanbanAutomation { id } userErrors { field message code } }", wAuto)},
		"mutation.deleteKanbanAutomation": {want: gmAdminObj(), field: idf("deleteKanbanAutomation(id: %d) { deletedId userErrors { field message code } }", "id"),
			setup: gmFresh("id", "/kanban/automations", func(c *gmCell) any {
				return H{"name": fmt.Sprintf("Gone %d", c.n()), "trigger_type": "status_changed", "action_type": "set_priority", "action_config": H{"priority": "high"}}
			}, "id")},
		"mutation.previewKanbanImport": {want: gmMember(), upload: true,
			field: gmFixed(`previewKanbanImport(file: $file) { preview { totalRows } userErrors { field message code } }`)},
		"mutation.importKanbanItems": {want: gmMemberRef(), upload: true,
			field: gmf(`importKanbanItems(funnelID: %d, file: $file, mapping: {Title: "title"}, defaultStage: "new") { result { total } userErrors { field message code } }`, wFunnel)},
	}
}

// gmScheduleVisible schedules a message in inbox 2 and one in account B,
// which every member of either may see.
func gmScheduleVisible(content string) func(c *gmCell) {
	return func(c *gmCell) {
		at := gmLater()
		c.w.mustREST("POST", c.w.accountPath+"/scheduled_messages", c.w.Admin, H{"inbox_id": c.w.Inbox2,
			"contact_id": c.w.ContactOut, "content": content, "scheduled_at": at}, http.StatusOK)
		c.w.mustREST("POST", c.w.pathOfB+"/scheduled_messages", c.w.tokens[gmOther], H{"inbox_id": c.w.InboxB,
			"contact_id": c.w.ContactB, "content": content, "scheduled_at": at}, http.StatusOK)
	}
}

// gmScheduleWarmup schedules a message in every inbox of A and in B, so
// each role sees one once its subscription is registered.
func gmScheduleWarmup(c *gmCell) {
	c.w.mustREST("POST", c.w.accountPath+"/scheduled_messages", c.w.Admin, H{"inbox_id": c.w.Inbox1,
		"contact_id": c.w.Contact, "content": "Warmup", "scheduled_at": gmLater()}, http.StatusOK)
	gmScheduleVisible("Warmup")(c)
}

// gmScheduleEverywhere schedules a message in inbox 1 (holding the
// marker) and deletes it, then schedules visible ones: a viewer who may not
// see inbox 1 gets a visible one first.
func gmScheduleEverywhere(c *gmCell) {
	at := gmLater()
	hidden := c.w.mustREST("POST", c.w.accountPath+"/scheduled_messages", c.w.Admin, H{"inbox_id": c.w.Inbox1,
		"contact_id": c.w.Contact, "content": gmMarkSchedule, "scheduled_at": at}, http.StatusOK)
	c.w.mustREST("DELETE", fmt.Sprintf("%s/scheduled_messages/%v", c.w.accountPath, mustGet(c.t, hidden, "id")), c.w.Admin, nil, http.StatusNoContent)
	gmScheduleVisible("Visible")(c)
}

func gmSubscriptions() map[string]gmEntry {
	return map[string]gmEntry{
		// The account-wide schedule feed is filtered by the inbox rule.
		"edge.sub.scheduledMessageUpdated": {want: gmMember(),
			field:   gmFixed("scheduledMessageUpdated { kind id scheduledMessage { content } }"),
			warmup:  gmScheduleWarmup,
			trigger: gmScheduleEverywhere,
			check: func(c *gmCell, body []byte) string {
				if (c.role == gmOut || c.role == gmOther) && !strings.Contains(string(body), "Visible") {
					return fmt.Sprintf("%s got an event of inbox 1 (its creation or deletion) first: %s", c.role, body)
				}
				return ""
			}},
		"subscription.messageCreated": {want: gmInboxObj(),
			field: gmf("messageCreated(conversationDisplayID: %d) { content }", wConv),
			trigger: func(c *gmCell) {
				c.w.mustREST("POST", fmt.Sprintf("%s/conversations/%d/messages", c.w.accountPath, c.w.Conv), c.w.Admin, H{"content": "Live"}, http.StatusOK)
			}},
		"subscription.scheduledMessageUpdated": {want: gmInboxObj(),
			field:   gmf("scheduledMessageUpdated(conversationDisplayID: %d) { kind scheduledMessage { content } }", wConv),
			trigger: gmFreshSchedule},
		"subscription.kanbanBoardChanged": {want: gmMemberObj(),
			field: gmf("kanbanBoardChanged(funnelID: %d) { kind item { id conversation { "+inboxContent+" } } }", wFunnel),
			trigger: func(c *gmCell) {
				c.w.mustREST("PATCH", fmt.Sprintf("%s/kanban_items/%d", c.w.accountPath, c.w.Card), c.w.Admin,
					H{"item_details": H{"title": fmt.Sprintf("GM card %d", c.n())}}, http.StatusOK)
			}},
	}
}

// subscribeCell subscribes as the cell's role, makes the event, and
// returns the error code of the first answer ("" for data) and its body.
func (w *gmWorld) subscribeCell(c *gmCell, en gmEntry) (string, []byte) {
	if w.addr == "" {
		w.addr = w.listen()
	}
	d := websocket.Dialer{Subprotocols: []string{"graphql-transport-ws"}, HandshakeTimeout: 5 * time.Second}
	conn, _, err := d.Dial("ws://"+w.addr+"/graphql", nil)
	if err != nil {
		c.t.Fatalf("dialing: %v", err)
	}
	defer conn.Close()
	payload := map[string]any{}
	if tok := w.tokens[c.role]; tok != noToken {
		payload["api_access_token"] = tok
	}
	must(c.t, conn.WriteJSON(wsMsg{Type: "connection_init", Payload: payload}))
	ack, closed := readWS(conn)
	if closed != "" || ack.Type != "connection_ack" {
		return "UNAUTHENTICATED", []byte(fmt.Sprintf("%+v %s", ack, closed))
	}
	must(c.t, conn.WriteJSON(wsMsg{ID: "1", Type: "subscribe", Payload: map[string]any{"query": "subscription { " + en.field(c) + " }"}}))
	// The subscription registers asynchronously: make the event again until
	// an answer comes (a refusal comes at once), up to a deadline.
	in := make(chan wsMsg, 64)
	done := make(chan string, 1)
	go pumpWS(conn, in, done)
	first := en.trigger
	if en.warmup != nil {
		first = en.warmup
	}
	m, failed := firstAnswer(c, first, in, done)
	if failed != "" {
		return failed, nil
	}
	if en.warmup != nil && m.Type == "next" && m.Payload["errors"] == nil {
		// Registered: now the event under test, once; warm-up events
		// still in flight are skipped.
		en.trigger(c)
		if m, failed = nextAnswer(in, done, "Warmup"); failed != "" {
			return failed, nil
		}
	}
	body, _ := json.Marshal(m)
	switch m.Type {
	case "next":
		errs, _ := lookup(m.Payload, "errors.0.extensions.code")
		if code, isStr := errs.(string); isStr {
			return code, body
		}
		return "", body
	case "error":
		var list []gqlErr
		raw, _ := json.Marshal(m.Payload["list"])
		_ = json.Unmarshal(raw, &list)
		if len(list) > 0 {
			code, _ := list[0].Extensions["code"].(string)
			return code, body
		}
	}
	return "UNEXPECTED " + m.Type, body
}

// firstAnswer makes the event again until the subscription answers (it
// registers asynchronously; a refusal comes at once), up to a deadline.
func firstAnswer(c *gmCell, trigger func(c *gmCell), in <-chan wsMsg, done <-chan string) (wsMsg, string) {
	deadline := time.After(10 * time.Second)
	for {
		trigger(c)
		select {
		case m := <-in:
			return m, ""
		case closed := <-done:
			return wsMsg{}, "CLOSED " + closed
		case <-deadline:
			return wsMsg{}, "NO ANSWER"
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// nextAnswer waits for the next message that does not mention skip.
func nextAnswer(in <-chan wsMsg, done <-chan string, skip string) (wsMsg, string) {
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m := <-in:
			if raw, _ := json.Marshal(m); !strings.Contains(string(raw), skip) {
				return m, ""
			}
		case closed := <-done:
			return wsMsg{}, "CLOSED " + closed
		case <-deadline:
			return wsMsg{}, "NO ANSWER"
		}
	}
}

// readWS reads the next protocol message other than ping/pong, with a
// deadline; closed describes a closed connection.
func readWS(conn *websocket.Conn) (wsMsg, string) {
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	defer func() { _ = conn.SetReadDeadline(time.Time{}) }()
	for {
		m, err := decodeWS(conn)
		if err != nil {
			return wsMsg{}, err.Error()
		}
		if m.Type != "ping" && m.Type != "pong" && m.Type != "ka" {
			return m, ""
		}
	}
}

// pumpWS forwards messages other than ping/pong until the connection ends.
func pumpWS(conn *websocket.Conn, in chan<- wsMsg, done chan<- string) {
	for {
		m, err := decodeWS(conn)
		if err != nil {
			done <- err.Error()
			return
		}
		if m.Type != "ping" && m.Type != "pong" && m.Type != "ka" {
			in <- m
		}
	}
}

// decodeWS reads one message; an "error" message's payload (a list) goes
// under "list".
func decodeWS(conn *websocket.Conn) (wsMsg, error) {
	_, raw, err := conn.ReadMessage()
	if err != nil {
		return wsMsg{}, err
	}
	var m wsMsg
	if json.Unmarshal(raw, &m) != nil {
		var alt struct {
			ID      string `json:"id"`
			Type    string `json:"type"`
			Payload []any  `json:"payload"`
		}
		_ = json.Unmarshal(raw, &alt)
		m = wsMsg{ID: alt.ID, Type: alt.Type, Payload: map[string]any{"list": alt.Payload}}
	}
	return m, nil
}
