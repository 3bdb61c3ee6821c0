package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard/switchboard/internal/events"
	"github.com/switchboard/switchboard/internal/testdb"
)

// TestConsoleCardWritesRefuseBadInput: every drawer action refuses bad
// input and other origins with a clear JSON error, and changes nothing.
func TestConsoleCardWritesRefuseBadInput(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		acme := p.cards["Acme renewal"]
		card := func(rest string) string { return c.app(fmt.Sprintf("/kanban_items/%d%s", acme, rest)) }
		none := []events.Kind{}
		c.run(t, []consoleCase{
			{name: "another origin", path: card("/edit"), form: url.Values{"title": {"Hijacked"}}, origin: "http://evil.example", status: http.StatusForbidden, body: errorAbout("Cross-origin"), events: none},
			{name: "a value that is no number", path: card("/edit"), form: url.Values{"title": {"Renamed"}, "value": {"lots"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Value must be a number"), events: none},
			{name: "a negative value", path: card("/edit"), form: url.Values{"value": {"-5"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Value must be a number from 0"), events: none},
			{name: "a blank title", path: card("/edit"), form: url.Values{"title": {"  "}}, status: http.StatusUnprocessableEntity, body: errorAbout("Title can't be blank"), events: none},
			{name: "an unknown priority", path: card("/edit"), form: url.Values{"priority": {"asap"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Priority must be one of"), events: none},
			{name: "an unknown status", path: card("/status"), form: url.Values{"status": {"paused"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Status must be one of"), events: none},
			{name: "an unknown agent action", path: card("/agents"), form: url.Values{"agent_id": {fmt.Sprint(c.user)}, "action": {"swap"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Action must be"), events: none},
			{name: "assigning an agent twice", path: card("/agents"), form: url.Values{"agent_id": {fmt.Sprint(c.user)}, "action": {"assign"}}, status: http.StatusUnprocessableEntity, body: errorAbout("already assigned"), events: none},
			{name: "a blank checklist item", path: card("/checklist"), form: url.Values{"text": {""}}, status: http.StatusUnprocessableEntity, body: errorAbout("Text can't be blank"), events: none},
			{name: "another card's checklist item", path: card("/checklist/999999/toggle"), form: url.Values{}, status: http.StatusNotFound, body: errorAbout("Checklist item"), events: none},
			{name: "a blank note", path: card("/notes"), form: url.Values{"content": {" "}}, status: http.StatusUnprocessableEntity, body: errorAbout("Content can't be blank"), events: none},
			{name: "an unknown card", path: c.app("/kanban_items/999999/edit"), form: url.Values{"title": {"x"}}, status: http.StatusNotFound, body: errorAbout("Kanban item"), events: none},
			{name: "a card id that is no number", path: c.app("/kanban_items/abc/status"), form: url.Values{"status": {"won"}}, status: http.StatusNotFound, body: errorAbout("Kanban item"), events: none},
			{name: "a new card without a title", path: c.app(fmt.Sprintf("/funnels/%d/cards", p.funnel)), form: url.Values{"stage": {"lead"}}, status: http.StatusUnprocessableEntity, body: errorAbout("Title can't be blank"), events: none},
			{name: "a new card in an unknown stage", path: c.app(fmt.Sprintf("/funnels/%d/cards", p.funnel)), form: url.Values{"title": {"x"}, "stage": {"nowhere"}}, status: http.StatusUnprocessableEntity, body: errorAbout("is not a stage"), events: none},
		})
		_, page := c.page(c.app(fmt.Sprintf("/funnels/%d/board?fragment=1", p.funnel)), c.cookie)
		if !strings.Contains(page, "Acme renewal<") || strings.Count(page, "data-card=\"") != len(p.cards) ||
			!strings.Contains(page, "✓ 1/2") {
			t.Errorf("a refused write changed the board (%d cards)", strings.Count(page, "data-card=\""))
		}
	})
}

// TestConsoleCardWritesTellTheirListeners: every write of the board and the
// drawer answers with the drawer (or the board's JSON) and tells the
// account's listeners exactly the changes it made, as the same write over
// the API does: other viewers' boards and the webhooks hear of it.
func TestConsoleCardWritesTellTheirListeners(t *testing.T) {
	testdb.ForEach(t, func(t *testing.T, e testdb.Engine) {
		c := newConsole(t, e)
		p := c.newPipeline()
		acme, globex := p.cards["Acme renewal"], p.cards["Globex pilot"]
		card := func(rest string) string { return c.app(fmt.Sprintf("/kanban_items/%d%s", acme, rest)) }
		updated := []events.Kind{events.KanbanItemUpdated}
		c.run(t, []consoleCase{
			{name: "editing the title", path: card("/edit"), form: url.Values{"title": {"Acme renewal 2027"}}, status: http.StatusOK,
				html: []string{"Acme renewal 2027"}, events: updated},
			{name: "closing as won", path: card("/status"), form: url.Values{"status": {"won"}}, status: http.StatusOK,
				events: []events.Kind{events.KanbanItemStatusChanged}},
			{name: "removing the agent", path: card("/agents"), form: url.Values{"agent_id": {fmt.Sprint(c.user)}, "action": {"remove"}},
				status: http.StatusOK, events: updated},
			{name: "assigning the agent", path: card("/agents"), form: url.Values{"agent_id": {fmt.Sprint(c.user)}, "action": {"assign"}},
				status: http.StatusOK, events: updated},
			{name: "adding a checklist item", path: card("/checklist"), form: url.Values{"text": {"Sign contract"}}, status: http.StatusOK,
				html: []string{"Sign contract"}, events: updated},
			{name: "ticking a checklist item off", path: card(fmt.Sprintf("/checklist/%d/toggle", p.checklistItem)), form: url.Values{},
				status: http.StatusOK, events: updated},
			{name: "adding a note", path: card("/notes"), form: url.Values{"content": {"Called, all good"}}, status: http.StatusOK,
				html: []string{"Called, all good"}, events: updated},
			{name: "moving by drag and drop", path: c.app(fmt.Sprintf("/kanban_items/%d/move", globex)),
				jsonBody: map[string]any{"funnel_stage": "proposal", "position": 0}, status: http.StatusOK,
				body: map[string]any{"id": float64(globex), "position": float64(0)}, events: []events.Kind{events.KanbanItemMoved}},
			{name: "a bulk priority change", path: c.app("/kanban_items/bulk"),
				form:   url.Values{"ids": {fmt.Sprint(acme), fmt.Sprint(globex)}, "action": {"priority"}, "priority": {"low"}},
				status: http.StatusOK, body: map[string]any{"count": float64(2)}, events: []events.Kind{events.KanbanItemUpdated, events.KanbanItemUpdated}},
			{name: "a new card", path: c.app(fmt.Sprintf("/funnels/%d/cards", p.funnel)), form: url.Values{"title": {"Soylent bid"}, "stage": {"lead"}},
				status: http.StatusOK, html: []string{"Soylent bid"}, events: []events.Kind{events.KanbanItemCreated}},
			{name: "deleting a card", path: card("/delete"), form: url.Values{}, status: http.StatusNoContent,
				events: []events.Kind{events.KanbanItemDeleted}},
		})
	})
}
